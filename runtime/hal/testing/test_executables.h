// The test executables (runtime/hal/testing/test_executable.c, built by
// runtime/CMakeLists.txt into FERRY_TEST_EXECUTABLE_DIR) as the records a
// module carries, for the executable and dispatch tests.
//
// Tests only.
#ifndef FERRY_RUNTIME_HAL_TESTING_TEST_EXECUTABLES_H_
#define FERRY_RUNTIME_HAL_TESTING_TEST_EXECUTABLES_H_

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/hal/cpu_features.h"
#include "runtime/vm/bytecode_encoder.h"

namespace ferry::hal::testing {

// The bytes of test executable `variant` ("good", "bad_abi", "no_entry").
inline std::vector<uint8_t> testExecutableImage(std::string_view variant) {
  std::string path = std::string(FERRY_TEST_EXECUTABLE_DIR) +
                     "/test_executable_" + std::string(variant) + ".so";
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read test executable %s\n", path.c_str());
    std::abort();
  }
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The entries of test_executable.c, by index.
enum TestEntry : uint32_t {
  kAddF32 = 0,           // (lhs read, rhs read, out write), push constant n
  kRecordWorkgroups = 1, // (record read/write)
  kFailInWorkgroup1 = 2, // (unused read)
  kOutOfMemoryInWorkgroup1 = 3, // (unused read)
};

// A record of `variant`'s image declaring every entry of test_executable.c.
inline vm::bytecode::ExecutableRecord
testExecutableRecord(std::string_view variant = "good",
                     std::string name = "test_exe",
                     std::string cpuFeatures = "") {
  return {std::move(name),
          std::string(kHostExecutableFormat),
          std::move(cpuFeatures),
          {{"add_f32",
            1,
            {FERRY_BINDING_ACCESS_READ, FERRY_BINDING_ACCESS_READ,
             FERRY_BINDING_ACCESS_WRITE}},
           {"record_workgroups",
            0,
            {FERRY_BINDING_ACCESS_READ | FERRY_BINDING_ACCESS_WRITE}},
           {"fail_in_workgroup_1", 0, {FERRY_BINDING_ACCESS_READ}},
           {"out_of_memory_in_workgroup_1", 0, {FERRY_BINDING_ACCESS_READ}}},
          testExecutableImage(variant)};
}

} // namespace ferry::hal::testing

#endif // FERRY_RUNTIME_HAL_TESTING_TEST_EXECUTABLES_H_

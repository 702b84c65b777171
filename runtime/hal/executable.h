// Executable: native code a module carries (an ELF shared object exporting
// the entry points of runtime/hal/executable_abi.h), loaded into the process
// without LLVM and run by Device::queueDispatchEntry.
//
// load() checks, in this order, and fails naming the executable and what is
// wrong: the image format is the host's ("elf-x86_64" on x86-64), every CPU
// feature the code may use is one the runtime can check and the running CPU
// has (cpu_features.h; before any of the image's code is mapped, so an
// executable built for another CPU never runs an illegal instruction), the
// image is an ELF file, the dynamic loader accepts it (its message), it
// exports `ferry_executable_abi_version` equal to
// FERRY_EXECUTABLE_ABI_VERSION, and it exports every entry. The image is
// written to an anonymous memory file (memfd_create) and dlopen()ed from
// /proc/self/fd with RTLD_NOW | RTLD_LOCAL, so nothing touches the file
// system and two executables never see each other's symbols.
//
// Ownership/threads: held by std::shared_ptr; the library is unloaded
// (dlclose) with the last reference, so a dispatch keeps its executable
// alive until it has run. Immutable after load(): entries may be called
// from any number of threads at once.
#ifndef FERRY_RUNTIME_HAL_EXECUTABLE_H_
#define FERRY_RUNTIME_HAL_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/cpu_features.h"
#include "runtime/hal/executable_abi.h"

namespace ferry::hal {

// One entry point the executable must export, as the module declares it.
struct ExecutableEntrySpec {
  std::string_view name;
  uint16_t pushConstantCount = 0;
  std::span<const uint8_t> bindingAccess; // FERRY_BINDING_ACCESS_* bits
  uint8_t kind = FERRY_ENTRY_KIND_COMPUTE;
};

// What load() needs to know about an image.
struct ExecutableSpec {
  std::string_view name;        // for errors
  std::string_view format;      // "elf-x86_64" / "elf-aarch64"
  std::string_view cpuFeatures; // comma-separated LLVM feature names
  std::span<const ExecutableEntrySpec> entries;
  std::span<const uint8_t> image;
};

class Executable {
public:
  struct Entry {
    std::string name;
    uint16_t pushConstantCount = 0;
    std::vector<uint8_t> bindingAccess;
    uint8_t kind = FERRY_ENTRY_KIND_COMPUTE;
    ferry_executable_entry_fn_t function = nullptr;
  };

  // Loads `spec`'s image; `cpu` is the CPU to check the features against
  // (tests pass a smaller set than the host's).
  static Result<std::shared_ptr<Executable>>
  load(const ExecutableSpec &spec,
       const CpuFeatureSet &cpu = CpuFeatureSet::host());

  ~Executable();
  Executable(const Executable &) = delete;
  Executable &operator=(const Executable &) = delete;

  const std::string &name() const { return name_; }
  std::span<const Entry> entries() const { return entries_; }

private:
  Executable() = default;

  std::string name_;
  std::vector<Entry> entries_;
  void *library_ = nullptr; // dlopen handle
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_EXECUTABLE_H_

// A gtest fixture giving each test an empty directory of its own (under
// gtest's TempDir, named after the suite, the process and the test), removed
// when the test ends, and a way to write files into it.
//
// Tests only: this header depends on gtest.
#ifndef FERRY_RUNTIME_TOOLS_TESTING_SCRATCH_DIRECTORY_H_
#define FERRY_RUNTIME_TOOLS_TESTING_SCRATCH_DIRECTORY_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <span>
#include <string>
#include <unistd.h>

#include "runtime/base/status.h"
#include "runtime/tools/file_reader.h"

namespace ferry::tools::testing {

class ScratchDirectoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    const ::testing::TestInfo *test =
        ::testing::UnitTest::GetInstance()->current_test_info();
    dir = strCat(::testing::TempDir(), "/ferry_", test->test_suite_name(), "_",
                 getpid(), "_", test->name());
    ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  }
  void TearDown() override {
    (void)std::system(("rm -rf '" + dir + "'").c_str());
  }

  // Writes `bytes` to `name` in the directory; returns its path.
  std::string write(const std::string &name, std::span<const uint8_t> bytes) {
    std::string path = dir + "/" + name;
    EXPECT_TRUE(writeFileBytes(path, bytes).ok());
    return path;
  }

  std::string dir;
};

} // namespace ferry::tools::testing

#endif // FERRY_RUNTIME_TOOLS_TESTING_SCRATCH_DIRECTORY_H_

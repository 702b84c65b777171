// Loading native executables (executable.h) from the test images of
// runtime/hal/testing/test_executable.c: each way an image can be wrong is a
// load error naming the executable and the problem.
#include "runtime/hal/executable.h"

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/hal/testing/test_executables.h"

namespace ferry::hal {
namespace {

using testing::testExecutableRecord;

// Loads `record` as the Context does.
Result<std::shared_ptr<Executable>>
loadRecord(const vm::bytecode::ExecutableRecord &record,
           const CpuFeatureSet &cpu = CpuFeatureSet::host()) {
  std::vector<ExecutableEntrySpec> entries;
  for (const vm::bytecode::EntryRecord &entry : record.entries)
    entries.push_back(
        {entry.name, entry.pushConstantCount, entry.bindingAccess});
  return Executable::load(
      {record.name, record.format, record.cpuFeatures, entries, record.image},
      cpu);
}

std::string processMaps() {
  std::ifstream in("/proc/self/maps");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ExecutableTest, LoadsAndRunsAnEntry) {
  auto executable = loadRecord(testExecutableRecord());
  ASSERT_TRUE(executable.ok()) << executable.status().toString();
  ASSERT_EQ((*executable)->entries().size(), 4u);
  const Executable::Entry &add = (*executable)->entries()[testing::kAddF32];
  EXPECT_EQ(add.name, "add_f32");
  EXPECT_EQ(add.pushConstantCount, 1);
  ASSERT_NE(add.function, nullptr);
  float lhs[5] = {1, 2, 3, 4, 5}, rhs[5] = {10, 20, 30, 40, 50}, out[5] = {};
  void *bindings[3] = {lhs, rhs, out};
  uint64_t lengths[3] = {sizeof(lhs), sizeof(rhs), sizeof(out)};
  uint64_t n = 5;
  // Two workgroups: tiles [0, 3) and [3, 5).
  for (uint32_t x = 0; x < 2; ++x) {
    ferry_dispatch_state_t state = {{x, 0, 0}, {2, 1, 1}, 3, 1,
                                    bindings,  lengths,   &n};
    EXPECT_EQ(add.function(&state), 0);
  }
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(out[i], lhs[i] + rhs[i]) << i;
}

TEST(ExecutableTest, UnloadedWithTheLastReference) {
  auto executable = loadRecord(testExecutableRecord("good", "unload_me"));
  ASSERT_TRUE(executable.ok()) << executable.status().toString();
  EXPECT_NE(processMaps().find("ferry-executable-unload_me"),
            std::string::npos);
  executable = internalError("drop");
  EXPECT_EQ(processMaps().find("ferry-executable-unload_me"),
            std::string::npos);
}

// memfd_create takes names of at most 249 bytes.
TEST(ExecutableTest, LongNamesLoad) {
  auto executable =
      loadRecord(testExecutableRecord("good", std::string(300, 'x')));
  EXPECT_TRUE(executable.ok()) << executable.status().toString();
}

TEST(ExecutableTest, GarbageIsNotAnElfObject) {
  auto record = testExecutableRecord();
  record.image = std::vector<uint8_t>(200, 0x5A);
  EXPECT_TRUE(failedWith(loadRecord(record), StatusCode::kDataLoss,
                         "executable 'test_exe' is not an ELF shared object "
                         "(bad magic; its image has 200 bytes)"));
  record.image = {0x7F, 'E'};
  EXPECT_TRUE(failedWith(loadRecord(record), StatusCode::kDataLoss,
                         "executable 'test_exe' is not an ELF shared object "
                         "(its image has only 2 bytes)"));
}

TEST(ExecutableTest, TruncatedElfIsRefusedByTheLoader) {
  auto record = testExecutableRecord();
  record.image.resize(256);
  EXPECT_TRUE(failedWith(loadRecord(record), StatusCode::kDataLoss,
                         "executable 'test_exe' cannot be loaded: "));
}

TEST(ExecutableTest, WrongAbiVersion) {
  EXPECT_TRUE(failedWith(loadRecord(testExecutableRecord("bad_abi")),
                         StatusCode::kFailedPrecondition,
                         "executable 'test_exe' has executable ABI version 99 "
                         "but this runtime supports version 1"));
}

TEST(ExecutableTest, MissingEntry) {
  EXPECT_TRUE(failedWith(loadRecord(testExecutableRecord("no_entry")),
                         StatusCode::kNotFound,
                         "executable 'test_exe' does not export entry "
                         "'add_f32'"));
  // A function the image defines but does not export is no entry either.
  auto record = testExecutableRecord();
  record.entries.push_back({"hidden_entry", 0, {}});
  EXPECT_TRUE(failedWith(loadRecord(record), StatusCode::kNotFound,
                         "does not export entry 'hidden_entry'"));
}

TEST(ExecutableTest, WrongFormat) {
  auto record = testExecutableRecord();
  record.format =
      kHostExecutableFormat == "elf-x86_64" ? "elf-aarch64" : "elf-x86_64";
  EXPECT_TRUE(failedWith(loadRecord(record), StatusCode::kFailedPrecondition,
                         strCat("executable 'test_exe' is ", record.format,
                                " code but this runtime runs ",
                                kHostExecutableFormat)));
}

TEST(ExecutableTest, CpuFeatureTheCpuLacks) {
  if (kCpuFeatureCount == 0)
    GTEST_SKIP() << "no CPU feature table on this architecture";
  std::string feature(kCpuFeatureNames[0]);
  // Checked before the image is looked at: garbage never gets mapped.
  auto record = testExecutableRecord("good", "test_exe", feature);
  record.image = {1, 2, 3};
  EXPECT_TRUE(failedWith(loadRecord(record, CpuFeatureSet()),
                         StatusCode::kFailedPrecondition,
                         strCat("executable 'test_exe' uses CPU feature '",
                                feature, "', which this CPU does not have")));
  // The host's own CPU: the first feature of the table it lacks, if any.
  for (std::string_view name : kCpuFeatureNames) {
    if (CpuFeatureSet::host().has(name))
      continue;
    EXPECT_TRUE(failedWith(
        loadRecord(testExecutableRecord("good", "test_exe",
                                        strCat(feature, ",", name))),
        StatusCode::kFailedPrecondition,
        strCat("uses CPU feature '", name, "', which this CPU does not have")));
    return;
  }
}

TEST(ExecutableTest, UnknownCpuFeature) {
  EXPECT_TRUE(failedWith(
      loadRecord(testExecutableRecord("good", "test_exe", "avx9000")),
      StatusCode::kUnimplemented,
      "executable 'test_exe' uses CPU feature 'avx9000', which this runtime "
      "cannot check (it checks: "));
}

TEST(ExecutableTest, FeaturesTheHostHasLoad) {
  std::string features;
  for (std::string_view name : kCpuFeatureNames)
    if (CpuFeatureSet::host().has(name))
      features += strCat(features.empty() ? "" : ",", name);
  auto executable =
      loadRecord(testExecutableRecord("good", "test_exe", features));
  EXPECT_TRUE(executable.ok()) << executable.status().toString();
}

// The dynamic loader matches libraries by path, and memory file paths are
// reused: each load must get its own image, loaded at once or one after the
// other.
TEST(ExecutableTest, EachLoadGetsItsOwnImage) {
  auto good = loadRecord(testExecutableRecord());
  ASSERT_TRUE(good.ok()) << good.status().toString();
  EXPECT_TRUE(failedWith(loadRecord(testExecutableRecord("bad_abi")),
                         StatusCode::kFailedPrecondition, "ABI version 99"));
  auto second = loadRecord(testExecutableRecord());
  ASSERT_TRUE(second.ok()) << second.status().toString();
  EXPECT_NE((*good)->entries()[0].function, (*second)->entries()[0].function);
  good = internalError("drop");
  EXPECT_TRUE(failedWith(loadRecord(testExecutableRecord("no_entry")),
                         StatusCode::kNotFound, "'add_f32'"));
}

} // namespace
} // namespace ferry::hal

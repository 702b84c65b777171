#include "runtime/tools/run_module.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

#include "runtime/tools/file_reader.h"
#include "runtime/tools/npy.h"
#include "runtime/tools/testing/scratch_directory.h"
#include "runtime/vm/testing/bytecode_writer.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::tools {
namespace {

using vm::testing::buildElementwiseModule;

class RunModuleTest : public testing::ScratchDirectoryTest {
protected:
  std::string writeModule(const std::vector<uint8_t> &bytes,
                          std::string name = "m.fvm") {
    return write(name, bytes);
  }
  std::string readText(const std::string &path) {
    std::ifstream file(path, std::ios::binary);
    EXPECT_TRUE(file.good()) << "cannot open " << path;
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }

  // Returns stdout, or "error: MESSAGE".
  std::string run(RunOptions options) {
    std::ostringstream out;
    Status status = runModule(options, out);
    return status.ok() ? out.str() : "error: " + status.message();
  }
  RunOptions addOptions(std::vector<std::string> inputs) {
    RunOptions options;
    options.modulePath = writeModule(buildElementwiseModule());
    options.inputs = std::move(inputs);
    return options;
  }
};

TEST_F(RunModuleTest, RunsAddAndWritesStats) {
  RunOptions options = addOptions({"4xi32=1,2,3,4", "4xi32=10,20,30,40"});
  options.statsPath = dir + "/stats.json";
  EXPECT_EQ(run(options), "4xi32=[11 22 33 44]\n");
  std::string expectedDevice = R"("allocations": 4,
      "deallocations": 4,
      "bytes_allocated": 64,
      "peak_bytes": 64,
      "live_bytes_at_exit": 0,
      "copies": 0,
      "bytes_copied": 0,
      "fills": 0,
      "dispatches": 1,
      "transfers": 0,
      "bytes_transferred": 0,
      "constant_bytes": 0,
      "reclaimed_at_last_reference": 0)";
  std::string json = readText(options.statsPath);
  EXPECT_NE(json.find("\"devices\": {\n    \"device_a\": {\n      " +
                      expectedDevice.substr(0, 18)),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\n  \"allocations\": 4,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"live_bytes_at_exit\": 0,"), std::string::npos);
  EXPECT_NE(json.find("\n      \"dispatches\": 1,\n"), std::string::npos);
  EXPECT_NE(json.find("\n      \"bytes_transferred\": 0,\n"),
            std::string::npos);
  EXPECT_NE(json.find("\n      \"constant_bytes\": 0,\n"), std::string::npos);
  // The program's result was released by the host, not at its last
  // reference.
  EXPECT_NE(json.find("\n      \"reclaimed_at_last_reference\": 0\n"),
            std::string::npos);
}

TEST_F(RunModuleTest, NpyInputAndOutput) {
  std::string in = dir + "/in.npy";
  std::vector<uint8_t> bytes = {5, 0, 0, 0, 6, 0, 0, 0};
  std::vector<int64_t> shape = {2};
  ASSERT_TRUE(writeNpyFile(in, shape, hal::ElementType::kI32, bytes).ok());
  RunOptions options = addOptions({"@" + in, "2xi32=1,1"});
  options.outputPaths = {dir + "/out.npy"};
  EXPECT_EQ(run(options), "2xi32=[6 7]\n");
  Result<HostTensor> out = readNpyFile(dir + "/out.npy");
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(out->typeString(), "2xi32");
  EXPECT_EQ(out->bytes, (std::vector<uint8_t>{6, 0, 0, 0, 7, 0, 0, 0}));
}

TEST_F(RunModuleTest, FloatModulePrintsShortest) {
  RunOptions options;
  options.modulePath = writeModule(
      buildElementwiseModule(hal::BuiltinKernel::kAdd, hal::ElementType::kF32));
  options.inputs = {"3xf32=1,0.5,0.1", "3xf32=1,1,0.2"};
  EXPECT_EQ(run(options), "3xf32=[2 1.5 0.3]\n");
}

// local-discrete memory is not host-visible: inputs are written to staging
// buffers and copied to the device, and a result the host cannot map is
// copied back through one. --stats counts those copies.
TEST_F(RunModuleTest, StagesThroughHostMemoryOnDiscreteDevice) {
  RunOptions options;
  options.modulePath = writeModule(buildElementwiseModule(
      hal::BuiltinKernel::kAdd, hal::ElementType::kI32, "main",
      hal::kDeviceLocal, hal::kTransfer | hal::kDispatchStorage));
  options.inputs = {"4xi32=1,2,3,4", "4xi32=10,20,30,40"};
  options.devices = {{"device_a", "local-discrete"}};
  options.outputPaths = {dir + "/out.npy"};
  options.statsPath = dir + "/stats.json";
  EXPECT_EQ(run(options), "4xi32=[11 22 33 44]\n");
  Result<HostTensor> out = readNpyFile(dir + "/out.npy");
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_EQ(out->typeString(), "4xi32");
  EXPECT_EQ(out->bytes, (std::vector<uint8_t>{11, 0, 0, 0, 22, 0, 0, 0, 33, 0,
                                              0, 0, 44, 0, 0, 0}));
  std::string json = readText(options.statsPath);
  // Two inputs in and one result out, read once for printing and .npy.
  EXPECT_NE(json.find("\n  \"copies\": 3,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"bytes_copied\": 48,"), std::string::npos) << json;
  // 2 inputs + 2 staging, 2 allocas, 1 result staging: all freed.
  EXPECT_NE(json.find("\n  \"allocations\": 7,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"live_bytes_at_exit\": 0,"), std::string::npos)
      << json;
}

// A host-visible result on the same device is mapped directly: only the
// inputs are copied.
TEST_F(RunModuleTest, ReadsHostVisibleResultOfDiscreteDeviceDirectly) {
  RunOptions options = addOptions({"4xi32=1,2,3,4", "4xi32=10,20,30,40"});
  options.devices = {{"device_a", "local-discrete"}};
  options.statsPath = dir + "/stats.json";
  EXPECT_EQ(run(options), "4xi32=[11 22 33 44]\n");
  std::string json = readText(options.statsPath);
  EXPECT_NE(json.find("\n  \"copies\": 2,"), std::string::npos) << json;
}

// Staging a result needs TransferSource; the error says so.
TEST_F(RunModuleTest, StagingAResultNeedsTransferSource) {
  RunOptions options;
  options.modulePath = writeModule(buildElementwiseModule(
      hal::BuiltinKernel::kAdd, hal::ElementType::kI32, "main",
      hal::kDeviceLocal, hal::kTransferTarget | hal::kDispatchStorage));
  options.inputs = {"4xi32=1,2,3,4", "4xi32=10,20,30,40"};
  options.devices = {{"device_a", "local-discrete"}};
  std::string result = run(options);
  EXPECT_NE(result.find("result 0 (staging it): "), std::string::npos)
      << result;
  EXPECT_NE(result.find("missing buffer usage bit TransferSource"),
            std::string::npos)
      << result;
}

TEST_F(RunModuleTest, ErrorsNameTheProblem) {
  EXPECT_EQ(run(addOptions({"4xi32=1,2,3,4"})),
            "error: function 'main' expects 2 inputs, got 1");
  EXPECT_EQ(run(addOptions({"4xi32=1,2,3,4", "4xf32=1,2,3,4"})),
            "error: input 1: expected 4xi32, got 4xf32");
  EXPECT_EQ(run(addOptions({"4xi32=1,2,x,4", "4xi32=1,2,3,4"})),
            "error: --input=4xi32=1,2,x,4: 'x' is not a valid i32");
  EXPECT_EQ(run(addOptions({"4xi32=1,2,3", "4xi32=1,2,3,4"})),
            "error: --input=4xi32=1,2,3: 4xi32 needs 4 values, got 3");
  RunOptions unknown = addOptions({});
  unknown.function = "nope";
  EXPECT_EQ(run(unknown),
            "error: module has no function 'nope' (functions: 'main')");
  RunOptions device = addOptions({});
  device.devices = {{"gpu", "local-sync"}};
  EXPECT_EQ(run(device), "error: --device=gpu=local-sync: the module has no "
                         "device 'gpu' (devices: 'device_a')");
  device.devices = {{"device_a", "cuda"}};
  EXPECT_EQ(run(device), "error: device 'device_a': unknown driver 'cuda' "
                         "(known drivers: local-discrete, local-isolated, "
                         "local-sync, local-task)");
  RunOptions missing;
  missing.modulePath = dir + "/missing.fvm";
  EXPECT_EQ(run(missing), "error: cannot open '" + dir +
                              "/missing.fvm': No such file or directory");
}

// A module whose @main(a, b, c) returns its three i64 arguments, with the
// given signature reflection types ("" for none).
std::vector<uint8_t> scalarModule(std::string_view types) {
  using K = vm::bytecode::RegisterKind;
  vm::testing::BytecodeWriter w;
  w.device("device_a");
  w.function("main", {K::kI64, K::kI64, K::kI64}, {K::kI64, K::kI64, K::kI64},
             3, 0)
      .ret({{K::kI64, 0}, {K::kI64, 1}, {K::kI64, 2}});
  if (!types.empty())
    w.string(strCat(vm::bytecode::kSignatureReflectionPrefix, "main",
                    std::string_view("\0", 1), types));
  return w.finish();
}

TEST_F(RunModuleTest, ScalarArgumentsAndResults) {
  RunOptions options;
  options.modulePath =
      writeModule(scalarModule("i32,f32,i1->i32,f32,i1"), "scalars.fvm");
  options.inputs = {"i32=-5", "f32=2.5", "i1=1"};
  EXPECT_EQ(run(options), "i32=-5\nf32=2.5\ni1=1\n");
  // .npy: a scalar result is a 0-d array; a 0-d array feeds a scalar.
  options.outputPaths = {dir + "/a.npy", dir + "/b.npy", dir + "/c.npy"};
  EXPECT_EQ(run(options), "i32=-5\nf32=2.5\ni1=1\n");
  Result<HostTensor> a = readNpyFile(dir + "/a.npy");
  ASSERT_TRUE(a.ok()) << a.status().toString();
  EXPECT_EQ(a->typeString(), "i32");
  Result<HostTensor> c = readNpyFile(dir + "/c.npy");
  ASSERT_TRUE(c.ok()) << c.status().toString();
  EXPECT_EQ(c->typeString(), "i1"); // a NumPy bool
  options.outputPaths = {};
  options.inputs = {"@" + dir + "/a.npy", "@" + dir + "/b.npy",
                    "@" + dir + "/c.npy"};
  EXPECT_EQ(run(options), "i32=-5\nf32=2.5\ni1=1\n");
  // The type must be the argument's.
  options.inputs = {"f32=2.5", "f32=2.5", "i1=1"};
  EXPECT_EQ(run(options), "error: argument 0 of @main is i32, got f32=2.5");
  options.inputs = {"i32=1", "f32=2.5", "i1=2"};
  EXPECT_EQ(run(options),
            "error: argument 2 of @main is i1, got i1=2: '2' is not a valid "
            "i1");
  options.inputs = {"i32=1", "@" + dir + "/a.npy", "i1=0"};
  EXPECT_EQ(run(options), "error: argument 1 of @main is f32, got @" + dir +
                              "/a.npy: expected a 0-d f32, got i32");
  options.inputs = {"4xi32=1,2,3,4", "f32=1", "i1=0"};
  EXPECT_EQ(run(options),
            "error: argument 0 of @main is i32, got 4xi32=1,2,3,4");
  // An f16 result prints as the float its bits hold (0x3c00 is 1.0); an
  // f16 input is read as a decimal, rounded to f16 bits.
  options.modulePath =
      writeModule(scalarModule("i32,i64,i64->i32,i64,f16"), "half.fvm");
  options.inputs = {"i32=1", "i64=2", "i64=15360"};
  EXPECT_EQ(run(options), "i32=1\ni64=2\nf16=1\n");
  options.modulePath =
      writeModule(scalarModule("f16,i64,i64->i32,i64,i64"), "half_in.fvm");
  EXPECT_EQ(run(options), "error: argument 0 of @main is f16, got i32=1");
  options.inputs = {"f16=1", "i64=2", "i64=3"};
  EXPECT_EQ(run(options), "i32=15360\ni64=2\ni64=3\n");
  // A bf16 is the upper half of an f32; negative values sign-extend.
  options.modulePath =
      writeModule(scalarModule("bf16,i64,i64->i64,i64,bf16"), "bf16.fvm");
  options.inputs = {"bf16=-2.5", "i64=2", "i64=-16352"};
  EXPECT_EQ(run(options), "i64=-16352\ni64=2\nbf16=-2.5\n");
  // Without reflection the i64s are untyped: i64 in, i64 out.
  options.modulePath = writeModule(scalarModule(""), "untyped.fvm");
  options.inputs = {"i64=1", "i64=2", "i64=-3"};
  EXPECT_EQ(run(options), "i64=1\ni64=2\ni64=-3\n");
}

TEST_F(RunModuleTest, CorruptModules) {
  std::vector<uint8_t> file = buildElementwiseModule();
  std::vector<uint8_t> truncated(file.begin(), file.end() - 1);
  RunOptions options;
  options.modulePath = writeModule(truncated);
  EXPECT_NE(run(options).find("module file is truncated"), std::string::npos);
  std::vector<uint8_t> corrupt = file;
  corrupt.back() ^= 1;
  options.modulePath = writeModule(corrupt);
  EXPECT_NE(run(options).find("payload checksum mismatch"), std::string::npos);
  std::vector<uint8_t> newer = file;
  newer[8] = uint8_t(vm::bytecode::kFormatVersion + 1);
  options.modulePath = writeModule(newer);
  EXPECT_NE(
      run(options).find(strCat("module format version ",
                               vm::bytecode::kFormatVersion + 1, " is newer")),
      std::string::npos);
}

TEST_F(RunModuleTest, StatsJsonSumsDevices) {
  DeviceReport a{"a", {}, {}}, b{"b", {}, {}};
  a.allocator.allocations = 2;
  b.allocator.allocations = 3;
  b.device.dispatches = 1;
  a.device.transfers = 1;
  a.device.bytesTransferred = 16;
  b.device.transfers = 2;
  b.device.bytesTransferred = 32;
  std::vector<DeviceReport> reports = {a, b};
  std::string json = formatStatsJson(reports);
  EXPECT_NE(json.find("\n  \"allocations\": 5,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"dispatches\": 1,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"transfers\": 3,"), std::string::npos) << json;
  EXPECT_NE(json.find("\n  \"bytes_transferred\": 48,\n"), std::string::npos)
      << json;
  EXPECT_NE(json.find("\"b\": {"), std::string::npos);
}

} // namespace
} // namespace ferry::tools

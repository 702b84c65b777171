// Runs the ferry-run binary itself: exit codes, stdout, and the one-line
// "ferry-run: error:" messages on stderr.
#include <array>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/status.h"
#include "runtime/vm/testing/sample_modules.h"

namespace {

struct Outcome {
  int exitCode;
  std::string out, err;
};

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class FerryRunToolTest : public ::testing::Test {
protected:
  std::string dir;
  std::string module;
  void SetUp() override {
    dir =
        ferry::strCat(::testing::TempDir(), "/ferry_run_tool_test_", getpid());
    ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
    module = dir + "/add.fvm";
    std::vector<uint8_t> bytes = ferry::vm::testing::buildElementwiseModule();
    std::ofstream(module, std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()),
               std::streamsize(bytes.size()));
  }
  void TearDown() override {
    (void)std::system(("rm -rf '" + dir + "'").c_str());
  }

  Outcome run(const std::string &args) {
    std::string command = ferry::strCat(FERRY_RUN_PATH, " ", args, " >", dir,
                                        "/out.txt 2>", dir, "/err.txt");
    int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            slurp(dir + "/out.txt"), slurp(dir + "/err.txt")};
  }
};

TEST_F(FerryRunToolTest, RunsAdd) {
  Outcome o = run(module +
                  " --input=4xi32=1,2,3,4 --input=4xi32=10,20,30,40 "
                  "--stats=" +
                  dir + "/stats.json");
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out, "4xi32=[11 22 33 44]\n");
  EXPECT_EQ(o.err, "");
  EXPECT_NE(slurp(dir + "/stats.json").find("\"live_bytes_at_exit\": 0"),
            std::string::npos);
}

TEST_F(FerryRunToolTest, ErrorsAreOneLineWithExitCode1) {
  struct Case {
    std::string args, message;
  };
  std::vector<Case> cases = {
      {module + " --input=4xi32=1,2,3,4",
       "function 'main' expects 2 inputs, got 1"},
      {module + " --input=4xi32=1,2,x,4 --input=4xi32=1,2,3,4",
       "--input=4xi32=1,2,x,4: 'x' is not a valid i32"},
      {module + " --input=4xi32=1,2,3,4 --input=2xi32=1,2",
       "input 1: expected 4xi32, got 2xi32"},
      {module + " --nope", "unknown flag '--nope'"},
      {dir + "/missing.fvm", "No such file or directory"},
      {module + " --function=other", "module has no function 'other'"},
  };
  for (const Case &c : cases) {
    Outcome o = run(c.args);
    EXPECT_EQ(o.exitCode, 1) << c.args;
    EXPECT_EQ(o.err.rfind("ferry-run: error: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

class FerryRunPluginTest : public FerryRunToolTest {
protected:
  std::string caller;
  void SetUp() override {
    FerryRunToolTest::SetUp();
    caller = dir + "/double.fvm";
    std::vector<uint8_t> bytes =
        ferry::vm::testing::buildCoarseFencesCallModule("Double.function");
    std::ofstream(caller, std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()),
               std::streamsize(bytes.size()));
  }
  static std::string plugin(std::string_view name) {
    return ferry::strCat("--module=", FERRY_PLUGIN_DIR, "/", name, ".so");
  }
};

TEST_F(FerryRunPluginTest, RunsWithThePlugin) {
  for (std::string_view name : {"custom_module", "test_plugin_late"}) {
    Outcome o =
        run(caller + " " + plugin(name) +
            " --input=2x3xi32=1,2,3,4,5,-6 --stats=" + dir + "/stats.json");
    EXPECT_EQ(o.exitCode, 0) << o.err;
    EXPECT_EQ(o.out, "2x3xi32=[2 4 6][8 10 -12]\n") << name;
    EXPECT_NE(slurp(dir + "/stats.json").find("\"live_bytes_at_exit\": 0"),
              std::string::npos);
  }
}

TEST_F(FerryRunPluginTest, PluginErrorsAreOneLine) {
  struct Case {
    std::string args, message;
  };
  std::string input = " --input=1x1xi32=1";
  std::vector<Case> cases = {
      {caller + input,
       "module imports 'Double.function', which no loaded native module "
       "provides (no native modules are loaded); load a plugin that provides "
       "it with --module=PATH.so"},
      {caller + input + " --module=" + dir + "/none.so",
       "cannot load plugin '" + dir + "/none.so'"},
      {caller + input + " " + plugin("test_plugin_no_entry"),
       "has no entry point 'ferry_plugin_load'"},
      {caller + input + " " + plugin("test_plugin_bad_abi"),
       "built for plugin ABI version 99"},
      {caller + input + " " + plugin("test_plugin_refusing"),
       "it refused to load: this plugin refuses to load"},
      {caller + input + " " + plugin("test_plugin_failing"),
       "external function 'Double.function': simulated device fault"},
      {caller + input + " " + plugin("custom_module") + " " +
           plugin("test_plugin_late"),
       "two native modules are named 'Double'"},
      {caller + " --module=", "--module needs the path of a plugin"},
      {caller + input + " " + plugin("test_plugin_never_signals") +
           " --timeout=0.1",
       "external function 'Double.function' did not signal its fence "
       "within 0.1 s"},
  };
  for (const Case &c : cases) {
    Outcome o = run(c.args);
    EXPECT_EQ(o.exitCode, 1) << c.args;
    EXPECT_EQ(o.err.rfind("ferry-run: error: ", 0), 0u) << o.err;
    EXPECT_NE(o.err.find(c.message), std::string::npos) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}

TEST_F(FerryRunToolTest, Help) {
  Outcome o = run("--help");
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_NE(o.out.find("--output=@PATH.npy"), std::string::npos);
}

} // namespace

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

TEST_F(FerryRunToolTest, Help) {
  Outcome o = run("--help");
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_NE(o.out.find("--output=@PATH.npy"), std::string::npos);
}

} // namespace

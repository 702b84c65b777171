#include "runtime/tools/run_options.h"

#include <gtest/gtest.h>

namespace ferry::tools {
namespace {

Result<RunOptions> parse(std::vector<std::string_view> args) {
  return parseRunOptions(args);
}

TEST(RunOptionsTest, ParsesEveryFlag) {
  Result<RunOptions> options = parse(
      {"m.fvm", "--function=f", "--input=4xi32=1,2,3,4", "--input=@in.npy",
       "--output=@out.npy", "--stats=s.json", "--device=device_a=local-sync"});
  ASSERT_TRUE(options.ok()) << options.status().toString();
  EXPECT_EQ(options->modulePath, "m.fvm");
  EXPECT_EQ(options->function, "f");
  EXPECT_EQ(options->inputs,
            (std::vector<std::string>{"4xi32=1,2,3,4", "@in.npy"}));
  EXPECT_EQ(options->outputPaths, std::vector<std::string>{"out.npy"});
  EXPECT_EQ(options->statsPath, "s.json");
  ASSERT_EQ(options->devices.size(), 1u);
  EXPECT_EQ(options->devices[0].device, "device_a");
  EXPECT_EQ(options->devices[0].driver, "local-sync");
}

TEST(RunOptionsTest, Timeout) {
  EXPECT_EQ(parse({"m.fvm"})->timeout, std::chrono::nanoseconds(0));
  EXPECT_EQ(parse({"m.fvm", "--timeout=30"})->timeout,
            std::chrono::seconds(30));
  EXPECT_EQ(parse({"m.fvm", "--timeout=0.25"})->timeout,
            std::chrono::milliseconds(250));
  EXPECT_EQ(parse({"m.fvm", "--timeout=1e-12"})->timeout,
            std::chrono::nanoseconds(1));
  for (std::string_view bad :
       {"--timeout=", "--timeout=0", "--timeout=-1", "--timeout=abc",
        "--timeout=1s", "--timeout=inf", "--timeout=nan", "--timeout=1e300"}) {
    Result<RunOptions> options = parse({"m.fvm", bad});
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_EQ(options.status().message(),
              std::string(bad) +
                  ": expected a positive number of seconds (e.g. "
                  "--timeout=30 or --timeout=0.5)");
  }
  EXPECT_NE(runUsage().find("--timeout=SECONDS"), std::string::npos);
}

TEST(RunOptionsTest, PrintLimit) {
  EXPECT_EQ(parse({"m.fvm"})->printMaxElements, 1000u);
  EXPECT_EQ(parse({"m.fvm", "--print-max-elements=5"})->printMaxElements, 5u);
  EXPECT_EQ(parse({"m.fvm", "--print-max-elements=0"})->printMaxElements, 0u);
  EXPECT_EQ(parse({"m.fvm", "--print-all"})->printMaxElements, UINT64_MAX);
  // The last one wins.
  EXPECT_EQ(parse({"m.fvm", "--print-all", "--print-max-elements=7"})
                ->printMaxElements,
            7u);
  EXPECT_EQ(parse({"m.fvm", "--print-max-elements=7", "--print-all"})
                ->printMaxElements,
            UINT64_MAX);
  for (std::string_view bad :
       {"--print-max-elements=", "--print-max-elements=-1",
        "--print-max-elements=1e3", "--print-max-elements=all",
        "--print-max-elements=99999999999999999999"}) {
    Result<RunOptions> options = parse({"m.fvm", bad});
    ASSERT_FALSE(options.ok()) << bad;
    EXPECT_EQ(options.status().message(),
              std::string(bad) +
                  ": expected a number of elements (e.g. "
                  "--print-max-elements=100000), or --print-all");
  }
  EXPECT_NE(runUsage().find("--print-max-elements=N"), std::string::npos);
  EXPECT_NE(runUsage().find("--print-all"), std::string::npos);
}

TEST(RunOptionsTest, DefaultsAndHelp) {
  EXPECT_EQ(parse({"m.fvm"})->function, "main");
  EXPECT_TRUE(parse({"--help"})->help);
  EXPECT_NE(runUsage().find("--input=@PATH.npy"), std::string::npos);
  EXPECT_NE(runUsage().find("--device=NAME=DRIVER"), std::string::npos);
}

TEST(RunOptionsTest, Errors) {
  auto error = [](std::vector<std::string_view> args) {
    Result<RunOptions> options = parseRunOptions(args);
    return options.ok() ? "<ok>" : options.status().message();
  };
  EXPECT_EQ(error({"m.fvm", "--bogus=1"}),
            "unknown flag '--bogus' (see ferry-run --help)");
  EXPECT_EQ(error({"m.fvm", "--input"}),
            "--input needs a value: --input=VALUE");
  EXPECT_NE(error({}).find("no module file given"), std::string::npos);
  EXPECT_NE(error({"a.fvm", "b.fvm"}).find("unexpected argument 'b.fvm'"),
            std::string::npos);
  EXPECT_NE(error({"m.fvm", "--output=out.npy"}).find("expected @PATH.npy"),
            std::string::npos);
  EXPECT_NE(error({"m.fvm", "--device=local-sync"}).find("NAME=DRIVER"),
            std::string::npos);
  // One driver per device: a second binding would silently win.
  EXPECT_EQ(error({"m.fvm", "--device=a=local-sync", "--device=b=local-task",
                   "--device=a=local-task"}),
            "--device=a=local-task: device 'a' is already bound to "
            "'local-sync' by an earlier --device; bind each device once");
  EXPECT_EQ(error({"m.fvm", "--device=a=local-sync", "--device=a=local-sync"}),
            "--device=a=local-sync: device 'a' is already bound to "
            "'local-sync' by an earlier --device; bind each device once");
}

} // namespace
} // namespace ferry::tools

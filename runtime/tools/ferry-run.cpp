// ferry-run: runs a function of a Ferry bytecode module on the command line.
// See runUsage() (runtime/tools/run_options.cpp) or `ferry-run --help`.
#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tools/file_reader.h"
#include "runtime/tools/run_module.h"
#include "runtime/tools/run_options.h"

// Errors are one line: module-provided text could contain newlines.
static void printError(const ferry::Status &status) {
  std::string message = status.message();
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "ferry-run: error: " << message << "\n";
}

int main(int argc, char **argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  ferry::Result<ferry::tools::RunOptions> options =
      ferry::tools::parseRunOptions(args);
  if (!options.ok()) {
    printError(options.status());
    return 1;
  }
  ferry::Status status;
  if (options->help) {
    status = ferry::tools::writeStdout(ferry::tools::runUsage());
  } else {
    // Results stream to stdout as they are formatted (they print before a
    // later error, e.g. an --output file that cannot be written); a failed
    // write to stdout is reported like any other error.
    ferry::tools::StdoutStream out;
    status = ferry::tools::runModule(*options, out);
    ferry::Status written = out.finish();
    if (status.ok())
      status = written;
  }
  if (!status.ok()) {
    printError(status);
    return 1;
  }
  return 0;
}

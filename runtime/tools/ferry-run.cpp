// ferry-run: runs a function of a Ferry bytecode module on the command line.
// See runUsage() (runtime/tools/run_options.cpp) or `ferry-run --help`.
#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

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
  if (options->help) {
    std::cout << ferry::tools::runUsage();
    return 0;
  }
  ferry::Status status = ferry::tools::runModule(*options, std::cout);
  std::cout.flush();
  if (!status.ok()) {
    printError(status);
    return 1;
  }
  return 0;
}

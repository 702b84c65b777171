// ferry-dump: prints a Ferry bytecode module (.fvm) as text: its header,
// tables and every function's instructions (runtime/vm/disassembler.h).
// A file the loader refuses is refused here with the loader's own error.
#include <algorithm>
#include <iostream>
#include <string>
#include <string_view>

#include "runtime/tools/file_reader.h"
#include "runtime/vm/disassembler.h"
#include "runtime/vm/module.h"

namespace {

constexpr std::string_view kUsage =
    R"(Usage: ferry-dump MODULE.fvm
       ferry-dump --instruction-set

Prints a Ferry bytecode module written by ferry-compile: the header (format
version, payload size, checksum), the string, device, import and function
tables, every function's instructions with their byte offsets, mnemonics
and named operands (registers as i<N> / r<N>, branch targets as ^OFFSET),
and the executable table (native code: format, CPU features, image size,
entries and their bindings' access).
The module is verified first, exactly as ferry-run loads it; a module that
does not load is refused with the loader's error and exit code 1.

Options:
  --instruction-set  print every opcode's operand layout and exit
  --help             print this help and exit
)";

int fail(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "ferry-dump: error: " << message << "\n";
  return 1;
}

// Prints `text`; fails if it could not be written (e.g. a full disk).
int print(std::string_view text) {
  ferry::Status written = ferry::tools::writeStdout(text);
  return written.ok() ? 0 : fail(written.message());
}

} // namespace

int main(int argc, char **argv) {
  std::string_view path;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h")
      return print(kUsage);
    if (arg == "--instruction-set")
      return print(ferry::vm::describeInstructionSet());
    if (arg.starts_with("-") && arg != "-")
      return fail(
          ferry::strCat("unknown option '", arg, "' (see ferry-dump --help)"));
    if (!path.empty())
      return fail(ferry::strCat("more than one module given ('", path,
                                "' and '", arg, "')"));
    path = arg;
  }
  if (path.empty())
    return fail("no module given (usage: ferry-dump MODULE.fvm)");
  ferry::Result<std::vector<uint8_t>> bytes =
      ferry::tools::readModuleFile(std::string(path));
  if (!bytes.ok())
    return fail(bytes.status().message());
  ferry::Result<ferry::vm::Module> module = ferry::vm::Module::load(*bytes);
  if (!module.ok())
    return fail(ferry::strCat("'", path, "': ", module.status().message()));
  return print(ferry::vm::disassemble(*module));
}

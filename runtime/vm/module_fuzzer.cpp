// libFuzzer target for the bytecode loader (Module::load), which must reject
// any malformed file with a Status and never crash, hang or read out of
// bounds. Built by the clang sub-build in tests/CMakeLists.txt (FERRY_FUZZ)
// and run for 60 seconds as the ctest test `fuzz-module-loader`.
//
// The payload checksum would reject almost every mutation before the
// decoder saw it, so by default the input is a payload that gets sealed with
// a valid header; an input starting with the magic is loaded as a whole file
// instead, to fuzz the header checks too.
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/vm/disassembler.h"
#include "runtime/vm/module.h"
#include "runtime/vm/testing/bytecode_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace ferry::vm;
  std::vector<uint8_t> file;
  if (size >= sizeof(bytecode::kMagic) &&
      std::memcmp(data, bytecode::kMagic, sizeof(bytecode::kMagic)) == 0)
    file.assign(data, data + size);
  else
    file = testing::BytecodeWriter::withHeader(
        std::vector<uint8_t>(data, data + size));
  ferry::Result<Module> module = Module::load(file);
  if (module.ok()) {
    // Touch what the loader produced, as a caller would.
    for (const Function &function : module->functions())
      (void)function.signatureString();
    for (const Import &import : module->imports())
      (void)import.signatureString();
    // The disassembler reads every decoded operand back through the table.
    (void)disassemble(*module);
  }
  return 0;
}

// Writes the payloads of the sample modules into a directory, as the seed
// corpus of the module loader's fuzz target (module_fuzzer.cpp).
#include <cstdio>
#include <fstream>
#include <string>

#include "runtime/vm/testing/sample_modules.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_fuzz_corpus DIR\n");
    return 1;
  }
  using namespace ferry::vm::testing;
  std::vector<std::vector<uint8_t>> files = {
      buildElementwiseModule(), buildCoarseFencesCallModule(),
      buildElementwiseModule(BuiltinKernel::kMul, ferry::hal::ElementType::kF32,
                             "other"),
      buildControlFlowModule(),
      // The loader does not look into the image.
      buildDispatchEntryModule({"exe",
                                "elf-x86_64",
                                "avx,avx2",
                                {{"add", 1, {1, 1, 2}}},
                                {0x7F, 'E', 'L', 'F'}},
                               {3, 2, 1})};
  for (size_t i = 0; i < files.size(); ++i) {
    std::string path = std::string(argv[1]) + "/sample" + std::to_string(i);
    std::ofstream out(path, std::ios::binary);
    // The payload: the fuzzer seals it with a header itself.
    out.write(
        reinterpret_cast<const char *>(files[i].data()) +
            ferry::vm::bytecode::kHeaderBytes,
        std::streamsize(files[i].size() - ferry::vm::bytecode::kHeaderBytes));
    if (!out)
      return 1;
  }
  return 0;
}

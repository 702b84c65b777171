// ferry-compile: compiles an MLIR program into a Ferry bytecode module (.fvm)
// for ferry-run, or stops at an earlier phase and prints its IR.
//
// The output is produced in memory and moved into place only when everything
// succeeded, so a failed compile never leaves a (partial) output file behind.
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Pipelines/Registration.h"
#include "compiler/Target/Bytecode/BytecodeWriter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/BuryPointer.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using ferry::CompilePhase;

namespace {

constexpr llvm::StringLiteral kToolName = "ferry-compile";

llvm::cl::OptionCategory ferryCategory("ferry-compile options");

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input .mlir file>"),
                                         llvm::cl::Required,
                                         llvm::cl::cat(ferryCategory));

llvm::cl::opt<std::string> outputFilename(
    "o",
    llvm::cl::desc("Output file: the .fvm module, or the printed IR with "
                   "--compile-to ('-' prints IR to stdout, the default there)"),
    llvm::cl::value_desc("path"), llvm::cl::cat(ferryCategory));

llvm::cl::opt<CompilePhase> compileTo(
    "compile-to", llvm::cl::desc("Phase to stop after"),
    llvm::cl::init(CompilePhase::Bytecode),
    llvm::cl::values(
        clEnumValN(CompilePhase::Input, "input",
                   "print the parsed and verified input IR"),
        clEnumValN(CompilePhase::StreamAsync, "stream-async",
                   "print the IR once tensors are stream.async ops"),
        clEnumValN(CompilePhase::StreamCmd, "stream-cmd",
                   "print the IR once allocation is scheduled (stream.cmd)"),
        clEnumValN(CompilePhase::HAL, "hal",
                   "print the IR lowered to the hal dialect"),
        clEnumValN(CompilePhase::Bytecode, "bytecode",
                   "write the bytecode module (default; needs -o)")),
    llvm::cl::cat(ferryCategory));

llvm::cl::opt<std::string> leadAllocationDevice(
    "lead-allocation-device",
    llvm::cl::desc("Device (symbol name, without @) that allocates every "
                   "buffer it shares with other devices, instead of the one "
                   "the topology or the runtime picks"),
    llvm::cl::value_desc("NAME"), llvm::cl::cat(ferryCategory));

enum class ExternalMapping { WhereRead, Always };
llvm::cl::opt<ExternalMapping> externalMapping(
    "external-mapping",
    llvm::cl::desc("Which buffers that leave a function are allocated "
                   "host-mappable"),
    llvm::cl::init(ExternalMapping::WhereRead),
    llvm::cl::values(
        clEnumValN(ExternalMapping::WhereRead, "where-read",
                   "those the host or external code may read: handed to an "
                   "external function or returned (default; buffers only "
                   "passed into functions of the module stay device-local "
                   "on a discrete device)"),
        clEnumValN(ExternalMapping::Always, "always",
                   "every buffer that leaves a function")),
    llvm::cl::cat(ferryCategory));

llvm::cl::list<std::string> pluginPaths(
    "module",
    llvm::cl::desc("A plugin (shared library) that will provide external "
                   "functions at run time, as given to ferry-run --module. "
                   "Every external function of the program must be in one "
                   "of the plugins given and agree with its declaration; "
                   "functions that declare FERRY_PLUGIN_TIED_MAY_ALIAS get "
                   "their outputs written over dying inputs (fewer "
                   "allocations). Repeatable"),
    llvm::cl::value_desc("PATH.so"), llvm::cl::cat(ferryCategory));

llvm::cl::opt<bool> explainMemoryProperties(
    "hal-explain-memory-properties",
    llvm::cl::desc("Print a remark per allocation saying which topology rule "
                   "chose its memory type and usage bits"),
    llvm::cl::cat(ferryCategory));

llvm::cl::opt<std::string> targetCpu(
    "target-cpu",
    llvm::cl::desc("The LLVM CPU name native executables (the dispatches of "
                   "linalg ops) are compiled for, on the host's architecture; "
                   "'host' is the CPU this runs on. The module records the "
                   "CPU features the code may use and the runtime refuses to "
                   "load it on a CPU without them"),
    llvm::cl::init("host"), llvm::cl::value_desc("NAME"),
    llvm::cl::cat(ferryCategory));

// Verifying the whole module after every pass costs more than most passes
// (it is nearly half of a large compile), so release builds verify the parsed
// input and the final module only; builds with assertions, which are for
// finding compiler bugs, verify after every pass. ferry-opt always does.
#ifdef NDEBUG
constexpr bool kVerifyEachDefault = false;
#else
constexpr bool kVerifyEachDefault = true;
#endif

llvm::cl::opt<bool> verifyEach(
    "verify-each",
    llvm::cl::desc("Verify the IR after every pass, so a pass that breaks it "
                   "is named (default only in builds with assertions; "
                   "otherwise the input and the final IR are verified)"),
    llvm::cl::init(kVerifyEachDefault), llvm::cl::cat(ferryCategory));

constexpr const char *kOverview =
    "ferry-compile: compiles an MLIR program into a Ferry bytecode module\n"
    "(.fvm) that ferry-run executes.\n"
    "\n"
    "The input is lowered phase by phase: input (tensor/linalg/arith)\n"
    "-> stream-async -> stream-cmd -> hal -> bytecode. --compile-to stops\n"
    "after a phase and prints its IR instead of writing a module. MLIR's\n"
    "--mlir-print-ir-after-all and --mlir-timing work as in mlir-opt.\n"
    "\n"
    "Examples:\n"
    "  ferry-compile model.mlir -o model.fvm\n"
    "  ferry-run model.fvm --function=main --input=2x3xi32=1,2,3,4,5,6\n"
    "  ferry-compile model.mlir --compile-to=hal        # print the hal IR\n"
    "  ferry-compile model.mlir -o model.fvm --mlir-print-ir-after-all\n"
    "  ferry-compile model.mlir -o model.fvm --module=kernels.so\n"
    "\n"
    "The memory a run on local-sync peaks at (ferry-run --stats'\n"
    "peak_bytes) is what the liveness walk over the stream-cmd IR reports,\n"
    "given one input-shapes entry per argument: a tensor's shape, or an\n"
    "integer scalar's value (empty for a float; see ferry-opt --help);\n"
    "@NAME: before an entry starts function NAME's own list:\n"
    "  ferry-compile model.mlir --compile-to=stream-cmd | ferry-opt \\\n"
    "      --stream-estimate-peak-memory=input-shapes=2x3,5 -o /dev/null\n"
    "      (or input-shapes=@main:2x3,5,@step:4 for two functions)\n";

llvm::raw_ostream &printError() {
  return llvm::WithColor::error(llvm::errs(), kToolName);
}

bool writesToStdout() {
  return outputFilename.empty() || outputFilename == "-";
}

// A bytecode module is binary and the point of the tool, so it needs a file;
// only printed IR may go to the terminal.
mlir::LogicalResult checkOutputOption() {
  if (compileTo != CompilePhase::Bytecode || !writesToStdout())
    return success();
  if (outputFilename.empty())
    printError() << "no output file: give the module's path with -o "
                    "MODULE.fvm (or print IR with --compile-to=PHASE)\n";
  else
    printError() << "a bytecode module cannot be written to stdout; give a "
                    "file path with -o\n";
  return failure();
}

std::unique_ptr<llvm::MemoryBuffer> readInput() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(inputFilename, /*IsText=*/true);
  if (std::error_code error = buffer.getError()) {
    printError() << "cannot open '" << inputFilename << "': " << error.message()
                 << "\n";
    return nullptr;
  }
  return std::move(*buffer);
}

// Parses and verifies the input, then lowers it to the requested phase.
// Diagnostics go through the context's handler; returns null on failure.
OwningOpRef<ModuleOp> parseAndLower(MLIRContext &context,
                                    llvm::SourceMgr &sourceMgr,
                                    TimingScope &timing) {
  OwningOpRef<ModuleOp> module;
  {
    TimingScope parseTiming = timing.nest("Parse");
    module = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  }
  if (!module)
    return nullptr;
  // Read here rather than by the pass so a plugin that cannot be loaded is
  // reported against --module.
  llvm::Expected<std::vector<ferry::stream::PluginDeclarations>> plugins =
      ferry::stream::loadPluginDeclarations(pluginPaths);
  if (!plugins) {
    printError() << "--module: " << llvm::toString(plugins.takeError()) << "\n";
    return nullptr;
  }

  PassManager pm(&context, ModuleOp::getOperationName());
  if (failed(applyPassManagerCLOptions(pm)))
    return nullptr;
  pm.enableTiming(timing);
  pm.enableVerifier(verifyEach);
  ferry::CompileOptions options;
  options.compileTo = compileTo;
  options.leadAllocationDevice = leadAllocationDevice;
  options.externalMapping =
      externalMapping == ExternalMapping::Always ? "always" : "where-read";
  options.explainMemoryProperties = explainMemoryProperties;
  options.plugins = std::move(*plugins);
  options.verifyImportedIR = !verifyEach;
  ferry::buildCompilePipeline(pm, options);
  if (failed(pm.run(*module)))
    return nullptr;
  if (!verifyEach) {
    TimingScope verifyTiming = timing.nest("Verify");
    if (failed(verify(*module))) {
      printError() << "the compiled IR does not verify: a compiler bug; "
                      "--verify-each names the pass that broke it\n";
      return nullptr;
    }
  }
  return module;
}

// The bytes to write: the module's IR, or its bytecode for the last phase.
mlir::LogicalResult renderOutput(ModuleOp module, std::string &contents) {
  llvm::raw_string_ostream os(contents);
  if (compileTo != CompilePhase::Bytecode) {
    // OpPrintingFlags() picks up the --mlir-print-* asm printer options.
    module->print(os, OpPrintingFlags());
    return success();
  }
  ferry::BytecodeWriterOptions options;
  options.target.cpu = targetCpu;
  return ferry::writeBytecodeModule(module, os, options);
}

// Writes to a temporary file beside `path` and renames it over `path`, so
// readers never see a partly written file and a failure leaves none behind.
mlir::LogicalResult writeFileAtomically(llvm::StringRef path,
                                        llvm::StringRef contents) {
  llvm::Expected<llvm::sys::fs::TempFile> temp =
      llvm::sys::fs::TempFile::create(path + ".tmp-%%%%%%");
  if (!temp) {
    printError() << "cannot write '" << path
                 << "': " << llvm::toString(temp.takeError()) << "\n";
    return failure();
  }
  std::string writeError;
  {
    llvm::raw_fd_ostream os(temp->FD, /*shouldClose=*/false);
    os << contents;
    os.flush();
    if (os.has_error()) {
      writeError = os.error().message();
      os.clear_error();
    }
  }
  if (!writeError.empty()) {
    llvm::consumeError(temp->discard());
    printError() << "cannot write '" << path << "': " << writeError << "\n";
    return failure();
  }
  if (llvm::Error error = temp->keep(path)) {
    printError() << "cannot write '" << path
                 << "': " << llvm::toString(std::move(error)) << "\n";
    return failure();
  }
  return success();
}

// Writes into `path` itself: for a device or pipe (-o /dev/null), which
// renaming a temporary file over it would replace.
mlir::LogicalResult writeFileInPlace(llvm::StringRef path,
                                     llvm::StringRef contents) {
  std::error_code error;
  llvm::raw_fd_ostream os(path, error);
  if (!error) {
    os << contents;
    os.close();
    error = os.error();
    os.clear_error();
  }
  if (error) {
    printError() << "cannot write '" << path << "': " << error.message()
                 << "\n";
    return failure();
  }
  return success();
}

// `path`: --o as parsed (read before linking executables: LLD resets every
// llvm::cl option of the process when it parses its own).
mlir::LogicalResult writeOutput(const std::string &path,
                                llvm::StringRef contents) {
  if (!path.empty() && path != "-") {
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(path, status) && llvm::sys::fs::exists(status) &&
        !llvm::sys::fs::is_regular_file(status))
      return writeFileInPlace(path, contents);
    return writeFileAtomically(path, contents);
  }
  llvm::outs() << contents;
  llvm::outs().flush();
  return success();
}

void registerCommandLineOptions() {
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  // Users read errors against their source; the generic dump of the failing
  // op stays available with --mlir-print-op-on-diagnostic.
  auto &options = llvm::cl::getRegisteredOptions();
  if (auto *printOp = options.lookup("mlir-print-op-on-diagnostic"))
    static_cast<llvm::cl::opt<bool> *>(printOp)->setInitialValue(false);
}

// The shared libLLVM registers hundreds of backend options; --help shows only
// ferry-compile's own and MLIR's (--help-hidden still lists everything, and
// hidden options keep working).
void hideUnrelatedOptions() {
  static llvm::cl::OptionCategory mlirCategory(
      "MLIR options (IR printing, timing, debugging)");
  for (auto &[name, option] : llvm::cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->addCategory(mlirCategory);
  llvm::cl::HideUnrelatedOptions({&ferryCategory, &mlirCategory});
}

mlir::LogicalResult compileMain(int argc, char **argv) {
  registerCommandLineOptions();
  hideUnrelatedOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv, kOverview);
  if (failed(checkOutputOption()))
    return failure();

  std::unique_ptr<llvm::MemoryBuffer> input = readInput();
  if (!input)
    return failure();

  DialectRegistry registry;
  ferry::registerAllDialects(registry);
  // Created after option parsing so it picks up the --mlir-* context options.
  // Never destroyed, like the module below: freeing a large module op by op
  // and the context's uniqued attributes and locations takes about as long
  // as a pass (5% of a 100,000-op compile) and buys nothing right before
  // the process exits (clang's -disable-free does the same). BuryPointer
  // keeps them reachable for leak checkers.
  auto *context = new MLIRContext(registry);
  llvm::BuryPointer(context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  // Every diagnostic, including the bytecode writer's, shows file:line:col.
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, context);

  DefaultTimingManager timingManager;
  applyDefaultTimingManagerCLOptions(timingManager);
  TimingScope timing = timingManager.getRootScope();

  OwningOpRef<ModuleOp> module = parseAndLower(*context, sourceMgr, timing);
  if (!module)
    return failure();
  llvm::BuryPointer(module.get().getOperation());
  ModuleOp compiled = module.release();

  std::string contents;
  std::string output = outputFilename;
  {
    TimingScope outputTiming = timing.nest("Output");
    if (failed(renderOutput(compiled, contents)))
      return failure();
  }
  return writeOutput(output, contents);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  return failed(compileMain(argc, argv)) ? 1 : 0;
}

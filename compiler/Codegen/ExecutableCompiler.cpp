// The LLVM half of code generation: the LLVM-dialect module of
// LowerDispatchToLLVM to LLVM IR, optimized with LLVM's default pipeline,
// emitted as an object for the target CPU and linked by LLD (in process)
// into the shared object a module embeds.
#include "compiler/Codegen/ExecutableCompiler.h"
#include "compiler/Codegen/LowerDispatchToLLVM.h"

#include "lld/Common/Driver.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "runtime/hal/cpu_features.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;

namespace ferry::codegen {

namespace {

struct TargetChoice {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::string format;
  std::string recordedFeatures;
  /// SIMD register width the code generator vectorizes for.
  VectorTarget vector;
};

/// The target machine for `options.cpu` on the host's architecture, given
/// only the features the runtime can check (the rest disabled).
FailureOr<TargetChoice> chooseTarget(Location loc,
                                     const TargetOptions &options) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getProcessTriple());
  TargetChoice choice;
  if (triple.getArch() == llvm::Triple::x86_64) {
    choice.format = "elf-x86_64";
    choice.vector.nontemporalStores = true;
  } else if (triple.getArch() == llvm::Triple::aarch64)
    choice.format = "elf-aarch64";
  else
    return emitError(loc) << "cannot generate code for host triple "
                          << triple.str();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return emitError(loc) << "no LLVM target for " << triple.str() << ": "
                          << error;

  // The ISA features LLVM knows for this architecture, and which the CPU has.
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  std::string cpu = options.cpu;
  llvm::StringSet<> enabled;
  if (cpu == "host") {
    cpu = llvm::sys::getHostCPUName().str();
    for (auto &entry : hostFeatures)
      if (entry.second)
        enabled.insert(entry.first());
  } else {
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
        target->createMCSubtargetInfo(triple, cpu, ""));
    if (!subtarget || !subtarget->isCPUStringValid(cpu))
      return emitError(loc)
             << "unknown --target-cpu '" << cpu << "' for " << triple.str();
    for (auto &entry : hostFeatures)
      if (subtarget->checkFeatures(("+" + entry.first()).str()))
        enabled.insert(entry.first());
  }

  SmallVector<std::string> recorded, features;
  for (auto &entry : hostFeatures) {
    llvm::StringRef name = entry.first();
    bool keep =
        enabled.contains(name) &&
        hal::cpuFeatureIndex(std::string_view(name)).has_value() &&
        (!options.isCheckableFeature || options.isCheckableFeature(name));
    features.push_back((keep ? "+" : "-") + name.str());
    if (keep)
      recorded.push_back(name.str());
  }
  // Vectors as wide as the registers the features give; LLVM is told to
  // use 512-bit registers for them (CPUs whose tuning prefers 256 bits would
  // split each in two).
  auto kept = [&](llvm::StringRef name) {
    return llvm::is_contained(recorded, name.str());
  };
  if (kept("avx512f")) {
    choice.vector.vectorBits = 512;
    features.push_back("-prefer-256-bit");
  } else if (kept("avx")) {
    choice.vector.vectorBits = 256;
  }
  llvm::sort(recorded);
  llvm::sort(features);
  choice.recordedFeatures = llvm::join(recorded, ",");

  llvm::TargetOptions targetOptions;
  choice.machine.reset(target->createTargetMachine(
      triple, cpu, llvm::join(features, ","), targetOptions, llvm::Reloc::PIC_,
      std::nullopt,
      options.optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
      : options.optLevel == 0 ? llvm::CodeGenOptLevel::None
                              : llvm::CodeGenOptLevel::Default));
  if (!choice.machine)
    return emitError(loc) << "LLVM could not create a target machine for "
                          << cpu;
  return choice;
}

void optimize(llvm::Module &module, llvm::TargetMachine &machine,
              unsigned optLevel) {
  if (optLevel == 0)
    return;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 1   ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  builder.buildPerModuleDefaultPipeline(level).run(module, mam);
}

/// A file removed when this goes out of scope.
struct ScratchFile {
  llvm::SmallString<128> path;
  ~ScratchFile() {
    if (!path.empty())
      llvm::sys::fs::remove(path);
  }
};

/// Links `object` into a shared object with LLD (in process; LLD keeps
/// global state, so links are serialized).
FailureOr<std::vector<uint8_t>> linkSharedObject(Location loc,
                                                 llvm::StringRef object) {
  ScratchFile objectFile, imageFile;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("ferry-executable", "o", fd,
                                         objectFile.path))
    return emitError(loc) << "cannot create a temporary object file";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
  }
  if (llvm::sys::fs::createTemporaryFile("ferry-executable", "so",
                                         imageFile.path))
    return emitError(loc) << "cannot create a temporary image file";

  std::string diagnostics;
  llvm::raw_string_ostream errs(diagnostics);
  lld::Result result;
  {
    static std::mutex lldMutex;
    std::lock_guard<std::mutex> lock(lldMutex);
    const char *args[] = {"ld.lld",
                          "-shared",
                          "--build-id=none",
                          "-z",
                          "noexecstack",
                          "-o",
                          imageFile.path.c_str(),
                          objectFile.path.c_str()};
    result =
        lld::lldMain(args, llvm::nulls(), errs, {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return emitError(loc) << "linking the executable with LLD failed: "
                          << diagnostics;
  auto buffer = llvm::MemoryBuffer::getFile(imageFile.path);
  if (!buffer)
    return emitError(loc) << "cannot read the linked executable "
                          << imageFile.path << ": "
                          << buffer.getError().message();
  llvm::StringRef bytes = (*buffer)->getBuffer();
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

} // namespace

FailureOr<ExecutableImage> compileExecutable(ModuleOp module,
                                             const TargetOptions &options) {
  Location loc = module.getLoc();
  ExecutableImage image;
  FailureOr<TargetChoice> target = chooseTarget(loc, options);
  if (failed(target))
    return failure();
  SmallVector<EntryLayout> entries;
  FailureOr<OwningOpRef<ModuleOp>> lowered =
      lowerDispatchesToLLVM(module, entries, target->vector);
  if (failed(lowered))
    return failure();
  image.entries.assign(entries.begin(), entries.end());

  image.format = target->format;
  image.cpuFeatures = target->recordedFeatures;

  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module.getContext()->appendDialectRegistry(registry);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(**lowered, llvmContext, "ferry_executable");
  if (!llvmModule)
    return emitError(loc) << "translating the executable to LLVM IR failed";
  llvmModule->setTargetTriple(target->machine->getTargetTriple());
  llvmModule->setDataLayout(target->machine->createDataLayout());
  // Only the entries and the ABI version are exported.
  llvm::StringSet<> exported;
  for (const EntryLayout &entry : image.entries)
    exported.insert(entry.name);
  for (llvm::Function &function : *llvmModule)
    if (!function.isDeclaration() && !exported.contains(function.getName()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);

  optimize(*llvmModule, *target->machine, options.optLevel);

  llvm::SmallString<0> object;
  {
    llvm::raw_svector_ostream os(object);
    llvm::legacy::PassManager codegen;
    if (target->machine->addPassesToEmitFile(codegen, os, nullptr,
                                             llvm::CodeGenFileType::ObjectFile))
      return emitError(loc) << "LLVM cannot emit an object for "
                            << target->machine->getTargetCPU();
    codegen.run(*llvmModule);
  }
  FailureOr<std::vector<uint8_t>> linked = linkSharedObject(loc, object);
  if (failed(linked))
    return failure();
  image.image = std::move(*linked);
  return image;
}

} // namespace ferry::codegen

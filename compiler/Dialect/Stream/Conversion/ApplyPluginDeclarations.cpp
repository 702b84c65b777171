// Checks a program's external declarations against the plugins that will
// implement them at run time, so that a function none of them provides or a
// mismatch is a compile error naming the function rather than a failure
// when ferry-run binds the module, and marks the functions a plugin lets
// write an output over an input (ferry.abi.tied_may_alias, which
// stream-reuse-operand-storage reads). The
// plugins are read once, with the runtime's own loader, and unloaded again.
// Runs on input IR. See Passes.td.
#include "compiler/Dialect/Stream/Conversion/Passes.h"
#include "compiler/Utils/ABI.h"
#include "runtime/modules/plugin.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace ferry::stream {
#define GEN_PASS_DEF_APPLYPLUGINDECLARATIONSPASS
#include "compiler/Dialect/Stream/Conversion/Passes.h.inc"
} // namespace ferry::stream

using namespace mlir;

namespace ferry::stream {

namespace {

std::string formatKinds(const std::vector<vm::bytecode::RegisterKind> &kinds) {
  std::string out;
  for (vm::bytecode::RegisterKind kind : kinds)
    out += kind == vm::bytecode::RegisterKind::kRef ? 'r' : 'i';
  return out;
}

// The register kinds an external declaration imports with, as the HAL
// lowering passes them: tensors as buffer views, scalars as i64, and for the
// coarse-fences ABI a wait and a signal fence after the arguments.
std::pair<std::string, std::string> importKinds(func::FuncOp decl,
                                                bool coarseFences) {
  auto kinds = [](TypeRange types) {
    std::string out;
    for (Type type : types)
      out += isa<TensorType>(type) ? 'r' : 'i';
    return out;
  };
  std::string args = kinds(decl.getArgumentTypes());
  if (coarseFences)
    args += "rr";
  return {args, kinds(decl.getResultTypes())};
}

// What `plugin` declares for `decl`, bound as the runtime binds an import
// (module and function split at the first '.'), or null.
const PluginDeclarations::Function *
lookupDeclaration(const PluginDeclarations &plugin, func::FuncOp decl) {
  auto [moduleName, functionName] = decl.getSymName().split('.');
  for (const PluginDeclarations::Function &candidate : plugin.functions)
    if (candidate.module == moduleName && candidate.name == functionName)
      return &candidate;
  return nullptr;
}

// Reports `decl`, which none of `plugins` implements: ferry-run would refuse
// to bind the module with them.
LogicalResult reportUnprovided(ArrayRef<PluginDeclarations> plugins,
                               func::FuncOp decl) {
  InFlightDiagnostic diag = decl.emitError();
  diag << "external function '" << decl.getSymName()
       << "' is provided by none of the plugins given (";
  llvm::interleaveComma(plugins, diag, [&](const PluginDeclarations &plugin) {
    diag << "'" << plugin.path << "'";
  });
  diag << ")";
  if (!vm::bytecode::isImportName(decl.getSymName()))
    diag << "; an external function is named 'module.function', after the "
            "native module and function that provide it";
  else
    diag << "; give every plugin the program calls with --module";
  return diag;
}

// Checks `decl` against what `plugin` declares for it (`function`).
LogicalResult applyDeclaration(const PluginDeclarations &plugin,
                               const PluginDeclarations::Function *function,
                               func::FuncOp decl) {
  auto model = decl->getAttrOfType<StringAttr>("iree.abi.model");
  bool coarseFences = model && model.getValue() == "coarse-fences";
  if (coarseFences != function->coarseFences)
    return decl.emitError()
           << "'" << decl.getSymName() << "' is declared with "
           << (coarseFences ? "the coarse-fences ABI" : "no ABI model")
           << " but plugin '" << plugin.path << "' implements it with "
           << (function->coarseFences ? "the coarse-fences ABI"
                                      : "the plain calling convention");
  auto [args, results] = importKinds(decl, coarseFences);
  if (args != function->argKinds || results != function->resultKinds)
    return decl.emitError()
           << "'" << decl.getSymName() << "' imports (" << args << ") -> ("
           << results << ") but plugin '" << plugin.path << "' defines ("
           << function->argKinds << ") -> (" << function->resultKinds
           << ") (i: integer, r: buffer view or fence)";
  if (function->tiedMayAlias)
    decl->setAttr(kTiedMayAliasAttr, UnitAttr::get(decl.getContext()));
  return success();
}

struct ApplyPluginDeclarationsPass
    : impl::ApplyPluginDeclarationsPassBase<ApplyPluginDeclarationsPass> {
  using Base::Base;
  explicit ApplyPluginDeclarationsPass(std::vector<PluginDeclarations> read)
      : declarations(std::move(read)), alreadyRead(true) {}

  LogicalResult initialize(MLIRContext *context) override {
    if (alreadyRead)
      return success();
    llvm::Expected<std::vector<PluginDeclarations>> read =
        loadPluginDeclarations(plugins);
    if (!read)
      return emitError(UnknownLoc::get(context))
             << llvm::toString(read.takeError());
    declarations = std::move(*read);
    return success();
  }

  // Every external function must be implemented by one of the plugins (with
  // several, by any) and agree with each that implements it.
  void runOnOperation() override {
    if (declarations.empty())
      return;
    bool ok = true;
    for (func::FuncOp decl : getOperation().getOps<func::FuncOp>()) {
      if (!decl.isExternal())
        continue;
      bool provided = false;
      for (const PluginDeclarations &plugin : declarations) {
        const PluginDeclarations::Function *function =
            lookupDeclaration(plugin, decl);
        if (!function)
          continue;
        provided = true;
        ok &= succeeded(applyDeclaration(plugin, function, decl));
      }
      if (!provided)
        ok &= succeeded(reportUnprovided(declarations, decl));
    }
    if (!ok)
      signalPassFailure();
  }

private:
  // Given at construction (ferry-compile), or read from `plugins` once by
  // initialize() (ferry-opt).
  std::vector<PluginDeclarations> declarations;
  bool alreadyRead = false;
};

} // namespace

llvm::Expected<std::vector<PluginDeclarations>>
loadPluginDeclarations(ArrayRef<std::string> paths) {
  std::vector<PluginDeclarations> declarations;
  for (const std::string &path : paths) {
    auto loaded = modules::loadPlugin(path);
    if (!loaded.ok())
      return llvm::createStringError(loaded.status().message());
    PluginDeclarations &plugin = declarations.emplace_back();
    plugin.path = path;
    for (const auto &native : *loaded)
      for (const vm::NativeFunction &function : native->functions())
        plugin.functions.push_back(
            {native->name(), function.name,
             (function.flags & vm::bytecode::kImportCoarseFences) != 0,
             (function.flags & vm::bytecode::kImportTiedMayAlias) != 0,
             formatKinds(function.argKinds),
             formatKinds(function.resultKinds)});
  }
  return declarations;
}

std::unique_ptr<Pass>
createApplyPluginDeclarationsPass(std::vector<PluginDeclarations> plugins) {
  return std::make_unique<ApplyPluginDeclarationsPass>(std::move(plugins));
}

} // namespace ferry::stream

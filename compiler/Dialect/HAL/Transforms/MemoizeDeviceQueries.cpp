// Hoists device queries into the module initializer: each distinct query runs
// once when the runtime loads the module, and query sites read its answer
// from globals. See Passes.td.
//
// Only queries on a statically named device (hal.device.get) are hoisted; a
// query on a device chosen at run time stays where it is.
#include "compiler/Dialect/HAL/Transforms/Passes.h"

#include "runtime/vm/bytecode_format.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace ferry::hal {
#define GEN_PASS_DEF_MEMOIZEDEVICEQUERIESPASS
#include "compiler/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace ferry::hal

using namespace mlir;

namespace ferry::hal {
namespace {

// What makes two queries the same question.
using QueryKey =
    std::tuple<StringRef /*device*/, StringRef /*category*/, StringRef /*key*/,
               int64_t /*default*/, Type /*value type*/>;

struct MemoizedQuery {
  GlobalOp ok;
  GlobalOp value;
};

// The module initializer, created empty if the module has none.
FailureOr<func::FuncOp> getOrCreateInitializer(ModuleOp module) {
  StringRef name = vm::bytecode::kInitializerFunctionName.data();
  if (auto existing = module.lookupSymbol(name)) {
    auto func = dyn_cast<func::FuncOp>(existing);
    if (!func || func.isDeclaration() ||
        func.getFunctionType().getNumInputs() != 0 ||
        func.getFunctionType().getNumResults() != 0 ||
        !func.getBody().hasOneBlock())
      return existing->emitError()
             << "'@" << name
             << "' is reserved for the module initializer: a single-block "
                "func.func without arguments or results";
    return func;
  }
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto func = func::FuncOp::create(builder, module.getLoc(), name,
                                   builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(func.addEntryBlock());
  func::ReturnOp::create(builder, module.getLoc());
  return func;
}

struct MemoizeDeviceQueriesPass
    : impl::MemoizeDeviceQueriesPassBase<MemoizeDeviceQueriesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<QueryKey, SmallVector<DeviceQueryOp>> queries;
    module.walk([&](DeviceQueryOp op) {
      auto device = op.getDevice().getDefiningOp<DeviceGetOp>();
      if (!device)
        return;
      auto func = op->getParentOfType<func::FuncOp>();
      if (func &&
          func.getSymName() == vm::bytecode::kInitializerFunctionName.data())
        return;
      queries[{device.getDevice(), op.getCategory(), op.getKey(),
               op.getDefaultValue(), op.getValue().getType()}]
          .push_back(op);
    });
    if (queries.empty())
      return;
    FailureOr<func::FuncOp> initializer = getOrCreateInitializer(module);
    if (failed(initializer))
      return signalPassFailure();

    SymbolTable symbols(module);
    OpBuilder globalBuilder = OpBuilder::atBlockBegin(module.getBody());
    // After the device globals, so the module reads top-down.
    for (auto device : module.getOps<DeviceGlobalOp>())
      globalBuilder.setInsertionPointAfter(device);
    OpBuilder initBuilder(initializer->getBody().front().getTerminator());
    MLIRContext *context = module.getContext();
    unsigned index = 0;
    for (auto &[key, sites] : queries) {
      auto [device, category, queryKey, defaultValue, valueType] = key;
      DeviceQueryOp first = sites.front();
      Location loc = first.getLoc();
      std::string prefix = "__query_" + std::to_string(index++);
      auto okGlobal =
          GlobalOp::create(globalBuilder, loc, StringRef(prefix + "_ok"),
                           IntegerType::get(context, 1));
      auto valueGlobal = GlobalOp::create(
          globalBuilder, loc, StringRef(prefix + "_value"), valueType);
      symbols.insert(okGlobal);
      symbols.insert(valueGlobal);

      Value handle = DeviceGetOp::create(initBuilder, loc,
                                         DeviceType::get(context), device);
      auto query = DeviceQueryOp::create(
          initBuilder, loc, first.getOk().getType(), valueType, handle,
          first.getCategoryAttr(), first.getKeyAttr(),
          first.getDefaultValueAttr());
      GlobalStoreOp::create(initBuilder, loc, query.getOk(),
                            okGlobal.getSymName());
      GlobalStoreOp::create(initBuilder, loc, query.getValue(),
                            valueGlobal.getSymName());

      for (DeviceQueryOp site : sites) {
        OpBuilder siteBuilder(site);
        Value ok =
            GlobalLoadOp::create(siteBuilder, site.getLoc(),
                                 site.getOk().getType(), okGlobal.getSymName());
        Value value = GlobalLoadOp::create(siteBuilder, site.getLoc(),
                                           valueType, valueGlobal.getSymName());
        site.getOk().replaceAllUsesWith(ok);
        site.getValue().replaceAllUsesWith(value);
        site.erase();
      }
    }
  }
};

} // namespace
} // namespace ferry::hal

// Resolves every hal.allocator.resolve_memory_properties from the device
// topology: constant bits where the topology decides, device queries and bit
// arithmetic where only the running devices can. hal.allocator.select ops
// fed by a resolved query become the statically chosen device. See
// Passes.td for the rules; DeviceTopology.h applies them.
//
// Assumes the select ops take their type and usage operands straight from
// the query they belong to (as convert-stream-to-hal emits them).
#include "compiler/Dialect/HAL/Analysis/DeviceTopology.h"
#include "compiler/Dialect/HAL/Transforms/Passes.h"

#include "runtime/hal/buffer_bits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace ferry::hal {
#define GEN_PASS_DEF_RESOLVETOPOLOGYQUERIESPASS
#include "compiler/Dialect/HAL/Transforms/Passes.h.inc"
} // namespace ferry::hal

using namespace mlir;

namespace ferry::hal {
namespace {

// Builds the run-time bit logic of one query: i32 values that are 0 or 1 for
// capabilities, combined with and/or/sub/mul (all in the bytecode).
class RuntimeBitsBuilder {
public:
  RuntimeBitsBuilder(OpBuilder &builder, Location loc,
                     const DeviceTopology &topology)
      : builder(builder), loc(loc), topology(topology) {}

  Value constant(uint32_t value) {
    return arith::ConstantOp::create(
        builder, loc, builder.getI32IntegerAttr(static_cast<int32_t>(value)));
  }

  // 1 if `user` can do `property` with memory allocated on `owner`.
  Value capability(Capability known, StringRef user, StringRef owner,
                   StringRef property) {
    if (known != Capability::Runtime)
      return constant(known == Capability::Yes ? 1 : 0);
    return query(user, (owner + ":" + property).str());
  }

  Value importPath(const LinkCapabilities &link, StringRef user,
                   StringRef owner) {
    if (link.importPath != Capability::Runtime)
      return constant(link.importPath == Capability::Yes ? 1 : 0);
    Value any;
    for (const std::string &type : link.runtimeHandleTypes) {
      Value answer = query(user, (owner + ":import." + type).str());
      any = any ? arith::OrIOp::create(builder, loc, any, answer) : answer;
    }
    return any;
  }

  Value both(Value lhs, Value rhs) {
    return lhs ? arith::AndIOp::create(builder, loc, lhs, rhs) : rhs;
  }
  Value either(Value lhs, Value rhs) {
    return lhs ? arith::OrIOp::create(builder, loc, lhs, rhs) : rhs;
  }
  Value negate(Value flag) {
    return arith::SubIOp::create(builder, loc, constant(1), flag);
  }
  // `bits` when `flag` is 1, else 0.
  Value bitsIf(Value flag, uint32_t bits) {
    return arith::MulIOp::create(builder, loc, flag, constant(bits));
  }

  // The memory type and usage of `plan` given the run-time answers.
  std::pair<Value, Value> build(const AllocationPlan &plan) {
    SmallVector<StringRef> candidates;
    if (plan.allocationDevice)
      candidates.push_back(*plan.allocationDevice);
    else
      candidates.assign(plan.devices.begin(), plan.devices.end());
    // transparent / unified: some candidate serves every other device so.
    Value transparent, unified;
    for (StringRef owner : candidates) {
      Value allTransparent, allUnified;
      for (StringRef user : plan.devices) {
        if (user == owner)
          continue;
        const LinkCapabilities &link = topology.link(user, owner);
        allTransparent =
            both(allTransparent, capability(link.transparentAccess, user, owner,
                                            "transparent_access"));
        allUnified = both(allUnified, capability(link.unifiedMemory, user,
                                                 owner, "unified_memory"));
      }
      transparent = either(transparent, allTransparent);
      unified = either(unified, allUnified);
    }
    Value mapped = either(transparent, unified);
    Value unifiedOnly = both(unified, negate(transparent));
    auto i32 = builder.getI32Type();
    Value memory = MemoryTypeOp::create(
        builder, loc, i32, builder.getI32IntegerAttr(plan.memoryTypes));
    memory = arith::OrIOp::create(builder, loc, memory,
                                  bitsIf(mapped, kHostVisible));
    memory = arith::OrIOp::create(builder, loc, memory,
                                  bitsIf(unifiedOnly, kHostCoherent));
    Value usage = BufferUsageOp::create(
        builder, loc, i32, builder.getI32IntegerAttr(plan.bufferUsage));
    usage = arith::OrIOp::create(builder, loc, usage,
                                 bitsIf(mapped, kMapping | kMappingPersistent));
    usage = arith::OrIOp::create(builder, loc, usage,
                                 bitsIf(negate(mapped), kSharingExport));
    return {memory, usage};
  }

private:
  Value query(StringRef device, StringRef key) {
    Value handle = DeviceGetOp::create(
        builder, loc, DeviceType::get(builder.getContext()), device);
    auto op = DeviceQueryOp::create(
        builder, loc, builder.getI1Type(), builder.getI32Type(), handle,
        builder.getStringAttr("hal.device.link"), builder.getStringAttr(key),
        builder.getI64IntegerAttr(0));
    return op.getValue();
  }

  OpBuilder &builder;
  Location loc;
  const DeviceTopology &topology;
};

struct ResolveTopologyQueriesPass
    : impl::ResolveTopologyQueriesPassBase<ResolveTopologyQueriesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<AllocationPlanner> planner =
        AllocationPlanner::build(module, leadAllocationDevice);
    if (failed(planner))
      return signalPassFailure();
    SmallVector<AllocatorResolveMemoryPropertiesOp> queries;
    module.walk(
        [&](AllocatorResolveMemoryPropertiesOp op) { queries.push_back(op); });
    bool ok = true;
    for (AllocatorResolveMemoryPropertiesOp op : queries)
      ok &= succeeded(resolve(op, *planner));
    if (!ok)
      return signalPassFailure();
    dropSharedImports(module, planner->topology());
  }

  // An import of a buffer whose allocating device is now known, into a
  // device that is that one or reaches its memory (transparent access or
  // unified memory), is the buffer itself.
  static void dropSharedImports(ModuleOp module,
                                const DeviceTopology &topology) {
    auto symbolOf = [](Value device) -> std::optional<StringRef> {
      if (auto get = device.getDefiningOp<DeviceGetOp>())
        return get.getDevice();
      return std::nullopt;
    };
    module.walk([&](DeviceImportBufferOp op) {
      auto alloca = op.getSourceBuffer().getDefiningOp<DeviceQueueAllocaOp>();
      if (!alloca)
        return;
      std::optional<StringRef> owner = symbolOf(alloca.getDevice());
      std::optional<StringRef> user = symbolOf(op.getDevice());
      if (!owner || !user)
        return;
      if (*owner != *user) {
        const LinkCapabilities &link = topology.link(*user, *owner);
        if (link.transparentAccess != Capability::Yes &&
            link.unifiedMemory != Capability::Yes)
          return;
      }
      op.replaceAllUsesWith(op.getSourceBuffer());
      op.erase();
    });
  }

  LogicalResult resolve(AllocatorResolveMemoryPropertiesOp op,
                        const AllocationPlanner &planner) {
    FailureOr<AllocationPlan> plan = planner.plan(op);
    if (failed(plan))
      return failure();

    OpBuilder builder(op);
    Location loc = op.getLoc();
    Value memory, usage;
    if (plan->rule == SharingRule::Runtime) {
      std::tie(memory, usage) =
          RuntimeBitsBuilder(builder, loc, planner.topology()).build(*plan);
    } else {
      auto i32 = builder.getI32Type();
      memory = MemoryTypeOp::create(
          builder, loc, i32, builder.getI32IntegerAttr(plan->memoryTypes));
      usage = BufferUsageOp::create(
          builder, loc, i32, builder.getI32IntegerAttr(plan->bufferUsage));
    }

    if (plan->allocationDevice) {
      for (Operation *user :
           llvm::make_early_inc_range(op.getMemoryTypes().getUsers())) {
        auto select = dyn_cast<AllocatorSelectOp>(user);
        if (!select || select.getMemoryTypes() != op.getMemoryTypes())
          continue;
        OpBuilder selectBuilder(select);
        Value device = DeviceGetOp::create(
            selectBuilder, select.getLoc(), select.getType(),
            FlatSymbolRefAttr::get(builder.getContext(),
                                   *plan->allocationDevice));
        select.replaceAllUsesWith(device);
        select.erase();
      }
    }
    op.getMemoryTypes().replaceAllUsesWith(memory);
    op.getBufferUsage().replaceAllUsesWith(usage);
    op.erase();
    return success();
  }
};

} // namespace
} // namespace ferry::hal

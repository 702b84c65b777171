// Bounds and checks the heap tiles of a kernel (GuardHeapTiles.h says what
// and why). The checks cost a compare and a branch per allocation, and
// allocations are outside the vectorized loops.
#include "compiler/Codegen/GuardHeapTiles.h"
#include "runtime/hal/executable_abi.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

using namespace mlir;

namespace ferry::codegen {

namespace {

struct BoundHeapTileSizesPass
    : PassWrapper<BoundHeapTileSizesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BoundHeapTileSizesPass)
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    getOperation().walk([&](memref::AllocOp alloc) {
      if (!alloc.getDynamicSizes().empty())
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs)
      if (failed(bound(alloc)))
        return signalPassFailure();
  }

  LogicalResult bound(memref::AllocOp alloc) {
    MemRefType type = alloc.getType();
    uint64_t elementBytes =
        DataLayout::closest(alloc).getTypeSize(type.getElementType());
    // The static part of the size, checked here once.
    uint64_t staticBytes = elementBytes;
    for (int64_t dim : type.getShape()) {
      if (ShapedType::isDynamic(dim))
        continue;
      if (dim != 0 && staticBytes > uint64_t(kMaxHeapTileBytes) / dim)
        return alloc.emitOpError("allocates more than 2^62 bytes");
      staticBytes *= dim;
    }
    if (staticBytes == 0)
      return success(); // zero bytes whatever the dynamic sizes
    OpBuilder builder(alloc);
    Location loc = alloc.getLoc();
    Type i64 = builder.getI64Type();
    auto constI64 = [&](uint64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i64, int64_t(value));
    };
    // Bytes = staticBytes * each dynamic size (unsigned: a negative size is
    // huge), with a sticky flag for a product over 64 bits.
    Value bytes = constI64(staticBytes);
    Value overflow = arith::ConstantIntOp::create(builder, loc, 0, 1);
    for (Value size : alloc.getDynamicSizes()) {
      Value size64 = arith::IndexCastUIOp::create(builder, loc, i64, size);
      auto product =
          arith::MulUIExtendedOp::create(builder, loc, bytes, size64);
      Value high = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                         product.getHigh(), constI64(0));
      overflow = arith::OrIOp::create(builder, loc, overflow, high);
      bytes = product.getLow();
    }
    Value tooLarge = arith::OrIOp::create(
        builder, loc, overflow,
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ugt, bytes,
                              constI64(kMaxHeapTileBytes)));
    // Too large: the first dynamic size makes at least kMaxHeapTileBytes
    // (and less than 2^63 with the others 1), which malloc refuses.
    SmallVector<Value> sizes;
    for (auto [index, size] : llvm::enumerate(alloc.getDynamicSizes())) {
      uint64_t fallback =
          index == 0
              ? llvm::divideCeil(uint64_t(kMaxHeapTileBytes), staticBytes)
              : 1;
      Value replacement =
          arith::ConstantIndexOp::create(builder, loc, int64_t(fallback));
      sizes.push_back(
          arith::SelectOp::create(builder, loc, tooLarge, replacement, size));
    }
    alloc.getDynamicSizesMutable().assign(sizes);
    return success();
  }
};

/// What one path may have done with a tile: not allocated it yet, hold it,
/// or have freed it. A block's state is the union over its paths.
enum TileState : uint8_t { kNotYet = 1, kHeld = 2, kFreed = 4 };

bool isCallTo(Operation *op, StringRef name) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() && *call.getCallee() == name;
}

} // namespace

std::unique_ptr<Pass> createBoundHeapTileSizesPass() {
  return std::make_unique<BoundHeapTileSizesPass>();
}

LogicalResult checkHeapTiles(LLVM::LLVMFuncOp body) {
  MLIRContext *context = body.getContext();
  OpBuilder builder(context);
  Type i32 = builder.getI32Type();
  auto status = [&](Location loc, int32_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, i32,
                                    builder.getI32IntegerAttr(value));
  };
  LLVM::LLVMFunctionType type = body.getFunctionType();
  body.setFunctionTypeAttr(TypeAttr::get(
      LLVM::LLVMFunctionType::get(i32, type.getParams(), type.isVarArg())));
  SmallVector<LLVM::ReturnOp> returns;
  body.walk([&](LLVM::ReturnOp ret) { returns.push_back(ret); });
  for (LLVM::ReturnOp ret : returns) {
    builder.setInsertionPoint(ret);
    LLVM::ReturnOp::create(builder, ret.getLoc(),
                           status(ret.getLoc(), FERRY_ENTRY_STATUS_OK));
    ret.erase();
  }

  SmallVector<LLVM::CallOp> mallocs;
  DenseMap<Value, unsigned> tileOf;
  body.walk([&](LLVM::CallOp call) {
    if (!isCallTo(call, "malloc"))
      return;
    tileOf[call.getResult()] = mallocs.size();
    mallocs.push_back(call);
  });
  if (mallocs.empty())
    return success();

  // What every path to an op may have done with each tile. A free of a
  // pointer that is not a malloc's result (none is made today) might free
  // any tile.
  using State = SmallVector<uint8_t>;
  auto transfer = [&](Operation &op, State &state) {
    if (isCallTo(&op, "malloc")) {
      state[tileOf.lookup(op.getResult(0))] = kHeld;
    } else if (isCallTo(&op, "free")) {
      auto tile = tileOf.find(op.getOperand(0));
      if (tile != tileOf.end())
        state[tile->second] = kFreed;
      else
        for (uint8_t &tileState : state)
          tileState |= kFreed;
    }
  };
  Region &region = body.getBody();
  DenseMap<Block *, State> entryStates;
  entryStates[&region.front()] = State(mallocs.size(), kNotYet);
  SmallVector<Block *> worklist = {&region.front()};
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    State state = entryStates[block];
    for (Operation &op : *block)
      transfer(op, state);
    for (Block *successor : block->getSuccessors()) {
      State &next = entryStates[successor];
      bool changed = next.empty();
      if (next.empty())
        next = State(mallocs.size(), 0);
      for (auto [into, from] : llvm::zip(next, state)) {
        changed |= (into | from) != into;
        into |= from;
      }
      if (changed)
        worklist.push_back(successor);
    }
  }
  // The state just before `op`.
  auto stateBefore = [&](Operation *op) {
    State state = entryStates.lookup(op->getBlock());
    if (state.empty()) // unreachable
      return state;
    for (Operation &earlier : *op->getBlock()) {
      if (&earlier == op)
        break;
      transfer(earlier, state);
    }
    return state;
  };

  // Every path to a return frees what it allocated.
  WalkResult leaks = body.walk([&](LLVM::ReturnOp ret) {
    State state = stateBefore(ret);
    for (auto [tile, tileState] : llvm::enumerate(state))
      if (tileState & kHeld) {
        mallocs[tile].emitOpError(
            "allocates a kernel buffer not freed on every path to a return");
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  if (leaks.wasInterrupted())
    return failure();

  // The tiles each malloc's failure frees.
  SmallVector<SmallVector<Value>> heldAt;
  for (LLVM::CallOp malloc : mallocs) {
    State state = stateBefore(malloc);
    SmallVector<Value> &held = heldAt.emplace_back();
    for (auto [tile, tileState] : llvm::enumerate(state)) {
      if (mallocs[tile] == malloc && (tileState & kHeld))
        return malloc.emitOpError("allocates a kernel buffer again while "
                                  "it holds the one it allocated before");
      if (tileState == kHeld) {
        held.push_back(mallocs[tile].getResult());
      } else if (tileState & kHeld) {
        return malloc.emitOpError(
            "allocates a kernel buffer while another may or may not be "
            "held: a failure could not free it");
      }
    }
  }

  auto module = body->getParentOfType<ModuleOp>();
  builder.setInsertionPointToStart(module.getBody());
  FailureOr<LLVM::LLVMFuncOp> freeFn =
      LLVM::lookupOrCreateFreeFn(builder, module);
  if (failed(freeFn))
    return body.emitOpError("cannot declare free");
  auto ptrType = LLVM::LLVMPointerType::get(context);
  for (auto [malloc, held] : llvm::zip(mallocs, heldAt)) {
    Location loc = malloc.getLoc();
    Block *block = malloc->getBlock();
    Block *rest = block->splitBlock(malloc->getNextNode());
    Block *outOfMemory = new Block();
    region.push_back(outOfMemory);
    builder.setInsertionPointToEnd(block);
    Value null = LLVM::ZeroOp::create(builder, loc, ptrType);
    Value failed = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                        malloc.getResult(), null);
    LLVM::CondBrOp::create(builder, loc, failed, outOfMemory, ValueRange{},
                           rest, ValueRange{},
                           std::make_pair(uint32_t(1), uint32_t(2000)));
    builder.setInsertionPointToEnd(outOfMemory);
    for (Value tile : llvm::reverse(held))
      LLVM::CallOp::create(builder, loc, *freeFn, tile);
    LLVM::ReturnOp::create(builder, loc,
                           status(loc, FERRY_ENTRY_STATUS_OUT_OF_MEMORY));
  }
  return success();
}

} // namespace ferry::codegen

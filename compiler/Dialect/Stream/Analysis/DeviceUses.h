// Which devices use a buffer: the rule convert-stream-to-hal allocates by
// and stream-estimate-peak-memory counts by, in one place so the two agree.
//
// A buffer may be used on the devices of the ops that use it, and a view of
// it exported to a call or returned may be used on any device that callee
// (or the functions it calls) or the callers use (and their callers, which
// may return it in turn). The first of those
// devices, in program order, is where the default topology allocates it.
#ifndef FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_DEVICEUSES_H_
#define FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_DEVICEUSES_H_

#include "compiler/Dialect/Stream/IR/StreamDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace ferry::stream {

class ModuleDeviceUses {
public:
  using Affinities = llvm::SetVector<AffinityAttr>;

  // The devices each function uses, itself or through the functions it
  // calls (its stream ops without an affinity use the default device), and
  // the devices its callers and their callers use; in module order, never in an
  // order that depends on pointer hashes (the first device matters).
  explicit ModuleDeviceUses(mlir::ModuleOp module);

  // The affinities of `op` (which made `resource`) and of every op that uses
  // `resource` (following host awaits, tied call results and the positions
  // of region ops it is carried in to their users, getStorageUsers; a view
  // exported to a call or returned counts the devices that callee or the
  // callers use), deduplicated, `op` first and the rest in program order,
  // not use-list order. Deallocas, sizes, retains, releases and
  // terminal checks (host bookkeeping) do not count. Sets `defaultDeviceUse`
  // when some use has no affinity (it runs on the default device).
  Affinities usingAffinities(mlir::Operation *op, mlir::Value resource,
                             mlir::func::FuncOp func,
                             bool &defaultDeviceUse) const;

private:
  void addAll(const llvm::DenseMap<mlir::StringAttr, Affinities> &map,
              mlir::StringAttr name, Affinities &into,
              bool &defaultDeviceUse) const;

  // A null affinity in these sets stands for the default device (a stream
  // op without an affinity runs there).
  llvm::DenseMap<mlir::StringAttr, Affinities> ownAndCallees;
  llvm::DenseMap<mlir::StringAttr, Affinities> callers;
};

} // namespace ferry::stream

#endif // FERRY_COMPILER_DIALECT_STREAM_ANALYSIS_DEVICEUSES_H_

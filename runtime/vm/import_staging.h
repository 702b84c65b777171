// ImportStaging: makes the buffers of a coarse-fences call mappable by the
// external function, whatever memory they are in.
//
// External code reads and writes its buffer views through the host
// (plugin_api.h view_map), so a view in memory the host cannot see (a
// discrete device's memory, which is where a host may well hand a function
// its arguments) would fail there. Such a view is staged: a host-visible
// copy is allocated and filled on the buffer's device, ordered after the
// call's wait fence, and the callee gets the copy and waits for it. A result
// the callee returns in a staged view (a tied output written in place) is
// copied back into the original buffer after the callee signals, and the
// staging buffers are freed; the program's signal fence resolves only after
// that. Views already in host-visible memory are passed as they are, so
// nothing changes on devices whose memory the host reaches.
//
// The copies and staging allocations are ordinary queue operations of the
// device, counted in its statistics; the compiler's liveness walk does not
// see them (ARCHITECTURE.md, the local-discrete exception).
//
// Ownership/threads: a value used by the one VM frame making the call.
#ifndef FERRY_RUNTIME_VM_IMPORT_STAGING_H_
#define FERRY_RUNTIME_VM_IMPORT_STAGING_H_

#include <memory>
#include <span>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/fence.h"
#include "runtime/vm/value.h"

namespace ferry::vm {

class ImportStaging {
public:
  // Stages every buffer-view argument of `args` (a coarse-fences argument
  // list: ..., wait fence, signal fence) that is not in host-visible memory,
  // replacing it and the wait fence in `args`. A buffer is staged on its
  // origin device, else on `fallback`.
  static Result<ImportStaging> stageArguments(std::vector<Value> &args,
                                              hal::Device *fallback);

  bool empty() const { return staged_.empty(); }

  // Records a host-visible `staging` view the callee writes in place of
  // `original` (a new result in memory the host cannot see): finish() copies
  // it back when the callee returns it and frees it.
  void addStagedResult(std::shared_ptr<hal::BufferView> original,
                       std::shared_ptr<hal::BufferView> staging,
                       std::shared_ptr<hal::Device> device) {
    staged_.push_back(
        {std::move(original), std::move(staging), std::move(device)});
  }

  // After the callee returned `results` and was given `calleeSignal`: each
  // result holding a staged view becomes the original view again and its
  // bytes are copied back once `calleeSignal` resolves; every staging buffer
  // is then freed. Returns the fence that resolves when all of that is done
  // (failed if the callee or a copy failed).
  Result<std::shared_ptr<hal::Fence>>
  finish(std::vector<Value> &results,
         const std::shared_ptr<hal::Fence> &calleeSignal);

private:
  struct Staged {
    std::shared_ptr<hal::BufferView> original;
    std::shared_ptr<hal::BufferView> staging;
    std::shared_ptr<hal::Device> device;
  };
  std::vector<Staged> staged_;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_IMPORT_STAGING_H_

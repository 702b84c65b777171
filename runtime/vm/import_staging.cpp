#include "runtime/vm/import_staging.h"

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/queue_flags.h"

namespace ferry::vm {

Result<ImportStaging> ImportStaging::stageArguments(std::vector<Value> &args,
                                                    hal::Device *fallback) {
  ImportStaging staging;
  size_t waitAt = args.size() - 2;
  std::shared_ptr<hal::Fence> wait = args[waitAt].refAs<hal::Fence>();
  std::vector<std::shared_ptr<hal::Fence>> ready;
  for (size_t i = 0; i < waitAt; ++i) {
    std::shared_ptr<hal::BufferView> view = args[i].refAs<hal::BufferView>();
    if (!view || (view->buffer()->memoryType() & hal::kHostVisible))
      continue;
    std::shared_ptr<hal::Device> device =
        view->buffer()->placement().device.lock();
    if (!device && fallback)
      device = fallback->shared_from_this();
    if (!device)
      return failedPrecondition(
          "argument ", i, " (", view->typeString(),
          ") is not in host-visible memory and has no device to stage it on");
    auto allocated = hal::Fence::create();
    auto copied = hal::Fence::create();
    FERRY_ASSIGN_OR_RETURN(
        std::shared_ptr<hal::Buffer> buffer,
        device->queueAlloca(wait, allocated,
                            hal::kHostVisible | hal::kHostCoherent,
                            hal::kTransfer | hal::kMapping, view->byteLength(),
                            hal::kQueueAllocaNone));
    FERRY_RETURN_IF_ERROR(device->queueCopy(allocated, copied, view->buffer(),
                                            0, buffer, 0, view->byteLength()));
    FERRY_ASSIGN_OR_RETURN(
        std::shared_ptr<hal::BufferView> staged,
        hal::BufferView::create(
            buffer,
            std::vector<int64_t>(view->shape().begin(), view->shape().end()),
            view->elementType()));
    args[i] = Value(staged);
    ready.push_back(copied);
    staging.staged_.push_back({view, staged, device});
  }
  if (!ready.empty())
    args[waitAt] = Value(hal::Fence::join(ready));
  return staging;
}

Result<std::shared_ptr<hal::Fence>>
ImportStaging::finish(std::vector<Value> &results,
                      const std::shared_ptr<hal::Fence> &calleeSignal) {
  std::vector<std::shared_ptr<hal::Fence>> done;
  for (Staged &staged : staged_) {
    std::shared_ptr<hal::Fence> freeAfter = calleeSignal;
    bool written = false;
    for (Value &result : results)
      if (result.refAs<hal::BufferView>() == staged.staging) {
        result = Value(staged.original);
        written = true;
      }
    if (written) {
      auto copied = hal::Fence::create();
      FERRY_RETURN_IF_ERROR(staged.device->queueCopy(
          calleeSignal, copied, staged.staging->buffer(), 0,
          staged.original->buffer(), 0, staged.original->byteLength()));
      freeAfter = copied;
    }
    auto freed = hal::Fence::create();
    FERRY_RETURN_IF_ERROR(staged.device->queueDealloca(
        freeAfter, freed, staged.staging->buffer(), hal::kQueueDeallocaNone));
    done.push_back(freed);
  }
  return hal::Fence::join(done);
}

} // namespace ferry::vm

// Claiming a buffer a caller handed over: the program's own, to write in
// place.
//
// A caller may hand a program its ownership of a buffer (an argument the
// function declares `iree.abi.consume`): the program then frees it after its
// last use and may write it in place, but only if the caller really gave up
// every share. Ownership is counted on the allocation (Buffer::preserve /
// discard), so that is known only at run time: a caller that preserved the
// buffer to keep using it still owns a share. claimBuffer answers it once,
// where the buffer enters the program: the buffer itself when the program is
// its only owner, else a copy the program alone owns (the program's share of
// the original is dropped). This is what compiled programs run for
// hal.buffer.allocation.claim (the bytecode's kBufferClaim instruction).
//
// Ownership: the result has exactly one owner, the caller of claimBuffer.
// Threads: safe from any thread; the copy blocks until it is done.
#ifndef FERRY_RUNTIME_HAL_BUFFER_CLAIM_H_
#define FERRY_RUNTIME_HAL_BUFFER_CLAIM_H_

#include <memory>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"

namespace ferry::hal {

// Returns `buffer` when the caller is the only owner of its allocation.
// Otherwise allocates `buffer`'s byte length on `device` with its memory type
// and usage (plus TransferTarget), copies the bytes there on `device`'s queue,
// waits for the copy, removes the caller's share of `buffer` and returns the
// copy. `buffer` must be live (its bytes ready) and readable by a transfer;
// errors name it.
Result<std::shared_ptr<Buffer>>
claimBuffer(Device &device, const std::shared_ptr<Buffer> &buffer);

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_BUFFER_CLAIM_H_

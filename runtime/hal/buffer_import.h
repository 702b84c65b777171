// Making a buffer allocated on one device usable on another.
//
// A device may touch another device's buffer directly only when the
// topology gives it transparent access to that memory (Device::queue*
// checks this). Otherwise the allocating device exports the buffer as an
// opaque fd (it needs SharingExport) and the using device's allocator
// imports it: a new Buffer of the same memory, owned by the using device,
// with the source's bits minus SharingExport plus SharingImport. This is
// what compiled programs run for hal.device.import_buffer (the bytecode's
// kDeviceImportBuffer instruction).
//
// Where no handle type connects the two (the owner exports none the using
// device imports), the using device gets a transfer mirror instead: a
// buffer of its own (Buffer::transferSource() names the original). Every
// queue operation on a mirror (Device::queueDispatch/Fill/Copy) copies the
// original in before it runs and, if it writes the mirror, back out after,
// within the operation, so fences order the transfers like the operation
// itself. A transfer is staged through host-visible buffers on both
// devices: the owner's queue copies into its staging buffer, the host
// copies across, the user copies out of its own (and the reverse to write
// back); each counts as one transfer of the using device
// (DeviceStatistics::transfers). The mirror holds the original (not its
// memory: the original's dealloca still frees it).
//
// Ownership: the imported buffer maps the memory for as long as it is
// referenced, independently of the source (which may be deallocated first).
// Its allocator counts it as an allocation. Ownership counting and
// deallocation stay with the source. Threads: safe to call from any thread.
#ifndef FERRY_RUNTIME_HAL_BUFFER_IMPORT_H_
#define FERRY_RUNTIME_HAL_BUFFER_IMPORT_H_

#include <memory>

#include "runtime/base/status.h"
#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/fence.h"

namespace ferry::hal {

// Returns `buffer` itself when `device` allocated it or has transparent
// access to the memory of the device that did; otherwise exports it from
// its allocator as an opaque fd and imports that into `device`'s allocator,
// or, when the two have no handle type in common, a transfer mirror on
// `device` (see above; both must be in one DeviceGroup).
// A buffer whose queue alloca has not executed yet (pending) has no memory
// to export: the call then waits for `wait` (may be null), a fence
// signalled once it has. Errors name the buffer, both devices and the
// missing usage bit or handle type.
Result<std::shared_ptr<Buffer>>
importBufferToDevice(Device &device, const std::shared_ptr<Buffer> &buffer,
                     const std::shared_ptr<Fence> &wait);

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_BUFFER_IMPORT_H_

// The local CPU driver's built-in elementwise kernels (add, sub, mul) for
// every element type.
//
// Called by LocalDevice after validateDispatch (runtime/hal/device.h) has
// checked bindings and sizes, so these only compute. Integer kernels wrap on
// overflow (computed in the unsigned type, which is defined behaviour).
//
// Ownership/threads: stateless; callers own the memory and its ordering.
#ifndef FERRY_RUNTIME_DRIVERS_LOCAL_ELEMENTWISE_KERNELS_H_
#define FERRY_RUNTIME_DRIVERS_LOCAL_ELEMENTWISE_KERNELS_H_

#include <cstdint>

#include "runtime/base/status.h"
#include "runtime/hal/device.h"
#include "runtime/hal/element_type.h"

namespace ferry::drivers::local {

// out[i] = lhs[i] OP rhs[i] for i < count. The pointers may alias each other
// exactly (in-place), and need no alignment.
Status runElementwiseKernel(hal::BuiltinKernel kernel,
                            hal::ElementType elementType, uint64_t count,
                            const uint8_t *lhs, const uint8_t *rhs,
                            uint8_t *out);

} // namespace ferry::drivers::local

#endif // FERRY_RUNTIME_DRIVERS_LOCAL_ELEMENTWISE_KERNELS_H_

// Scalar arguments and results of ferry-run: the text and .npy forms of the
// values a function takes and returns in i64 registers.
//
// Text form (like a rank-0 tensor): "TYPE=VALUE", e.g. "i32=5", "f32=2.5",
// "i1=1", "index=7". The type must be the one the module's signature
// reflection gives the argument (runtime/vm/bytecode_format.h). A register
// holds an integer sign-extended from its width (i1 as 0 or 1) and a float
// as its bit pattern, sign-extended the same way. In .npy files a scalar is
// a 0-d array of its element type: i1 as bool ('|b1'), index as i64, bf16
// as the '<u2' of its bits (npy.h). "f16=1.5" and "bf16=1.5" read and print
// like tensor elements.
//
// Ownership/threads: pure functions.
#ifndef FERRY_RUNTIME_TOOLS_SCALAR_VALUE_H_
#define FERRY_RUNTIME_TOOLS_SCALAR_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/base/status.h"
#include "runtime/tools/host_tensor.h"
#include "runtime/vm/bytecode_format.h"

namespace ferry::tools {

// The element type a scalar of `type` has as a 0-d tensor (.npy, text), or
// an error naming the type ferry-run cannot convert.
Result<hal::ElementType> scalarElementType(vm::bytecode::ScalarType type);

// The register value of `tensor`, a 0-d tensor of `type`'s element type
// (messages name the problem, not the argument).
Result<int64_t> scalarFromTensor(const HostTensor &tensor,
                                 vm::bytecode::ScalarType type);

// `value` (a register of `type`) as a 0-d tensor.
Result<HostTensor> scalarToTensor(int64_t value, vm::bytecode::ScalarType type);

// "i32=5" for the register `value` of `type`.
std::string formatScalar(int64_t value, vm::bytecode::ScalarType type);

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_SCALAR_VALUE_H_

// HostTensor and its text form: how ferry-run reads --input values and prints
// results.
//
// Text form (pinned by ARCHITECTURE.md section 3):
//   input   SHAPExTYPE=v0,v1,...   "4xi32=1,2,3,4", "2x3xf32=1,2,3,4,5,6",
//                                  rank 0 "i32=5", empty "0xi32="
//   output  SHAPExTYPE=[...]       "4xi32=[11 22 33 44]",
//                                  "2x3xi32=[1 2 3][4 5 6]", "i32=5",
//                                  "0xi32=[]"
// A value is a decimal number with at most one sign ('-' or '+'); integers
// must fit their type and floats may also be inf or nan.
// Floats print in the shortest form that reads back to the same value
// (std::to_chars), so 1.5 prints "1.5" and 2.0 prints "2".
// Summary (like NumPy's default print options): a tensor of more than
// `maxElements` elements prints, in each dimension longer than
// 2 * kSummaryEdgeItems, only the first and last kSummaryEdgeItems entries
// with "..." between them:
//   2000xi32, 0 to 1999:   "2000xi32=[0 1 2 ... 1997 1998 1999]"
//   8x8xi32, 0 to 63:      "8x8xi32=[0 1 2 ... 5 6 7][8 9 10 ... 13 14 15]
//                           [16 17 18 ... 21 22 23]...[40 41 42 ... 45 46 47]
//                           [48 49 50 ... 53 54 55][56 57 58 ... 61 62 63]"
//                           (one line; with maxElements below 64)
// so a 4096x4096 result prints 36 numbers, not 16M.
//
// Ownership/threads: plain values and pure functions.
#ifndef FERRY_RUNTIME_TOOLS_HOST_TENSOR_H_
#define FERRY_RUNTIME_TOOLS_HOST_TENSOR_H_

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/element_type.h"

namespace ferry::tools {

// A dense, C-order, little-endian tensor in host memory.
struct HostTensor {
  std::vector<int64_t> shape;
  hal::ElementType elementType = hal::ElementType::kI32;
  std::vector<uint8_t> bytes;

  std::string typeString() const;
};

struct TensorType {
  std::vector<int64_t> shape;
  hal::ElementType elementType;
};

// "2x3xf32" -> {2,3}, f32. Messages name the bad part.
Result<TensorType> parseTensorType(std::string_view text);

// "4xi32=1,2,3,4". Messages name the problem without the flag, e.g.
// "'x' is not a valid i32" or "4xi32 needs 4 values, got 3".
Result<HostTensor> parseTensorLiteral(std::string_view text);

// Tensors of more elements than this print summarized by default (NumPy's
// threshold; ferry-run --print-max-elements).
inline constexpr uint64_t kDefaultPrintMaxElements = 1000;
// Entries kept at each end of a summarized dimension (NumPy's edgeitems).
inline constexpr int64_t kSummaryEdgeItems = 3;

// "4xi32=[11 22 33 44]". `bytes` must hold the whole tensor. Summarized
// when it has more than `maxElements` elements.
std::string formatTensor(std::span<const int64_t> shape,
                         hal::ElementType elementType,
                         std::span<const uint8_t> bytes,
                         uint64_t maxElements = UINT64_MAX);

// The same text and a newline, written to `out` in chunks of 64 KiB as it
// is formatted (no whole-tensor string, no stream operation per element).
void writeTensorLine(std::ostream &out, std::span<const int64_t> shape,
                     hal::ElementType elementType,
                     std::span<const uint8_t> bytes,
                     uint64_t maxElements = UINT64_MAX);

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_HOST_TENSOR_H_

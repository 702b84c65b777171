// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0),
// so that ferry-run's large inputs and outputs never go through the command
// line.
//
// Supported: little-endian (or byte-order-free) C-order arrays of dtypes
// bool ('|b1', Ferry's i1; each byte 0 or 1), int8 ('|i1' / '<i1'), '<i2',
// '<i4', '<i8', float16 ('<f2'), '<f4', '<f8', and '<u2' for bf16. NumPy has
// no bf16 dtype, so Ferry's convention is a uint16 array holding each bf16's
// bits (the upper half of the f32 it rounds): in NumPy,
//   bits = (f32.view(np.uint32) >> 16).astype(np.uint16)   # truncating
//   f32 = (bits.astype(np.uint32) << 16).view(np.float32)   # exact
// Anything else is a clear error naming the dtype, the byte order or the
// Fortran order.
//
// Ownership/threads: pure functions; file functions touch only their path.
#ifndef FERRY_RUNTIME_TOOLS_NPY_H_
#define FERRY_RUNTIME_TOOLS_NPY_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/tools/host_tensor.h"

namespace ferry::tools {

// The first bytes of every .npy file (read by file_reader.cpp to recognise
// the format, and here to parse it).
inline constexpr uint8_t kNpyMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

Result<HostTensor> parseNpy(std::span<const uint8_t> file);
// Version 1.0 (2.0 if the header would not fit), header padded to 64 bytes.
std::vector<uint8_t> encodeNpy(std::span<const int64_t> shape,
                               hal::ElementType elementType,
                               std::span<const uint8_t> bytes);

// Reads no further than the file's header says (runtime/tools/
// file_reader.h): a file that is not a .npy file, or is shorter or longer
// than its header says, or never ends, is refused naming the path.
Result<HostTensor> readNpyFile(const std::string &path);
Status writeNpyFile(const std::string &path, std::span<const int64_t> shape,
                    hal::ElementType elementType,
                    std::span<const uint8_t> bytes);

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_NPY_H_

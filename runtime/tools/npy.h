// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0),
// so that ferry-run's large inputs and outputs never go through the command
// line.
//
// Supported: little-endian (or byte-order-free) C-order arrays of dtypes
// int8 ('|i1' / '<i1'), '<i2', '<i4', '<i8', '<f4', '<f8'. Anything else is
// a clear error naming the dtype, the byte order or the Fortran order.
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

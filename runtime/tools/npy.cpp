#include "runtime/tools/npy.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>

#include "runtime/hal/buffer.h"

namespace ferry::tools {
namespace {

using hal::ElementType;

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr size_t kNpyMagicBytes = 6;

// The dtype string NumPy writes for each element type.
std::string_view npyDescr(ElementType type) {
  switch (type) {
  case ElementType::kI8:
    return "|i1";
  case ElementType::kI16:
    return "<i2";
  case ElementType::kI32:
    return "<i4";
  case ElementType::kI64:
    return "<i8";
  case ElementType::kF32:
    return "<f4";
  case ElementType::kF64:
    return "<f8";
  }
  return "";
}

Result<ElementType> elementTypeFromDescr(std::string_view descr) {
  if (descr == "|i1" || descr == "<i1" || descr == "i1")
    return ElementType::kI8;
  if (descr == "<i2")
    return ElementType::kI16;
  if (descr == "<i4")
    return ElementType::kI32;
  if (descr == "<i8")
    return ElementType::kI64;
  if (descr == "<f4")
    return ElementType::kF32;
  if (descr == "<f8")
    return ElementType::kF64;
  if (!descr.empty() && descr.front() == '>')
    return invalidArgument("big-endian dtype '", descr,
                           "' is not supported (save it little-endian, e.g. "
                           "with arr.astype(arr.dtype.newbyteorder('<')))");
  return invalidArgument("unsupported dtype '", descr,
                         "' (supported: <i1 <i2 <i4 <i8 <f4 <f8)");
}

// Finds `'key':` in the header dict and returns what follows it.
Result<std::string_view> dictValue(std::string_view header,
                                   std::string_view key) {
  for (char quote : {'\'', '"'}) {
    std::string pattern = strCat(quote, key, quote);
    size_t at = header.find(pattern);
    if (at == std::string_view::npos)
      continue;
    std::string_view rest = header.substr(at + pattern.size());
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos)
      break;
    rest.remove_prefix(colon + 1);
    while (!rest.empty() && rest.front() == ' ')
      rest.remove_prefix(1);
    return rest;
  }
  return invalidArgument("header has no '", key, "' entry");
}

Result<HostTensor> parseNpyImpl(std::span<const uint8_t> file) {
  if (file.size() < kNpyMagicBytes + 2 ||
      std::memcmp(file.data(), kNpyMagic, kNpyMagicBytes) != 0)
    return invalidArgument("not a NumPy .npy file (bad magic)");
  uint8_t major = file[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    if (file.size() < 10)
      return invalidArgument("file is truncated in its header");
    headerLength = size_t(file[8]) | size_t(file[9]) << 8;
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12)
      return invalidArgument("file is truncated in its header");
    headerLength = size_t(file[8]) | size_t(file[9]) << 8 |
                   size_t(file[10]) << 16 | size_t(file[11]) << 24;
    headerStart = 12;
  } else {
    return invalidArgument("unsupported .npy format version ", int(major));
  }
  if (file.size() - headerStart < headerLength)
    return invalidArgument("file is truncated in its header");
  std::string_view header(
      reinterpret_cast<const char *>(file.data()) + headerStart, headerLength);

  FERRY_ASSIGN_OR_RETURN(std::string_view descrText,
                         dictValue(header, "descr"));
  if (descrText.empty() ||
      (descrText.front() != '\'' && descrText.front() != '"'))
    return invalidArgument("unsupported dtype (not a simple type string)");
  char quote = descrText.front();
  size_t close = descrText.find(quote, 1);
  if (close == std::string_view::npos)
    return invalidArgument("malformed header: unterminated dtype string");
  FERRY_ASSIGN_OR_RETURN(ElementType type,
                         elementTypeFromDescr(descrText.substr(1, close - 1)));

  FERRY_ASSIGN_OR_RETURN(std::string_view fortran,
                         dictValue(header, "fortran_order"));
  if (fortran.starts_with("True"))
    return invalidArgument("Fortran-order arrays are not supported (save a "
                           "C-order array, e.g. np.ascontiguousarray)");
  if (!fortran.starts_with("False"))
    return invalidArgument("malformed header: bad fortran_order");

  FERRY_ASSIGN_OR_RETURN(std::string_view shapeText,
                         dictValue(header, "shape"));
  if (shapeText.empty() || shapeText.front() != '(')
    return invalidArgument("malformed header: shape is not a tuple");
  size_t closeParen = shapeText.find(')');
  if (closeParen == std::string_view::npos)
    return invalidArgument("malformed header: unterminated shape");
  std::string_view dims = shapeText.substr(1, closeParen - 1);
  HostTensor tensor;
  tensor.elementType = type;
  while (true) {
    while (!dims.empty() && (dims.front() == ' ' || dims.front() == ','))
      dims.remove_prefix(1);
    if (dims.empty())
      break;
    int64_t dim = 0;
    auto [ptr, ec] =
        std::from_chars(dims.data(), dims.data() + dims.size(), dim);
    if (ec != std::errc() || dim < 0 || ptr == dims.data())
      return invalidArgument("malformed header: bad shape '",
                             shapeText.substr(0, closeParen + 1), "'");
    tensor.shape.push_back(dim);
    if (tensor.shape.size() > hal::kMaxRank)
      return invalidArgument("shape has more than ", hal::kMaxRank,
                             " dimensions");
    dims.remove_prefix(size_t(ptr - dims.data()));
    if (!dims.empty() && dims.front() == 'L') // Python 2 longs
      dims.remove_prefix(1);
  }
  Result<uint64_t> needed = hal::shapeByteLength(tensor.shape, type);
  if (!needed.ok())
    return invalidArgument("shape is too large");
  size_t dataStart = headerStart + headerLength;
  uint64_t have = file.size() - dataStart;
  if (have != *needed)
    return invalidArgument("shape ", tensor.typeString(), " needs ", *needed,
                           " data bytes, file has ", have);
  tensor.bytes.assign(file.begin() + dataStart, file.end());
  return tensor;
}

} // namespace

Result<HostTensor> parseNpy(std::span<const uint8_t> file) {
  return parseNpyImpl(file);
}

std::vector<uint8_t> encodeNpy(std::span<const int64_t> shape, ElementType type,
                               std::span<const uint8_t> bytes) {
  std::string header = strCat("{'descr': '", npyDescr(type),
                              "', 'fortran_order': False, 'shape': (");
  for (size_t i = 0; i < shape.size(); ++i)
    header +=
        strCat(shape[i], shape.size() == 1 || i + 1 < shape.size() ? "," : "");
  header += "), }";
  // Pad with spaces and a newline so the data starts 64-byte aligned.
  bool v2 = header.size() + 11 > 65535;
  size_t prefix = v2 ? 12 : 10;
  size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out(kNpyMagic, kNpyMagic + kNpyMagicBytes);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  size_t length = header.size();
  out.push_back(uint8_t(length));
  out.push_back(uint8_t(length >> 8));
  if (v2) {
    out.push_back(uint8_t(length >> 16));
    out.push_back(uint8_t(length >> 24));
  }
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), bytes.begin(), bytes.end());
  return out;
}

Result<std::vector<uint8_t>> readFileBytes(const std::string &path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return notFound("cannot open '", path, "': ", std::strerror(errno));
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  bool failed = std::ferror(file);
  int error = errno;
  std::fclose(file);
  if (failed)
    return invalidArgument("cannot read '", path, "': ", std::strerror(error));
  return bytes;
}

namespace {

// Writes and flushes `bytes`; on failure, the errno of the first call that
// failed, read right after it (0 if it set none). The stream buffers, so a
// full disk may show at fwrite or only at fflush.
std::optional<int> writeAndFlush(std::FILE *file,
                                 std::span<const uint8_t> bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
    return errno;
  if (std::fflush(file) != 0)
    return errno;
  return std::nullopt;
}

std::string_view describeErrno(int error) {
  return error ? std::strerror(error) : "short write";
}

} // namespace

Status writeFileBytes(const std::string &path, std::span<const uint8_t> bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return invalidArgument("cannot write '", path, "': ", std::strerror(errno));
  std::optional<int> error = writeAndFlush(file, bytes);
  if (std::fclose(file) != 0 && !error)
    error = errno;
  if (!error)
    return okStatus();
  return invalidArgument("cannot write '", path, "': ", describeErrno(*error));
}

Status writeStdout(std::string_view text) {
  std::optional<int> error = writeAndFlush(
      stdout,
      std::span(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  if (!error)
    return okStatus();
  return invalidArgument("cannot write to standard output: ",
                         describeErrno(*error));
}

Result<HostTensor> readNpyFile(const std::string &path) {
  FERRY_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, readFileBytes(path));
  Result<HostTensor> tensor = parseNpy(bytes);
  if (!tensor.ok())
    return tensor.status().withContext(strCat("'", path, "'"));
  return tensor;
}

Status writeNpyFile(const std::string &path, std::span<const int64_t> shape,
                    ElementType type, std::span<const uint8_t> bytes) {
  return writeFileBytes(path, encodeNpy(shape, type, bytes));
}

} // namespace ferry::tools

#include "runtime/tools/npy.h"

#include <charconv>
#include <cstring>
#include <optional>

#include "runtime/hal/buffer.h"
#include "runtime/tools/file_reader.h"

namespace ferry::tools {
namespace {

using hal::ElementType;

constexpr size_t kNpyMagicBytes = sizeof(kNpyMagic);
constexpr size_t kMaxHeaderBytes = size_t(1) << 20;

// The dtype string NumPy writes for each element type.
std::string_view npyDescr(ElementType type) {
  switch (type) {
  case ElementType::kI1:
    return "|b1";
  case ElementType::kF16:
    return "<f2";
  case ElementType::kBF16: // NumPy has no bf16: its bits (see npy.h)
    return "<u2";
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
  if (descr == "|b1" || descr == "<b1" || descr == "b1")
    return ElementType::kI1;
  if (descr == "<f2")
    return ElementType::kF16;
  if (descr == "<u2")
    return ElementType::kBF16;
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
  return invalidArgument(
      "unsupported dtype '", descr,
      "' (supported: |b1 |i1 <i2 <i4 <i8 <f2 <f4 <f8, and <u2 for bf16 bits)");
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

// The magic, the version and the header's length: where the header dict
// ends and the data starts. Needs only the first 12 bytes (10 for version
// 1), not the header itself.
Result<size_t> npyDataStart(std::span<const uint8_t> file) {
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
  // NumPy writes a few hundred bytes for the dtypes read here.
  if (headerLength > kMaxHeaderBytes)
    return invalidArgument("header of ", headerLength,
                           " bytes is larger than a supported array's (at "
                           "most ",
                           kMaxHeaderBytes, ")");
  return headerStart + headerLength;
}

// What the header says: the array's element type and shape, and how many
// data bytes follow it. Needs the whole header.
struct NpyLayout {
  size_t dataStart;
  HostTensor tensor; // shape and element type; no bytes yet
  uint64_t dataBytes;
};

Result<NpyLayout> parseNpyLayout(std::span<const uint8_t> file) {
  FERRY_ASSIGN_OR_RETURN(size_t dataStart, npyDataStart(file));
  if (file.size() < dataStart)
    return invalidArgument("file is truncated in its header");
  size_t headerStart = file[6] == 1 ? 10 : 12;
  std::string_view header(reinterpret_cast<const char *>(file.data()) +
                              headerStart,
                          dataStart - headerStart);

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
  NpyLayout layout;
  layout.dataStart = dataStart;
  layout.tensor.elementType = type;
  std::vector<int64_t> &shape = layout.tensor.shape;
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
    shape.push_back(dim);
    if (shape.size() > hal::kMaxRank)
      return invalidArgument("shape has more than ", hal::kMaxRank,
                             " dimensions");
    dims.remove_prefix(size_t(ptr - dims.data()));
    if (!dims.empty() && dims.front() == 'L') // Python 2 longs
      dims.remove_prefix(1);
  }
  Result<uint64_t> needed = hal::shapeByteLength(shape, type);
  if (!needed.ok())
    return invalidArgument("shape is too large");
  layout.dataBytes = *needed;
  return layout;
}

Result<HostTensor> parseNpyImpl(std::span<const uint8_t> file) {
  FERRY_ASSIGN_OR_RETURN(NpyLayout layout, parseNpyLayout(file));
  uint64_t have = file.size() - layout.dataStart;
  if (have != layout.dataBytes)
    return invalidArgument("shape ", layout.tensor.typeString(), " needs ",
                           layout.dataBytes, " data bytes, file has ", have);
  layout.tensor.bytes.assign(file.begin() + layout.dataStart, file.end());
  if (layout.tensor.elementType == ElementType::kI1)
    for (size_t i = 0; i < layout.tensor.bytes.size(); ++i)
      if (layout.tensor.bytes[i] > 1)
        return invalidArgument("bool element ", i, " is ",
                               int(layout.tensor.bytes[i]),
                               "; a bool is 0 or 1");
  return std::move(layout.tensor);
}

// Reads no further than the header says (file_reader.h): the preamble, then
// the header, then the data it declares.
Result<HostTensor> readNpy(BoundedFileReader &reader) {
  FERRY_RETURN_IF_ERROR(reader.readUpTo(12));
  Result<size_t> dataStart = npyDataStart(reader.bytes());
  if (!dataStart.ok()) {
    FileFormat format = recognizeFileFormat(reader.bytes());
    if (format != FileFormat::kNumPy && format != FileFormat::kUnknown)
      return invalidArgument("not a NumPy .npy file: it is ",
                             describeFileFormat(format));
    return dataStart.status();
  }
  FERRY_RETURN_IF_ERROR(reader.readUpTo(*dataStart));
  FERRY_ASSIGN_OR_RETURN(NpyLayout layout, parseNpyLayout(reader.bytes()));
  uint64_t declared = layout.dataStart + layout.dataBytes;
  std::optional<uint64_t> size = reader.regularFileSize();
  if (size && *size > declared)
    return fileLongerThanDeclared(reader, "NumPy header", declared);
  FERRY_RETURN_IF_ERROR(reader.readUpTo(declared));
  if (reader.bytes().size() == declared) {
    FERRY_ASSIGN_OR_RETURN(bool ends, reader.endsHere());
    if (!ends)
      return fileLongerThanDeclared(reader, "NumPy header", declared);
  }
  return parseNpyImpl(reader.bytes());
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

Result<HostTensor> readNpyFile(const std::string &path) {
  FERRY_ASSIGN_OR_RETURN(BoundedFileReader reader,
                         BoundedFileReader::open(path));
  Result<HostTensor> tensor = readNpy(reader);
  if (!tensor.ok())
    return tensor.status().withContext(strCat("'", path, "'"));
  return tensor;
}

Status writeNpyFile(const std::string &path, std::span<const int64_t> shape,
                    ElementType type, std::span<const uint8_t> bytes) {
  return writeFileBytes(path, encodeNpy(shape, type, bytes));
}

} // namespace ferry::tools

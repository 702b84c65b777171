#include "runtime/tools/host_tensor.h"

#include <charconv>
#include <cstring>
#include <limits>

#include "runtime/hal/buffer.h"

namespace ferry::tools {
namespace {

using hal::ElementType;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

// from_chars reads an optional '-' but no '+'; one '+' is allowed here, and
// only before a digit (so "+-1" and "++1" are not numbers).
template <typename T> bool parseNumber(std::string_view text, T &out) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && (text.front() == '-' || text.front() == '+'))
      return false;
  }
  if (text.empty())
    return false;
  const char *end = text.data() + text.size();
  std::from_chars_result result = std::from_chars(text.data(), end, out);
  return result.ec == std::errc() && result.ptr == end;
}

template <typename T> bool parseInteger(std::string_view text, uint8_t *out) {
  int64_t value;
  if (!parseNumber(text, value) || value < std::numeric_limits<T>::min() ||
      value > std::numeric_limits<T>::max())
    return false;
  T narrow = T(value);
  std::memcpy(out, &narrow, sizeof(T));
  return true;
}

template <typename T> bool parseFloat(std::string_view text, uint8_t *out) {
  T value;
  if (!parseNumber(text, value))
    return false;
  std::memcpy(out, &value, sizeof(T));
  return true;
}

bool parseElement(ElementType type, std::string_view text, uint8_t *out) {
  switch (type) {
  case ElementType::kI8:
    return parseInteger<int8_t>(text, out);
  case ElementType::kI16:
    return parseInteger<int16_t>(text, out);
  case ElementType::kI32:
    return parseInteger<int32_t>(text, out);
  case ElementType::kI64:
    return parseInteger<int64_t>(text, out);
  case ElementType::kF32:
    return parseFloat<float>(text, out);
  case ElementType::kF64:
    return parseFloat<double>(text, out);
  }
  return false;
}

template <typename T> std::string formatNumber(const uint8_t *data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  char buffer[64];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

// Elements of one sub-tensor, bracketed: "[1 2]" or "[[1 2][3 4]]".
void formatBracketed(std::span<const int64_t> shape, ElementType type,
                     const uint8_t *&data, std::string &out);

// The contents without the outer brackets: "1 2" or "[1 2][3 4]".
void formatInner(std::span<const int64_t> shape, ElementType type,
                 const uint8_t *&data, std::string &out) {
  size_t elementSize = hal::elementByteSize(type);
  if (shape.size() == 1) {
    for (int64_t i = 0; i < shape[0]; ++i) {
      if (i)
        out += ' ';
      out += formatElement(type, data);
      data += elementSize;
    }
    return;
  }
  for (int64_t i = 0; i < shape[0]; ++i)
    formatBracketed(shape.subspan(1), type, data, out);
}

void formatBracketed(std::span<const int64_t> shape, ElementType type,
                     const uint8_t *&data, std::string &out) {
  out += '[';
  formatInner(shape, type, data, out);
  out += ']';
}

} // namespace

std::string HostTensor::typeString() const {
  return hal::formatTensorType(shape, elementType);
}

Result<TensorType> parseTensorType(std::string_view text) {
  TensorType type;
  std::string_view rest = text;
  while (true) {
    size_t x = rest.find('x');
    if (x == std::string_view::npos)
      break;
    std::string_view dim = rest.substr(0, x);
    int64_t value;
    if (!parseNumber(dim, value) || value < 0 || dim.front() == '+')
      return invalidArgument("'", dim, "' is not a valid dimension in '", text,
                             "'");
    type.shape.push_back(value);
    rest.remove_prefix(x + 1);
  }
  if (type.shape.size() > hal::kMaxRank)
    return invalidArgument("'", text, "' has rank ", type.shape.size(),
                           "; at most ", hal::kMaxRank, " is supported");
  std::optional<ElementType> elementType = hal::parseElementType(rest);
  if (!elementType)
    return invalidArgument("unknown element type '", rest, "' in '", text,
                           "' (expected i8, i16, i32, i64, f32 or f64)");
  type.elementType = *elementType;
  if (!hal::shapeByteLength(type.shape, type.elementType).ok())
    return invalidArgument("shape '", text, "' is too large");
  return type;
}

Result<HostTensor> parseTensorLiteral(std::string_view text) {
  size_t equals = text.find('=');
  if (equals == std::string_view::npos)
    return invalidArgument("expected SHAPExTYPE=VALUES, e.g. 4xi32=1,2,3,4");
  FERRY_ASSIGN_OR_RETURN(TensorType type,
                         parseTensorType(text.substr(0, equals)));
  HostTensor tensor;
  tensor.shape = std::move(type.shape);
  tensor.elementType = type.elementType;
  uint64_t count = *hal::shapeElementCount(tensor.shape);
  size_t elementSize = hal::elementByteSize(tensor.elementType);

  std::string_view values = text.substr(equals + 1);
  std::vector<std::string_view> parts;
  if (!trim(values).empty()) {
    while (true) {
      size_t comma = values.find(',');
      parts.push_back(trim(values.substr(0, comma)));
      if (comma == std::string_view::npos)
        break;
      values.remove_prefix(comma + 1);
    }
  }
  if (parts.size() != count)
    return invalidArgument(tensor.typeString(), " needs ", count, " value",
                           count == 1 ? "" : "s", ", got ", parts.size());
  tensor.bytes.resize(count * elementSize);
  for (size_t i = 0; i < parts.size(); ++i)
    if (!parseElement(tensor.elementType, parts[i],
                      tensor.bytes.data() + i * elementSize))
      return invalidArgument("'", parts[i], "' is not a valid ",
                             hal::elementTypeName(tensor.elementType));
  return tensor;
}

std::string formatElement(ElementType type, const uint8_t *data) {
  switch (type) {
  case ElementType::kI8:
    return formatNumber<int8_t>(data);
  case ElementType::kI16:
    return formatNumber<int16_t>(data);
  case ElementType::kI32:
    return formatNumber<int32_t>(data);
  case ElementType::kI64:
    return formatNumber<int64_t>(data);
  case ElementType::kF32:
    return formatNumber<float>(data);
  case ElementType::kF64:
    return formatNumber<double>(data);
  }
  return "?";
}

std::string formatTensor(std::span<const int64_t> shape, ElementType type,
                         std::span<const uint8_t> bytes) {
  std::string out = hal::formatTensorType(shape, type);
  out += '=';
  const uint8_t *data = bytes.data();
  if (shape.empty()) {
    out += formatElement(type, data);
    return out;
  }
  std::string body;
  if (shape.size() == 1)
    formatBracketed(shape, type, data, body);
  else
    formatInner(shape, type, data, body);
  // A leading zero dim leaves nothing to bracket; still show it is empty.
  out += body.empty() ? "[]" : body;
  return out;
}

} // namespace ferry::tools

#include "runtime/tools/host_tensor.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <ostream>

#include "runtime/hal/buffer.h"
#include "runtime/hal/float16.h"

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

// A 16-bit float: parsed as a double, then rounded once (float16.h).
bool parseFloat16(std::string_view text, uint16_t (*narrow)(double),
                  uint8_t *out) {
  double value;
  if (!parseNumber(text, value))
    return false;
  uint16_t bits = narrow(value);
  // Like f32's: a finite number too large for the type is not valid.
  bool narrowInf = (bits & 0x7fff) == (narrow(INFINITY) & 0x7fff);
  if (narrowInf && std::isfinite(value))
    return false;
  std::memcpy(out, &bits, sizeof(bits));
  return true;
}

bool parseElement(ElementType type, std::string_view text, uint8_t *out) {
  switch (type) {
  case ElementType::kI1: {
    int64_t value;
    if (!parseNumber(text, value) || (value != 0 && value != 1))
      return false;
    *out = uint8_t(value);
    return true;
  }
  case ElementType::kF16:
    return parseFloat16(text, hal::f16FromDouble, out);
  case ElementType::kBF16:
    return parseFloat16(text, hal::bf16FromDouble, out);
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

// Formatted text, collected in a fixed buffer and handed to `flush` in
// chunks: one write per chunk rather than one stream operation per element.
class TextSink {
public:
  explicit TextSink(const std::function<void(std::string_view)> &flush)
      : flush_(flush) {}
  TextSink(const TextSink &) = delete;
  TextSink &operator=(const TextSink &) = delete;
  ~TextSink() { flush(); }

  // Room for `n` more bytes (n <= kCapacity); commit() what was used.
  char *reserve(size_t n) {
    if (used_ + n > kCapacity)
      flush();
    return buffer_ + used_;
  }
  void commit(char *end) { used_ = size_t(end - buffer_); }
  void put(char c) { *reserve(1) = c, ++used_; }
  void put(std::string_view text) {
    while (!text.empty()) {
      size_t n = std::min(text.size(), kCapacity);
      char *at = reserve(n);
      std::memcpy(at, text.data(), n);
      commit(at + n);
      text.remove_prefix(n);
    }
  }
  void flush() {
    if (used_)
      flush_(std::string_view(buffer_, used_));
    used_ = 0;
  }

private:
  static constexpr size_t kCapacity = size_t(1) << 16;
  const std::function<void(std::string_view)> &flush_;
  size_t used_ = 0;
  char buffer_[kCapacity];
};

// The longest number to_chars writes for any element type (a shortest f64
// round-trip form is at most 24 characters, an i64 20 digits and a sign).
constexpr size_t kMaxElementChars = 32;

// Storage types of the elements C++ has no arithmetic type for, and the
// value each prints as: i1 as 0 or 1, f16 and bf16 as the float they hold
// (exactly; the shortest form that reads back to it).
enum class BoolByte : uint8_t {};
enum class F16Bits : uint16_t {};
enum class BF16Bits : uint16_t {};
template <typename T> T printable(T value) { return value; }
int printable(BoolByte value) { return uint8_t(value) != 0; }
float printable(F16Bits value) { return hal::f16ToFloat(uint16_t(value)); }
float printable(BF16Bits value) { return hal::bf16ToFloat(uint16_t(value)); }

template <typename T> void putNumber(TextSink &sink, const uint8_t *data) {
  T value;
  std::memcpy(&value, data, sizeof(T));
  char *at = sink.reserve(kMaxElementChars);
  sink.commit(std::to_chars(at, at + kMaxElementChars, printable(value)).ptr);
}

// Which indices of a dimension of `size` print: all of them, or (when the
// tensor is summarized and the dimension longer than both edges) the first
// and last kSummaryEdgeItems with an ellipsis between.
struct DimensionRange {
  int64_t head, tailStart, size;
  bool elided() const { return head < tailStart; }
};
DimensionRange rangeOf(int64_t size, bool summarize) {
  if (summarize && size > 2 * kSummaryEdgeItems)
    return {kSummaryEdgeItems, size - kSummaryEdgeItems, size};
  return {size, size, size};
}

// Prints the tensor's elements in the text form of host_tensor.h, with the
// element type known at compile time so the per-element work is to_chars.
template <typename T> class TensorPrinter {
public:
  TensorPrinter(std::span<const int64_t> shape, bool summarize, TextSink &sink)
      : shape_(shape), summarize_(summarize), sink_(sink),
        strides_(shape.size(), 1) {
    for (size_t d = shape.size(); d-- > 1;)
      strides_[d - 1] = strides_[d] * shape[d];
  }

  // "[1 2]" for rank 1, "[1 2][3 4]" for rank 2 (no outer brackets), and so
  // on; "[]" if nothing is left to bracket.
  void print(const uint8_t *data) {
    if (shape_.size() == 1 || (!shape_.empty() && shape_[0] == 0)) {
      bracketed(0, data);
      return;
    }
    inner(0, data);
  }

private:
  void bracketed(size_t d, const uint8_t *data) {
    sink_.put('[');
    inner(d, data);
    sink_.put(']');
  }
  // The contents of dimension `d` without its own brackets.
  void inner(size_t d, const uint8_t *data) {
    DimensionRange range = rangeOf(shape_[d], summarize_);
    if (d + 1 == shape_.size()) {
      row(data, 0, range.head, false);
      if (range.elided()) {
        sink_.put(" ...");
        row(data, range.tailStart, range.size, true);
      }
      return;
    }
    uint64_t stride = uint64_t(strides_[d]) * sizeof(T);
    for (int64_t i = 0; i < range.head; ++i)
      bracketed(d + 1, data + uint64_t(i) * stride);
    if (!range.elided())
      return;
    sink_.put("...");
    for (int64_t i = range.tailStart; i < range.size; ++i)
      bracketed(d + 1, data + uint64_t(i) * stride);
  }
  // Elements [begin, end) of one innermost row, space separated (a space
  // before the first too when `continued`).
  void row(const uint8_t *data, int64_t begin, int64_t end, bool continued) {
    for (int64_t i = begin; i < end; ++i) {
      char *at = sink_.reserve(kMaxElementChars + 1);
      if (i != begin || continued)
        *at++ = ' ';
      T value;
      std::memcpy(&value, data + uint64_t(i) * sizeof(T), sizeof(T));
      sink_.commit(
          std::to_chars(at, at + kMaxElementChars, printable(value)).ptr);
    }
  }

  std::span<const int64_t> shape_;
  bool summarize_;
  TextSink &sink_;
  std::vector<int64_t> strides_; // in elements
};

template <typename T>
void printTensor(std::span<const int64_t> shape, bool summarize,
                 const uint8_t *data, TextSink &sink) {
  if (shape.empty()) {
    putNumber<T>(sink, data);
    return;
  }
  TensorPrinter<T>(shape, summarize, sink).print(data);
}

void printTensor(std::span<const int64_t> shape, ElementType type,
                 std::span<const uint8_t> bytes, uint64_t maxElements,
                 TextSink &sink) {
  sink.put(hal::formatTensorType(shape, type));
  sink.put('=');
  uint64_t count = 1;
  for (int64_t dim : shape)
    count *= uint64_t(dim);
  bool summarize = count > maxElements;
  const uint8_t *data = bytes.data();
  switch (type) {
  case ElementType::kI1:
    return printTensor<BoolByte>(shape, summarize, data, sink);
  case ElementType::kF16:
    return printTensor<F16Bits>(shape, summarize, data, sink);
  case ElementType::kBF16:
    return printTensor<BF16Bits>(shape, summarize, data, sink);
  case ElementType::kI8:
    return printTensor<int8_t>(shape, summarize, data, sink);
  case ElementType::kI16:
    return printTensor<int16_t>(shape, summarize, data, sink);
  case ElementType::kI32:
    return printTensor<int32_t>(shape, summarize, data, sink);
  case ElementType::kI64:
    return printTensor<int64_t>(shape, summarize, data, sink);
  case ElementType::kF32:
    return printTensor<float>(shape, summarize, data, sink);
  case ElementType::kF64:
    return printTensor<double>(shape, summarize, data, sink);
  }
  sink.put('?');
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
                           "' (expected ", hal::kElementTypeList, ")");
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

std::string formatTensor(std::span<const int64_t> shape, ElementType type,
                         std::span<const uint8_t> bytes, uint64_t maxElements) {
  std::string out;
  std::function<void(std::string_view)> append = [&](std::string_view text) {
    out += text;
  };
  {
    auto sink = std::make_unique<TextSink>(append);
    printTensor(shape, type, bytes, maxElements, *sink);
  }
  return out;
}

void writeTensorLine(std::ostream &out, std::span<const int64_t> shape,
                     ElementType type, std::span<const uint8_t> bytes,
                     uint64_t maxElements) {
  std::function<void(std::string_view)> write = [&](std::string_view text) {
    out.write(text.data(), std::streamsize(text.size()));
  };
  auto sink = std::make_unique<TextSink>(write);
  printTensor(shape, type, bytes, maxElements, *sink);
  sink->put('\n');
}

} // namespace ferry::tools

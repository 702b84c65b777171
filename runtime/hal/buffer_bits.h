// Memory type and buffer usage bits: the capabilities a buffer is allocated
// with. Declared once here and shared by the compiler (the spellings of
// hal.memory_type<"..."> / hal.buffer_usage<"..."> and their i32 values) and
// the runtime (allocation and enforcement). Plain C++: no LLVM or MLIR.
#ifndef FERRY_RUNTIME_HAL_BUFFER_BITS_H_
#define FERRY_RUNTIME_HAL_BUFFER_BITS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ferry::hal {

// X(enumerator, spelling, value). Single bits first, then named combinations.
#define FERRY_MEMORY_TYPE_BITS(X)                                              \
  X(kHostVisible, "HostVisible", 1u << 0)                                      \
  X(kHostCoherent, "HostCoherent", 1u << 1)                                    \
  X(kHostCached, "HostCached", 1u << 2)                                        \
  X(kDeviceVisible, "DeviceVisible", 1u << 3)                                  \
  X(kDeviceLocal, "DeviceLocal", 1u << 4)                                      \
  X(kHostLocal, "HostLocal", 1u << 5)

#define FERRY_BUFFER_USAGE_BITS(X)                                             \
  X(kTransferSource, "TransferSource", 1u << 0)                                \
  X(kTransferTarget, "TransferTarget", 1u << 1)                                \
  X(kDispatchStorageRead, "DispatchStorageRead", 1u << 4)                      \
  X(kDispatchStorageWrite, "DispatchStorageWrite", 1u << 5)                    \
  X(kSharingExport, "SharingExport", 1u << 8)                                  \
  X(kSharingImport, "SharingImport", 1u << 9)                                  \
  X(kSharingReplicate, "SharingReplicate", 1u << 10)                           \
  X(kSharingConcurrent, "SharingConcurrent", 1u << 11)                         \
  X(kSharingImmutable, "SharingImmutable", 1u << 12)                           \
  X(kMappingScoped, "MappingScoped", 1u << 16)                                 \
  X(kMappingPersistent, "MappingPersistent", 1u << 17)                         \
  X(kMappingOptional, "MappingOptional", 1u << 18)                             \
  X(kMappingAccessRandom, "MappingAccessRandom", 1u << 19)                     \
  X(kMappingAccessSequentialWrite, "MappingAccessSequentialWrite", 1u << 20)

// Combinations with their own spelling. Printing prefers them when every one
// of their bits is set.
#define FERRY_BUFFER_USAGE_COMBINATIONS(X)                                     \
  X(kTransfer, "Transfer", (1u << 0) | (1u << 1))                              \
  X(kDispatchStorage, "DispatchStorage", (1u << 4) | (1u << 5))                \
  X(kMapping, "Mapping", (1u << 16) | (1u << 19))

enum MemoryTypeBits : uint32_t {
  kMemoryTypeNone = 0,
#define FERRY_X(name, spelling, value) name = value,
  FERRY_MEMORY_TYPE_BITS(FERRY_X)
#undef FERRY_X
};

enum BufferUsageBits : uint32_t {
  kBufferUsageNone = 0,
#define FERRY_X(name, spelling, value) name = value,
  FERRY_BUFFER_USAGE_BITS(FERRY_X) FERRY_BUFFER_USAGE_COMBINATIONS(FERRY_X)
#undef FERRY_X
};

namespace detail {
struct BitName {
  std::string_view name;
  uint32_t value;
};
#define FERRY_X(name, spelling, value) BitName{spelling, value},
inline constexpr BitName kMemoryTypeNames[] = {FERRY_MEMORY_TYPE_BITS(FERRY_X)};
// Combinations first so that printing picks the shortest spelling.
inline constexpr BitName kBufferUsageNames[] = {
    FERRY_BUFFER_USAGE_COMBINATIONS(FERRY_X) FERRY_BUFFER_USAGE_BITS(FERRY_X)};
#undef FERRY_X

template <size_t N>
std::string formatBits(uint32_t bits, const BitName (&names)[N]) {
  std::string out;
  uint32_t remaining = bits;
  for (const BitName &entry : names) {
    if ((remaining & entry.value) != entry.value || entry.value == 0)
      continue;
    if (!out.empty())
      out += '|';
    out += entry.name;
    remaining &= ~entry.value;
  }
  if (remaining != 0) {
    if (!out.empty())
      out += '|';
    out += "0x";
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (uint32_t v = remaining; v; v >>= 4)
      hex.insert(hex.begin(), kHex[v & 0xf]);
    out += hex;
  }
  return out.empty() ? "None" : out;
}

template <size_t N>
std::optional<uint32_t> parseBits(std::string_view text,
                                  const BitName (&names)[N]) {
  if (text == "None")
    return 0u;
  uint32_t bits = 0;
  while (!text.empty()) {
    size_t bar = text.find('|');
    std::string_view part = text.substr(0, bar);
    bool found = false;
    for (const BitName &entry : names) {
      if (entry.name == part) {
        bits |= entry.value;
        found = true;
        break;
      }
    }
    if (!found)
      return std::nullopt;
    if (bar == std::string_view::npos)
      break;
    text.remove_prefix(bar + 1);
    if (text.empty())
      return std::nullopt; // trailing '|'
  }
  return bits;
}
} // namespace detail

// "HostVisible|DeviceLocal"; "None" for 0; unknown bits as a hex remainder.
inline std::string formatMemoryType(uint32_t bits) {
  return detail::formatBits(bits, detail::kMemoryTypeNames);
}
inline std::string formatBufferUsage(uint32_t bits) {
  return detail::formatBits(bits, detail::kBufferUsageNames);
}

// Parses '|'-separated bit names; nullopt names an unknown or empty part.
inline std::optional<uint32_t> parseMemoryType(std::string_view text) {
  return detail::parseBits(text, detail::kMemoryTypeNames);
}
inline std::optional<uint32_t> parseBufferUsage(std::string_view text) {
  return detail::parseBits(text, detail::kBufferUsageNames);
}

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_BUFFER_BITS_H_

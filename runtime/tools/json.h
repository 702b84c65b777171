// The one JSON helper ferry-run's writers share (--stats and --trace).
#ifndef FERRY_RUNTIME_TOOLS_JSON_H_
#define FERRY_RUNTIME_TOOLS_JSON_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace ferry::tools {

// `text` as a quoted JSON string, with quotes, backslashes and control
// characters escaped.
inline std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (uint8_t(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[uint8_t(c) >> 4];
      out += kHex[uint8_t(c) & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_JSON_H_

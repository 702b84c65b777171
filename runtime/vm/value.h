// Value and Ref: what VM registers, function arguments and results hold.
//
// A Value is either an i64 or a Ref. A Ref is a reference-counted runtime
// object (device, buffer, buffer view, fence) or null; holding a Ref keeps the
// object alive, which is how the VM and its callers share buffers without
// deciding who frees them (explicit deallocation is a queue operation, see
// runtime/hal/device.h).
//
// Ownership/threads: plain values holding shared_ptrs; copies share the
// object. Distinct Values may be used from distinct threads.
#ifndef FERRY_RUNTIME_VM_VALUE_H_
#define FERRY_RUNTIME_VM_VALUE_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <variant>

#include "runtime/hal/buffer.h"
#include "runtime/hal/device.h"
#include "runtime/hal/fence.h"

namespace ferry::vm {

using Ref =
    std::variant<std::monostate, std::shared_ptr<hal::Device>,
                 std::shared_ptr<hal::Buffer>, std::shared_ptr<hal::BufferView>,
                 std::shared_ptr<hal::Fence>>;

// "null", "device", "buffer", "buffer_view" or "fence".
std::string_view refTypeName(const Ref &ref);

template <typename T> std::string_view refTypeNameOf();
template <> inline std::string_view refTypeNameOf<hal::Device>() {
  return "device";
}
template <> inline std::string_view refTypeNameOf<hal::Buffer>() {
  return "buffer";
}
template <> inline std::string_view refTypeNameOf<hal::BufferView>() {
  return "buffer_view";
}
template <> inline std::string_view refTypeNameOf<hal::Fence>() {
  return "fence";
}

class Value {
public:
  Value() : storage_(int64_t(0)) {}
  Value(int64_t value) : storage_(value) {}
  Value(Ref ref) : storage_(std::move(ref)) {}
  template <typename T>
  Value(std::shared_ptr<T> object) : storage_(Ref(std::move(object))) {}

  bool isI64() const { return std::holds_alternative<int64_t>(storage_); }
  bool isRef() const { return std::holds_alternative<Ref>(storage_); }
  int64_t i64() const { return isI64() ? std::get<int64_t>(storage_) : 0; }
  const Ref &ref() const {
    static const Ref kNull;
    return isRef() ? std::get<Ref>(storage_) : kNull;
  }
  // The referenced object if it is a T, else null.
  template <typename T> std::shared_ptr<T> refAs() const {
    const auto *object = std::get_if<std::shared_ptr<T>>(&ref());
    return object ? *object : nullptr;
  }

private:
  std::variant<int64_t, Ref> storage_;
};

} // namespace ferry::vm

#endif // FERRY_RUNTIME_VM_VALUE_H_

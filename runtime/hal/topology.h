// Runtime topology: what each device's memory is and what the links between
// devices can do.
//
// Every driver reports DeviceCapabilities for its devices. A DeviceGroup
// takes a set of devices, derives the directional link table from those
// reports (no device names or driver names are special-cased) and hands each
// device the resulting Topology, so that queue operations can check whether
// they may touch a peer's buffer and compiled programs can ask through
// Device::query("hal.device.link", "<peer>:<property>") (device.h).
//
// Link rules, from device A to device B:
//   transparent_access  A and B report the same non-empty address space (A
//                       can read and write B's memory directly);
//   unified_memory      transparent_access and both report unified memory;
//   import types        handle types B can export and A can import.
// A device's link to itself has all of these.
//
// Ownership/threads: Topology is immutable once built and shared by
// std::shared_ptr; DeviceGroup is held by std::shared_ptr and is read-only
// after create(). Both are safe to use from any thread.
#ifndef FERRY_RUNTIME_HAL_TOPOLOGY_H_
#define FERRY_RUNTIME_HAL_TOPOLOGY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace ferry::hal {

class Allocator;
class Device;

// What a driver reports about one of its devices.
struct DeviceCapabilities {
  // Devices reporting the same non-empty address space can access each
  // other's memory directly ("host" for every local CPU device).
  std::string addressSpace;
  bool hostVisible = false;   // its default memory is mappable by the host
  bool hostCoherent = false;  // ... without flush / invalidate
  bool unifiedMemory = false; // it shares the host's address space
  uint32_t memoryTypes = 0;   // MemoryTypeBits of its default heap
  uint32_t importTypes = 0;   // ExternalBufferType masks
  uint32_t exportTypes = 0;
  uint32_t concurrency = 1; // operations it may run at once
  uint64_t maxAllocationBytes = 0;
};

struct LinkCapabilities {
  bool transparentAccess = false;
  bool unifiedMemory = false;
  uint32_t importTypes = 0; // ExternalBufferType mask
};

class Topology {
public:
  struct Node {
    std::string name;
    const Allocator *allocator; // identity only; never dereferenced
    DeviceCapabilities capabilities;
    // The device itself (weakly: devices hold the topology), for work one
    // device needs from another's queue (transfers, buffer_import.h).
    std::weak_ptr<Device> device = {};
  };
  static std::shared_ptr<const Topology> build(std::vector<Node> nodes);

  size_t size() const { return nodes_.size(); }
  const Node &node(size_t index) const { return nodes_[index]; }
  std::optional<size_t> indexOf(std::string_view name) const;
  // The device whose allocator made a buffer (Buffer::allocator()).
  std::optional<size_t> indexOfAllocator(const Allocator *allocator) const;
  const LinkCapabilities &link(size_t from, size_t to) const {
    return links_[from * nodes_.size() + to];
  }
  // Derives one link from two reports (the rules above).
  static LinkCapabilities deriveLink(const DeviceCapabilities &from,
                                     const DeviceCapabilities &to, bool self);

private:
  std::vector<Node> nodes_;
  std::vector<LinkCapabilities> links_; // row-major [from][to]
};

class DeviceGroup {
public:
  // Builds the topology of `devices` and attaches it to each. Fails on a
  // null device or two devices with the same name.
  static Result<std::shared_ptr<DeviceGroup>>
  create(std::vector<std::shared_ptr<Device>> devices);

  const std::vector<std::shared_ptr<Device>> &devices() const {
    return devices_;
  }
  std::shared_ptr<Device> device(std::string_view name) const;
  const std::shared_ptr<const Topology> &topology() const { return topology_; }

private:
  DeviceGroup() = default;
  std::vector<std::shared_ptr<Device>> devices_;
  std::shared_ptr<const Topology> topology_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_TOPOLOGY_H_

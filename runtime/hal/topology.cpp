#include "runtime/hal/topology.h"

#include <set>

#include "runtime/hal/device.h"

namespace ferry::hal {

LinkCapabilities Topology::deriveLink(const DeviceCapabilities &from,
                                      const DeviceCapabilities &to, bool self) {
  LinkCapabilities link;
  link.transparentAccess = self || (!from.addressSpace.empty() &&
                                    from.addressSpace == to.addressSpace);
  link.unifiedMemory = self || (link.transparentAccess && from.unifiedMemory &&
                                to.unifiedMemory);
  link.importTypes = from.importTypes & to.exportTypes;
  return link;
}

std::shared_ptr<const Topology> Topology::build(std::vector<Node> nodes) {
  auto topology = std::shared_ptr<Topology>(new Topology());
  size_t n = nodes.size();
  topology->links_.resize(n * n);
  for (size_t from = 0; from < n; ++from)
    for (size_t to = 0; to < n; ++to)
      topology->links_[from * n + to] = deriveLink(
          nodes[from].capabilities, nodes[to].capabilities, from == to);
  topology->nodes_ = std::move(nodes);
  return topology;
}

std::optional<size_t> Topology::indexOf(std::string_view name) const {
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].name == name)
      return i;
  return std::nullopt;
}

std::optional<size_t>
Topology::indexOfAllocator(const Allocator *allocator) const {
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].allocator == allocator)
      return i;
  return std::nullopt;
}

Result<std::shared_ptr<DeviceGroup>>
DeviceGroup::create(std::vector<std::shared_ptr<Device>> devices) {
  std::set<std::string, std::less<>> names;
  std::vector<Topology::Node> nodes;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!devices[i])
      return invalidArgument("device group: device ", i, " is null");
    if (!names.insert(devices[i]->name()).second)
      return invalidArgument("device group: two devices are named '",
                             devices[i]->name(), "'");
    nodes.push_back({devices[i]->name(), &devices[i]->allocator(),
                     devices[i]->capabilities(), devices[i]});
  }
  auto group = std::shared_ptr<DeviceGroup>(new DeviceGroup());
  group->topology_ = Topology::build(std::move(nodes));
  for (const auto &device : devices)
    device->attachTopology(group->topology_);
  group->devices_ = std::move(devices);
  return group;
}

std::shared_ptr<Device> DeviceGroup::device(std::string_view name) const {
  for (const auto &device : devices_)
    if (device->name() == name)
      return device;
  return nullptr;
}

} // namespace ferry::hal

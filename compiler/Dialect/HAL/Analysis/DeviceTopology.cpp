#include "compiler/Dialect/HAL/Analysis/DeviceTopology.h"

#include "runtime/drivers/builtin_backends.h"
#include "runtime/hal/buffer_bits.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace ferry::hal {

Capability allOf(ArrayRef<Capability> values) {
  if (llvm::is_contained(values, Capability::No))
    return Capability::No;
  if (llvm::is_contained(values, Capability::Runtime))
    return Capability::Runtime;
  return Capability::Yes;
}

Capability anyOf(ArrayRef<Capability> values) {
  if (llvm::is_contained(values, Capability::Yes))
    return Capability::Yes;
  if (llvm::is_contained(values, Capability::Runtime))
    return Capability::Runtime;
  return Capability::No;
}

namespace {

// A target property or link capability as written: a bool or #hal.runtime.
Capability toCapability(Attribute value) {
  if (auto flag = dyn_cast<BoolAttr>(value))
    return flag.getValue() ? Capability::Yes : Capability::No;
  return Capability::Runtime;
}

// A handle type list as written; nullopt for #hal.runtime.
std::optional<SmallVector<std::string>> toHandleTypes(Attribute value) {
  auto array = dyn_cast<ArrayAttr>(value);
  if (!array)
    return std::nullopt;
  SmallVector<std::string> types;
  for (Attribute element : array)
    types.push_back(cast<StringAttr>(element).getValue().str());
  return types;
}

// What a device target declares, with its driver's defaults for what it
// omits. Only the local (CPU) driver has defaults: its memory is host memory.
struct TargetCapabilities {
  Capability hostVisibleMemory = Capability::Runtime;
  Capability unifiedMemory = Capability::Runtime;
  Capability hostMemoryAccess = Capability::Runtime;
  std::optional<SmallVector<std::string>> exportHandleTypes;
  std::optional<SmallVector<std::string>> importHandleTypes;
};

TargetCapabilities getTargetCapabilities(DeviceTargetAttr target) {
  TargetCapabilities caps;
  bool local = target.getDriver() == StringRef(drivers::kLocalBackendName);
  DictionaryAttr properties = target.getProperties();
  auto capability = [&](StringRef name, Capability localDefault) -> Capability {
    if (Attribute value = properties.get(name))
      return toCapability(value);
    return local ? localDefault : Capability::Runtime;
  };
  auto handleTypes =
      [&](StringRef name) -> std::optional<SmallVector<std::string>> {
    if (Attribute value = properties.get(name))
      return toHandleTypes(value);
    if (!local)
      return std::nullopt;
    SmallVector<std::string> all;
    for (StringRef type : kHandleTypes)
      all.push_back(type.str());
    return all;
  };
  caps.hostVisibleMemory = capability("host_visible_memory", Capability::Yes);
  // A local device's memory is host memory exactly when the host sees it.
  caps.unifiedMemory = capability("unified_memory", caps.hostVisibleMemory);
  caps.hostMemoryAccess = capability("host_memory_access", Capability::Yes);
  caps.exportHandleTypes = handleTypes("export_handle_types");
  caps.importHandleTypes = handleTypes("import_handle_types");
  return caps;
}

// The export/import path given what `from` imports and `to` exports.
void setImportPath(LinkCapabilities &link,
                   const std::optional<SmallVector<std::string>> &imports,
                   const std::optional<SmallVector<std::string>> &exports) {
  link.runtimeHandleTypes.clear();
  if (imports && exports) {
    bool common = llvm::any_of(*imports, [&](const std::string &type) {
      return llvm::is_contained(*exports, type);
    });
    link.importPath = common ? Capability::Yes : Capability::No;
    return;
  }
  // Ask about the types the known side lists, or every type.
  const std::optional<SmallVector<std::string>> &known =
      imports ? imports : exports;
  if (known && known->empty()) {
    link.importPath = Capability::No;
    return;
  }
  link.importPath = Capability::Runtime;
  if (known) {
    link.runtimeHandleTypes = *known;
  } else {
    for (StringRef type : kHandleTypes)
      link.runtimeHandleTypes.push_back(type.str());
  }
}

// The default link `from -> to` from the two targets: `from` reaches `to`'s
// memory when `to`'s memory is host-visible and `from` can access host
// memory; unified when both are; an import path when `from` imports a
// handle type `to` exports.
LinkCapabilities defaultLink(const TargetCapabilities &from,
                             const TargetCapabilities &to) {
  LinkCapabilities link;
  link.transparentAccess = allOf({from.hostMemoryAccess, to.hostVisibleMemory});
  link.unifiedMemory = allOf({from.unifiedMemory, to.unifiedMemory});
  setImportPath(link, from.importHandleTypes, to.exportHandleTypes);
  return link;
}

// A user-written link: what it omits it cannot do.
// A link as the user wrote it. What the user leaves out is unknown, not
// absent: it is asked of the devices at run time (like #hal.runtime).
LinkCapabilities userLink(DeviceLinkAttr attr) {
  LinkCapabilities link;
  link.userWritten = true;
  link.transparentAccess = Capability::Runtime;
  link.unifiedMemory = Capability::Runtime;
  DictionaryAttr properties = attr.getProperties();
  if (Attribute value = properties.get("transparent_access"))
    link.transparentAccess = toCapability(value);
  if (Attribute value = properties.get("unified_memory"))
    link.unifiedMemory = toCapability(value);
  std::optional<SmallVector<std::string>> imports, exports;
  if (Attribute value = properties.get("import_handle_types"))
    imports = toHandleTypes(value);
  if (Attribute value = properties.get("export_handle_types"))
    exports = toHandleTypes(value);
  setImportPath(link, imports, exports);
  return link;
}

} // namespace

FailureOr<DeviceTopology> DeviceTopology::build(ModuleOp module) {
  if (failed(stream::verifyAffinityDevices(module)))
    return failure();
  DeviceTopology topology;
  SmallVector<std::pair<StringRef, TargetCapabilities>> targets;
  for (auto device : module.getOps<DeviceGlobalOp>()) {
    targets.push_back(
        {device.getSymName(), getTargetCapabilities(device.getTarget())});
    topology.devices.push_back(device.getSymName());
  }
  for (auto &[from, fromCaps] : targets)
    for (auto &[to, toCaps] : targets)
      if (from != to)
        topology.links[from][to] = defaultLink(fromCaps, toCaps);

  auto user =
      module->getAttrOfType<DeviceTopologyAttr>(stream::kTopologyAttrName);
  if (!user) {
    if (Attribute other = module->getAttr(stream::kTopologyAttrName))
      return module.emitError()
             << "'" << stream::kTopologyAttrName
             << "' must be a #hal.device.topology, got " << other;
    return topology;
  }
  if (failed(user.verifyDevices(module)))
    return failure();
  topology.userTopology = true;
  for (DeviceLinkAttr link : user.getLinks())
    topology.links[link.getSource().getValue()][link.getTarget().getValue()] =
        userLink(link);
  return topology;
}

const LinkCapabilities &DeviceTopology::link(StringRef from,
                                             StringRef to) const {
  auto outer = links.find(from);
  assert(outer != links.end() && "unknown device");
  auto inner = outer->second.find(to);
  assert(inner != outer->second.end() && "unknown device");
  return inner->second;
}

StringRef stringifySharingRule(SharingRule rule) {
  switch (rule) {
  case SharingRule::Lifetime:
    return "lifetime";
  case SharingRule::SameDevice:
    return "same device";
  case SharingRule::Transparent:
    return "transparent access";
  case SharingRule::Unified:
    return "unified memory";
  case SharingRule::ExportImport:
    return "export/import";
  case SharingRule::Transfer:
    return "transfer";
  case SharingRule::Runtime:
    return "run-time query";
  }
  return "unknown";
}

std::pair<uint32_t, uint32_t> getLifetimeBits(Lifetime lifetime) {
  switch (lifetime) {
  case Lifetime::External: // handed to the host, which reads it
    return {kDeviceLocal | kHostVisible,
            kTransfer | kDispatchStorage | kMapping};
  case Lifetime::Staging: // host memory the device reads and writes, with
                          // no flushes: coherent, and usable by dispatches
    return {kHostLocal | kHostVisible | kHostCoherent | kDeviceVisible,
            kTransfer | kDispatchStorage | kMapping};
  case Lifetime::Transient:
  case Lifetime::Variable:
    return {kDeviceLocal, kTransfer | kDispatchStorage};
  case Lifetime::Constant:
    return {kDeviceLocal, kTransfer | kDispatchStorage | kSharingImmutable};
  }
  return {kDeviceLocal, kTransfer | kDispatchStorage};
}

namespace {

std::string formatDevices(ArrayRef<StringRef> devices) {
  std::string out;
  for (StringRef device : devices)
    out += (out.empty() ? "@" : ", @") + device.str();
  return out;
}

// What every other device can do with buffers allocated on `allocator`.
struct CandidateCapabilities {
  Capability transparent, unified, importPath, any;
};

CandidateCapabilities evaluateCandidate(const DeviceTopology &topology,
                                        ArrayRef<StringRef> devices,
                                        StringRef allocator) {
  SmallVector<Capability> transparent, unified, importPath;
  for (StringRef user : devices) {
    if (user == allocator)
      continue;
    const LinkCapabilities &link = topology.link(user, allocator);
    transparent.push_back(link.transparentAccess);
    unified.push_back(link.unifiedMemory);
    importPath.push_back(link.importPath);
  }
  CandidateCapabilities caps;
  caps.transparent = allOf(transparent);
  caps.unified = allOf(unified);
  caps.importPath = allOf(importPath);
  caps.any = anyOf({caps.transparent, caps.unified, caps.importPath});
  return caps;
}

bool cannotUse(const LinkCapabilities &link) {
  return link.transparentAccess == Capability::No &&
         link.unifiedMemory == Capability::No &&
         link.importPath == Capability::No;
}

// Why no device can allocate for all: names a device that cannot use the
// allocating device's memory, and the missing capabilities.
std::string describeNoSharing(const DeviceTopology &topology,
                              ArrayRef<StringRef> devices, StringRef owner) {
  for (StringRef user : devices)
    if (user != owner && cannotUse(topology.link(user, owner)))
      return llvm::formatv("the link @{0} -> @{1} has no transparent_access, "
                           "no unified_memory and no export/import handle "
                           "type in common",
                           user, owner)
          .str();
  return "every allocating device leaves one of the others without a way to "
         "use its memory";
}

// Plans the allocation used by `devices` (distinct, from `affinityCount`
// affinities). `leadDevice` (may be empty) is the --lead-allocation-device
// choice. Where the topology rules out every way for the devices to share
// the buffer, plans a transfer.
AllocationPlan planAllocation(const DeviceTopology &topology,
                              ArrayRef<StringRef> devices, size_t affinityCount,
                              Lifetime lifetime, StringRef leadDevice) {
  AllocationPlan plan;
  plan.devices.assign(devices.begin(), devices.end());
  std::tie(plan.memoryTypes, plan.bufferUsage) = getLifetimeBits(lifetime);
  std::string lifetimeName = stringifyLifetime(lifetime).str();
  if (devices.empty()) {
    plan.reason =
        "no device affinity: bits of a " + lifetimeName + " allocation alone";
    return plan;
  }
  if (devices.size() == 1) {
    plan.allocationDevice = devices.front().str();
    if (affinityCount > 1) {
      plan.rule = SharingRule::SameDevice;
      plan.reason = std::to_string(affinityCount) + " affinities all name @" +
                    devices.front().str() + ": one device, no sharing bits";
      return plan;
    }
    plan.reason = "used on @" + devices.front().str() + " only: bits of a " +
                  lifetimeName + " allocation alone";
    return plan;
  }

  SmallVector<StringRef> candidates;
  bool lead = !leadDevice.empty() && llvm::is_contained(devices, leadDevice);
  if (lead)
    candidates.push_back(leadDevice);
  else
    candidates.assign(devices.begin(), devices.end());

  SmallVector<CandidateCapabilities> caps;
  for (StringRef candidate : candidates)
    caps.push_back(evaluateCandidate(topology, devices, candidate));

  // Static rules, in order of preference.
  auto pick = [&](Capability CandidateCapabilities::*field)
      -> std::optional<StringRef> {
    for (auto [candidate, cap] : llvm::zip_equal(candidates, caps))
      if (cap.*field == Capability::Yes)
        return candidate;
    return std::nullopt;
  };
  std::string others = formatDevices(devices);
  std::string leadNote = lead ? " (--lead-allocation-device)" : "";
  if (std::optional<StringRef> owner =
          pick(&CandidateCapabilities::transparent)) {
    plan.rule = SharingRule::Transparent;
    plan.allocationDevice = owner->str();
    plan.memoryTypes |= kHostVisible;
    plan.bufferUsage |= kMapping | kMappingPersistent;
    plan.reason = "shared by " + others + "; every other device accesses @" +
                  owner->str() + "'s memory transparently, so it allocates" +
                  leadNote + " host-visible memory they map persistently";
    return plan;
  }
  if (std::optional<StringRef> owner = pick(&CandidateCapabilities::unified)) {
    plan.rule = SharingRule::Unified;
    plan.allocationDevice = owner->str();
    plan.memoryTypes |= kHostVisible | kHostCoherent;
    plan.bufferUsage |= kMapping | kMappingPersistent;
    plan.reason = "shared by " + others +
                  "; they share one address space (unified memory), so @" +
                  owner->str() + " allocates" + leadNote +
                  " host-visible, host-coherent memory every device maps "
                  "persistently";
    return plan;
  }
  if (std::optional<StringRef> owner =
          pick(&CandidateCapabilities::importPath)) {
    plan.rule = SharingRule::ExportImport;
    plan.allocationDevice = owner->str();
    plan.bufferUsage |= kSharingExport;
    plan.reason = "shared by " + others + "; @" + owner->str() + " allocates" +
                  leadNote +
                  " and exports the buffer, the others import it through a "
                  "common handle type";
    return plan;
  }
  if (llvm::all_of(caps, [](const CandidateCapabilities &cap) {
        return cap.any == Capability::No;
      })) {
    // No sharing at all: the first candidate allocates, the others use
    // copies (hal.device.import_buffer becomes a transfer at run time).
    // SharingExport lets the import take an export/import path where the
    // running devices turn out to have one after all.
    plan.rule = SharingRule::Transfer;
    plan.allocationDevice = candidates.front().str();
    plan.bufferUsage |= kSharingExport;
    plan.reason = "shared by " + others + ", but no device can use memory " +
                  "all the others allocate (" +
                  describeNoSharing(topology, devices, candidates.front()) +
                  "): @" + candidates.front().str() + " allocates" + leadNote +
                  " and the others use the buffer through transfers (a copy "
                  "in before each use, written back after a write; "
                  "SharingExport in case the running devices can export it)";
    return plan;
  }
  plan.rule = SharingRule::Runtime;
  if (lead)
    plan.allocationDevice = leadDevice.str();
  plan.reason = "shared by " + others +
                "; the topology leaves their links to run time, so device "
                "queries decide the bits" +
                (lead ? " (allocating on @" + leadDevice.str() + leadNote + ")"
                      : std::string(" and the allocating device"));
  return plan;
}

} // namespace

FailureOr<AllocationPlanner> AllocationPlanner::build(ModuleOp module,
                                                      StringRef leadDevice) {
  FailureOr<DeviceTopology> topology = DeviceTopology::build(module);
  if (failed(topology))
    return failure();
  if (!leadDevice.empty() &&
      !llvm::is_contained(topology->deviceSymbols(), leadDevice))
    return module.emitError() << "lead allocation device '" << leadDevice
                              << "' is not a hal.device.global of the module";
  AllocationPlanner planner;
  planner.deviceTopology = std::move(*topology);
  planner.leadDevice = leadDevice.str();
  return planner;
}

FailureOr<AllocationPlan>
AllocationPlanner::plan(AllocatorResolveMemoryPropertiesOp op) const {
  SmallVector<StringRef> devices;
  for (FlatSymbolRefAttr symbol : op.getDeviceSymbols())
    devices.push_back(symbol.getValue());
  return planAllocation(deviceTopology, devices, op.getAffinityCount(),
                        op.getLifetime(), leadDevice);
}

} // namespace ferry::hal

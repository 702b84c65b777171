// DeviceTopology: what each program device can do with every other device's
// memory, from a user-written `stream.topology` and, link by link where the
// user wrote none, from the device targets' declared properties.
//
// AllocationPlanner applies the sharing rules of
// --hal-resolve-topology-queries (see compiler/Dialect/HAL/Transforms/
// Passes.td) to one allocation: which device allocates it, which bits it
// needs and why, or that only the running devices can tell. It only reads
// the IR, so the resolve pass and the explain pass share one answer.
#ifndef FERRY_COMPILER_DIALECT_HAL_ANALYSIS_DEVICETOPOLOGY_H_
#define FERRY_COMPILER_DIALECT_HAL_ANALYSIS_DEVICETOPOLOGY_H_

#include "compiler/Dialect/HAL/IR/HALDialect.h"

#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>

namespace ferry::hal {

// A capability known at compile time, or only at run time.
enum class Capability { No, Yes, Runtime };

// AND / OR over capabilities: a known No (Yes) decides, else Runtime wins.
Capability allOf(llvm::ArrayRef<Capability> values);
Capability anyOf(llvm::ArrayRef<Capability> values);

// What `from` can do with buffers allocated on `to`.
struct LinkCapabilities {
  Capability transparentAccess = Capability::No;
  Capability unifiedMemory = Capability::No;
  // An export/import path: `to` exports a handle type `from` imports.
  Capability importPath = Capability::No;
  // Handle types to ask the runtime about when importPath is Runtime.
  llvm::SmallVector<std::string> runtimeHandleTypes;
  bool userWritten = false;
};

// Handle type names shared with the runtime's "<peer>:import.<type>" keys.
inline constexpr llvm::StringLiteral kHandleTypes[] = {"opaque_fd",
                                                       "host_allocation"};

class DeviceTopology {
public:
  // Builds the topology of `module`'s hal.device.global ops. Fails (with an
  // error) on a link or a `stream.affinity` naming a device the module
  // lacks, so link() is only ever asked about declared devices.
  static mlir::FailureOr<DeviceTopology> build(mlir::ModuleOp module);

  // The link `from -> to`; both must be devices of the module.
  const LinkCapabilities &link(llvm::StringRef from, llvm::StringRef to) const;
  bool hasUserTopology() const { return userTopology; }
  // The module's devices, in declaration order.
  llvm::ArrayRef<llvm::StringRef> deviceSymbols() const { return devices; }

private:
  llvm::SmallVector<llvm::StringRef> devices;
  llvm::StringMap<llvm::StringMap<LinkCapabilities>> links;
  bool userTopology = false;
};

// The sharing rule that chose an allocation's bits.
enum class SharingRule {
  Lifetime,     // no affinity, or a single device
  SameDevice,   // several affinities, all naming one device
  Transparent,  // every other device accesses the allocator's memory
  Unified,      // the devices share one address space
  ExportImport, // the allocation is exported to the other devices
  Transfer,     // no way to share: the others use copies (transfers)
  Runtime,      // only the running devices can tell
};
llvm::StringRef stringifySharingRule(SharingRule rule);

struct AllocationPlan {
  SharingRule rule = SharingRule::Lifetime;
  // Distinct devices using the allocation, in first-use order.
  llvm::SmallVector<llvm::StringRef> devices;
  // The allocating device when known at compile time.
  std::optional<std::string> allocationDevice;
  // Static bits; for Runtime, the lifetime's bits the run-time logic adds to.
  uint32_t memoryTypes = 0;
  uint32_t bufferUsage = 0;
  // One sentence saying why (for --hal-explain-memory-properties).
  std::string reason;
};

// The bits every allocation of `lifetime` gets, whatever shares it.
std::pair<uint32_t, uint32_t> getLifetimeBits(Lifetime lifetime);

// The topology of a module and the --lead-allocation-device choice, checked
// once: what the resolve and the explain passes plan every allocation with.
class AllocationPlanner {
public:
  // Builds `module`'s topology (see DeviceTopology::build) and checks that
  // `leadDevice` (empty: none) names one of its hal.device.globals. Fails
  // with an error on the module otherwise.
  static mlir::FailureOr<AllocationPlanner> build(mlir::ModuleOp module,
                                                  llvm::StringRef leadDevice);

  const DeviceTopology &topology() const { return deviceTopology; }

  // Plans the allocation `op` asks about. Where the topology rules out every
  // way for its devices to share the buffer, one of them allocates it and
  // the others use it through transfers (SharingRule::Transfer). Fails with
  // an error on `op` only on a malformed request.
  mlir::FailureOr<AllocationPlan>
  plan(AllocatorResolveMemoryPropertiesOp op) const;

private:
  DeviceTopology deviceTopology;
  std::string leadDevice;
};

} // namespace ferry::hal

#endif // FERRY_COMPILER_DIALECT_HAL_ANALYSIS_DEVICETOPOLOGY_H_

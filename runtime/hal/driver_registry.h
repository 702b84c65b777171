// DriverRegistry: creates devices by driver name ("local-sync").
//
// Tools build one registry, register the drivers they link
// (runtime/drivers/builtin_drivers.h registers every built-in one) and ask it
// for a device per device a module names. An explicit object rather than a
// global so that tests and embedders choose exactly which drivers exist.
//
// Ownership/threads: a plain value; registration and creation are guarded by
// a mutex and may happen from any thread.
#ifndef FERRY_RUNTIME_HAL_DRIVER_REGISTRY_H_
#define FERRY_RUNTIME_HAL_DRIVER_REGISTRY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/hal/device.h"

namespace ferry::hal {

class DriverRegistry {
public:
  // Creates a device instance with the given name.
  using DeviceFactory =
      std::function<Result<std::shared_ptr<Device>>(std::string_view name)>;

  // Fails if `driverName` is already registered.
  Status registerDriver(std::string driverName, DeviceFactory factory);

  // Fails naming the known drivers if `driverName` is not registered.
  Result<std::shared_ptr<Device>>
  createDevice(std::string_view driverName, std::string_view deviceName) const;

  // Sorted.
  std::vector<std::string> driverNames() const;

private:
  mutable std::mutex mutex_;
  std::map<std::string, DeviceFactory, std::less<>> factories_;
};

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_DRIVER_REGISTRY_H_

#include "runtime/hal/driver_registry.h"

namespace ferry::hal {

Status DriverRegistry::registerDriver(std::string driverName,
                                      DeviceFactory factory) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (factories_.count(driverName))
    return invalidArgument("driver '", driverName, "' is already registered");
  factories_.emplace(std::move(driverName), std::move(factory));
  return okStatus();
}

Result<std::shared_ptr<Device>>
DriverRegistry::createDevice(std::string_view driverName,
                             std::string_view deviceName) const {
  DeviceFactory factory;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = factories_.find(driverName);
    if (it == factories_.end()) {
      std::string known;
      for (const auto &entry : factories_)
        known += (known.empty() ? "" : ", ") + entry.first;
      return notFound("unknown driver '", driverName,
                      "' (known drivers: ", known.empty() ? "none" : known,
                      ")");
    }
    factory = it->second;
  }
  return factory(deviceName);
}

std::vector<std::string> DriverRegistry::driverNames() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto &entry : factories_)
    names.push_back(entry.first);
  return names;
}

} // namespace ferry::hal

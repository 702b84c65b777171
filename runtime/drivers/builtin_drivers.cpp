#include "runtime/drivers/builtin_drivers.h"

#include "runtime/drivers/local/local_device.h"

namespace ferry::drivers {

Status registerBuiltinDrivers(hal::DriverRegistry &registry) {
  return local::registerLocalDrivers(registry);
}

} // namespace ferry::drivers

#include "runtime/drivers/builtin_drivers.h"

#include "runtime/drivers/local/local_sync_device.h"

namespace ferry::drivers {

Status registerBuiltinDrivers(hal::DriverRegistry &registry) {
  return local::registerLocalSyncDriver(registry);
}

} // namespace ferry::drivers

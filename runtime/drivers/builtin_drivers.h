// Registers every driver linked into this build with a DriverRegistry, so
// tools need not know the driver list.
//
// Ownership/threads: stateless.
#ifndef FERRY_RUNTIME_DRIVERS_BUILTIN_DRIVERS_H_
#define FERRY_RUNTIME_DRIVERS_BUILTIN_DRIVERS_H_

#include "runtime/base/status.h"
#include "runtime/drivers/builtin_backends.h"
#include "runtime/hal/driver_registry.h"

namespace ferry::drivers {

// The name every module device runs on unless told otherwise.
inline constexpr std::string_view kDefaultDriverName = kLocalSyncDriverName;

Status registerBuiltinDrivers(hal::DriverRegistry &registry);

} // namespace ferry::drivers

#endif // FERRY_RUNTIME_DRIVERS_BUILTIN_DRIVERS_H_

// The device backends this build of Ferry has, and the drivers that run each.
//
// A program names a backend in its device targets
// (`#hal.device.target<"local", {...}>`, compiler/Dialect/HAL) and
// `ferry-run --device=NAME=DRIVER` picks one of that backend's drivers
// (runtime/hal/driver_registry.h). The compiler refuses to write a module for
// a backend not listed here rather than let it run on whatever ferry-run
// binds; builtin_drivers.cpp registers exactly the drivers listed (checked
// by driver_registry_test). Plain constants, so the compiler includes this
// header without linking the runtime.
//
// Ownership/threads: constant data.
#ifndef FERRY_RUNTIME_DRIVERS_BUILTIN_BACKENDS_H_
#define FERRY_RUNTIME_DRIVERS_BUILTIN_BACKENDS_H_

#include <span>
#include <string_view>

namespace ferry::drivers {

// The local CPU (runtime/drivers/local).
inline constexpr std::string_view kLocalBackendName = "local";
inline constexpr std::string_view kLocalSyncDriverName = "local-sync";
inline constexpr std::string_view kLocalTaskDriverName = "local-task";
inline constexpr std::string_view kLocalDiscreteDriverName = "local-discrete";
inline constexpr std::string_view kLocalIsolatedDriverName = "local-isolated";
inline constexpr std::string_view kLocalDriverNames[] = {
    kLocalSyncDriverName, kLocalTaskDriverName, kLocalDiscreteDriverName,
    kLocalIsolatedDriverName};

struct Backend {
  std::string_view name;                     // as device targets name it
  std::span<const std::string_view> drivers; // as --device=NAME=DRIVER does
};

inline constexpr Backend kBuiltinBackends[] = {
    {kLocalBackendName, kLocalDriverNames},
};

// Null when this build has no backend `name`.
inline constexpr const Backend *findBuiltinBackend(std::string_view name) {
  for (const Backend &backend : kBuiltinBackends)
    if (backend.name == name)
      return &backend;
  return nullptr;
}

} // namespace ferry::drivers

#endif // FERRY_RUNTIME_DRIVERS_BUILTIN_BACKENDS_H_

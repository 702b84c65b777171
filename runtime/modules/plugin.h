// Loading native modules from plugins: shared libraries that speak the C ABI
// of plugin_api.h (`ferry-run --module=PATH.so`).
//
// loadPlugin() dlopen()s the library, finds its entry point, checks the ABI
// version, lets the plugin describe its modules and wraps each as a
// vm::NativeModule whose functions call into the plugin through the C ABI.
// Every failure (the file cannot be opened, the entry point is missing, the
// ABI version differs, the plugin refuses to load or describes malformed
// modules) is a Status naming the path and the problem; the library is then
// unloaded again and nothing leaks.
//
// Ownership/threads: the library stays loaded while any returned module is
// alive; when the last one goes the plugin's destroy() runs and the library
// is dlclose()d, so drop the modules (and the Contexts using them) only once
// no call can be in flight. loadPlugin() is thread-safe.
#ifndef FERRY_RUNTIME_MODULES_PLUGIN_H_
#define FERRY_RUNTIME_MODULES_PLUGIN_H_

#include <memory>
#include <string>
#include <vector>

#include "runtime/base/status.h"
#include "runtime/modules/plugin_api.h"
#include "runtime/vm/native_module.h"

namespace ferry::modules {

Result<std::vector<std::shared_ptr<const vm::NativeModule>>>
loadPlugin(const std::string &path);

// The table of runtime functions handed to plugins (ABI version
// FERRY_PLUGIN_ABI_VERSION). Exposed for tests that drive a plugin's entry
// point directly.
const ferry_runtime_api_t &pluginRuntimeApi();

} // namespace ferry::modules

#endif // FERRY_RUNTIME_MODULES_PLUGIN_H_

// What ferry-run does, as a library: load a module, bind its devices to
// drivers, turn inputs into device buffer views, invoke a function, print /
// save the results, release everything, then report statistics.
//
// ferry-run.cpp only parses argv and turns a failed Status into
// "ferry-run: error: MESSAGE" and exit code 1, so tests can drive the whole
// flow in-process.
//
// Ownership/threads: runModule owns every object it creates and releases them
// all before it writes statistics, so live_bytes_at_exit is what the program
// leaked, not what the tool still held.
#ifndef FERRY_RUNTIME_TOOLS_RUN_MODULE_H_
#define FERRY_RUNTIME_TOOLS_RUN_MODULE_H_

#include <ostream>
#include <span>
#include <string>

#include "runtime/base/status.h"
#include "runtime/hal/allocator.h"
#include "runtime/hal/device.h"
#include "runtime/tools/run_options.h"

namespace ferry::tools {

struct DeviceReport {
  std::string name;
  hal::AllocatorStatistics allocator;
  hal::DeviceStatistics device;
};

// The --stats JSON (ARCHITECTURE.md section 3), devices in module order.
std::string formatStatsJson(std::span<const DeviceReport> reports);

// Runs options.function of options.modulePath; prints one result per line to
// `out`. Every failure is a Status with a one-line message.
Status runModule(const RunOptions &options, std::ostream &out);

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_RUN_MODULE_H_

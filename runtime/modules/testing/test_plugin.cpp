// Plugins that misbehave on purpose, for the plugin loader, ferry-run and
// end-to-end tests. One source, built once per variant with
// -DFERRY_TEST_PLUGIN_<VARIANT> (runtime/CMakeLists.txt):
//
//   LATE        Double/Triple.function like samples/custom_module, but each
//               call finishes on its own thread 200 ms late
//   FAILING     Double.function fails its signal fence from its thread;
//               Triple.function fails synchronously
//   NO_ENTRY    exports no entry point
//   BAD_ABI     claims plugin ABI version 99
//   REFUSING    its entry point returns an error
//   BAD_KINDS   declares a function with the kinds string "rxr"
//   BAD_RESULTS NullResult.function and FenceResult.function, shaped like
//               Double.function (tied result 0 is operand 1): each signals
//               its fence at once but returns NULL / its signal fence as
//               the tied result; ForeignResult.function and
//               WrongShape.function (in, wait, signal) -> new result: the
//               first returns its input's view instead of allocating, the
//               second allocates 3 x i32 whatever the declared type says
//   NEVER_SIGNALS Double/Triple.function that return at once and never
//               resolve their signal fence (held until the plugin unloads)
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/modules/plugin_api.h"

namespace {

std::atomic<const ferry_runtime_api_t *> runtimeApi{nullptr};
const ferry_runtime_api_t &api() { return *runtimeApi.load(); }

// Threads started by calls; joined when the plugin is destroyed. Fences a
// call kept; released then.
struct State {
  std::mutex mutex;
  std::vector<std::thread> threads;
  std::vector<ferry_ref_t *> keptFences;
  ~State() {
    for (std::thread &t : threads)
      t.join();
    for (ferry_ref_t *fence : keptFences)
      api().ref_release(fence);
  }
};

// Runs on the call's thread; `args` are handles the thread owns.
void scaleLater(const ferry_value_t *args, int32_t factor, bool failInstead) {
  const ferry_ref_t *in = args[0].ref, *out = args[1].ref, *wait = args[2].ref,
                    *signal = args[3].ref;
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ferry_error_t *error = api().fence_wait(wait);
  void *src = nullptr, *dst = nullptr;
  uint64_t bytes = 0, outBytes = 0;
  if (!error)
    error = api().view_map(in, &src, &bytes);
  if (!error)
    error = api().view_map(out, &dst, &outBytes);
  if (error) {
    api().fence_fail(signal, api().error_message(error));
    api().error_free(error);
  } else if (failInstead) {
    api().fence_fail(signal, "simulated device fault");
  } else {
    for (uint64_t i = 0; i < bytes / 4; ++i)
      static_cast<int32_t *>(dst)[i] = int32_t(
          uint32_t(static_cast<const int32_t *>(src)[i]) * uint32_t(factor));
    api().fence_signal(signal);
  }
}

// Retains what the thread needs (the argument handles are borrowed).
[[maybe_unused]] ferry_error_t *startThread(void *state,
                                            const ferry_value_t *args,
                                            int32_t factor, bool failInstead) {
  ferry_value_t copy[4];
  for (int i = 0; i < 4; ++i)
    copy[i].ref = api().ref_retain(args[i].ref);
  auto *s = static_cast<State *>(state);
  std::lock_guard<std::mutex> lock(s->mutex);
  s->threads.emplace_back([copy, factor, failInstead]() mutable {
    scaleLater(copy, factor, failInstead);
    for (ferry_value_t &v : copy)
      api().ref_release(v.ref);
  });
  return nullptr;
}

ferry_error_t *call(void *state, void *functionState, ferry_call_t *context,
                    const ferry_value_t *args, ferry_value_t *results) {
  auto factor = int32_t(reinterpret_cast<intptr_t>(functionState));
  (void)context;
#if defined(FERRY_TEST_PLUGIN_BAD_RESULTS)
  (void)state;
  if (factor == 2) { // ForeignResult: a view the runtime did not allocate
    api().fence_signal(args[2].ref);
    results[0].ref = api().ref_retain(args[0].ref);
    return nullptr;
  }
  if (factor == 3) { // WrongShape: 3 elements, whatever was declared
    const int64_t dims[] = {3};
    if (ferry_error_t *error = api().result_allocate(
            context, 0, 1, dims, FERRY_ELEMENT_I32, &results[0].ref))
      return error;
    api().fence_signal(args[2].ref);
    return nullptr;
  }
  api().fence_signal(args[3].ref);
  results[0].ref = factor == 0 ? nullptr : api().ref_retain(args[3].ref);
  return nullptr;
#elif defined(FERRY_TEST_PLUGIN_NEVER_SIGNALS)
  (void)factor;
  auto *s = static_cast<State *>(state);
  {
    std::lock_guard<std::mutex> lock(s->mutex);
    s->keptFences.push_back(api().ref_retain(args[3].ref));
  }
  results[0].ref = api().ref_retain(args[1].ref);
  return nullptr;
#elif defined(FERRY_TEST_PLUGIN_FAILING)
  if (factor == 3)
    return api().error_create("simulated failure before starting");
  results[0].ref = api().ref_retain(args[1].ref);
  return startThread(state, args, factor, /*failInstead=*/true);
#else
  results[0].ref = api().ref_retain(args[1].ref);
  return startThread(state, args, factor, /*failInstead=*/false);
#endif
}

#if defined(FERRY_TEST_PLUGIN_BAD_RESULTS)
// Function state 0: return NULL; 1: return the signal fence.
const ferry_plugin_function_t kNullResult[] = {
    {"function", "rrrr", "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(0))}};
const ferry_plugin_function_t kFenceResult[] = {
    {"function", "rrrr", "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(1))}};
const ferry_plugin_function_t kForeignResult[] = {
    {"function", "rrr", "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(2))}};
const ferry_plugin_function_t kWrongShape[] = {
    {"function", "rrr", "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(3))}};
const ferry_plugin_module_t kModules[] = {{"NullResult", 1, kNullResult},
                                          {"FenceResult", 1, kFenceResult},
                                          {"ForeignResult", 1, kForeignResult},
                                          {"WrongShape", 1, kWrongShape}};
#else
#if defined(FERRY_TEST_PLUGIN_BAD_KINDS)
const char *kArgKinds = "rxr";
#else
const char *kArgKinds = "rrrr";
#endif

const ferry_plugin_function_t kDouble[] = {
    {"function", kArgKinds, "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(2))}};
const ferry_plugin_function_t kTriple[] = {
    {"function", "rrrr", "r", FERRY_PLUGIN_COARSE_FENCES, call,
     reinterpret_cast<void *>(intptr_t(3))}};
const ferry_plugin_module_t kModules[] = {{"Double", 1, kDouble},
                                          {"Triple", 1, kTriple}};
#endif

} // namespace

#if !defined(FERRY_TEST_PLUGIN_NO_ENTRY)
extern "C" FERRY_PLUGIN_EXPORT ferry_error_t *
ferry_plugin_load(const ferry_runtime_api_t *runtime, ferry_plugin_t *out) {
#if defined(FERRY_TEST_PLUGIN_REFUSING)
  return runtime->error_create("this plugin refuses to load");
#endif
  runtimeApi.store(runtime);
#if defined(FERRY_TEST_PLUGIN_BAD_ABI)
  out->abi_version = 99;
  return nullptr;
#endif
  out->abi_version = FERRY_PLUGIN_ABI_VERSION;
  out->state = new State();
  out->destroy = [](void *state) { delete static_cast<State *>(state); };
  out->module_count = sizeof(kModules) / sizeof(kModules[0]);
  out->modules = kModules;
  return nullptr;
}
#else
extern "C" {
FERRY_PLUGIN_EXPORT int ferry_not_a_plugin = 1;
}
#endif

// A Ferry plugin with the external functions of the seed example
// (samples/tied_external_calls.mlir):
//
//   Double.function(in, out, wait, signal) -> out   out = 2 * in
//   Triple.function(in, out, wait, signal) -> out   out = 3 * in
//
// on i32 tensors of any (equal) shape, following the coarse-fences ABI: the
// call checks its operands, queues the work and returns the tied operand's
// view at once; a worker thread waits for the wait fence, writes `out` in
// place and signals (or fails) the signal fence. Both may work in place on
// their input (see kScaleFlags). And one function with a new result, whose
// shape it decides:
//
//   Repeat.function(in, wait, signal) -> new   new = in, then in again
//
// on a 1-D i32 tensor of n elements: a new tensor of 2n elements, allocated
// with api->result_allocate (where the program uses it) and written by the
// worker after the wait fence.
//
// It uses only runtime/modules/plugin_api.h (no runtime library), so it can
// be built on its own:
//   c++ -std=c++20 -shared -fPIC -I<ferry> module.cpp -o custom_module.so
// and run with `ferry-run --module=custom_module.so`.
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "runtime/modules/plugin_api.h"

namespace {

// The runtime's callbacks. Written by every load before any thread reads it;
// a process that loads the plugin twice gets the same table both times.
std::atomic<const ferry_runtime_api_t *> runtimeApi{nullptr};
const ferry_runtime_api_t &api() { return *runtimeApi.load(); }

struct Job {
  int32_t factor;                        // 0: repeat `in` twice into `out`
  ferry_ref_t *in, *out, *signal, *wait; // owned (retained) handles
};

// One worker thread running jobs in order; destroy() drains and joins it.
class Worker {
public:
  Worker() : thread_([this] { run(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  void post(Job job) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      jobs_.push_back(job);
    }
    wake_.notify_one();
  }

private:
  void run() {
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty())
          return; // stopping with nothing left to do
        job = jobs_.front();
        jobs_.pop_front();
      }
      execute(job);
      for (ferry_ref_t *ref : {job.in, job.out, job.signal, job.wait})
        api().ref_release(ref);
    }
  }

  static void execute(const Job &job) {
    if (ferry_error_t *error = api().fence_wait(job.wait)) {
      // The producer of our input failed: pass its failure on.
      api().fence_fail(job.signal, api().error_message(error));
      api().error_free(error);
      return;
    }
    void *in = nullptr, *out = nullptr;
    uint64_t inBytes = 0, outBytes = 0;
    ferry_error_t *error = api().view_map(job.in, &in, &inBytes);
    if (!error)
      error = api().view_map(job.out, &out, &outBytes);
    if (error) {
      api().fence_fail(job.signal, api().error_message(error));
      api().error_free(error);
      return;
    }
    const auto *src = static_cast<const int32_t *>(in);
    auto *dst = static_cast<int32_t *>(out);
    if (job.factor == 0) {
      std::memcpy(dst, src, inBytes);
      std::memcpy(dst + inBytes / sizeof(int32_t), src, inBytes);
      api().fence_signal(job.signal);
      return;
    }
    // Wrapping i32 arithmetic, like the compiler's kernels.
    for (uint64_t i = 0; i < inBytes / sizeof(int32_t); ++i)
      dst[i] = int32_t(uint32_t(src[i]) * uint32_t(job.factor));
    api().fence_signal(job.signal);
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::thread thread_;
};

ferry_error_t *fail(const std::string &message) {
  return api().error_create(message.c_str());
}

// Checks the operands synchronously (the error names no function: the
// runtime adds it), then hands the work to the worker.
ferry_error_t *scale(void *state, void *functionState, ferry_call_t *,
                     const ferry_value_t *args, ferry_value_t *results) {
  auto factor = int32_t(reinterpret_cast<intptr_t>(functionState));
  const ferry_ref_t *in = args[0].ref, *out = args[1].ref;
  for (const ferry_ref_t *view : {in, out})
    if (api().ref_type(view) != FERRY_REF_BUFFER_VIEW)
      return fail("operands 0 and 1 must be buffer views");
  if (api().view_element_type(in) != FERRY_ELEMENT_I32 ||
      api().view_element_type(out) != FERRY_ELEMENT_I32)
    return fail("operands must be i32 tensors");
  uint32_t rank = api().view_rank(in);
  bool sameShape = rank == api().view_rank(out);
  for (uint32_t d = 0; sameShape && d < rank; ++d)
    sameShape = api().view_dim(in, d) == api().view_dim(out, d);
  if (!sameShape)
    return fail("operand 1 (the output) must have the shape of operand 0");
  static_cast<Worker *>(state)->post(
      Job{factor, api().ref_retain(in), api().ref_retain(out),
          api().ref_retain(args[3].ref), api().ref_retain(args[2].ref)});
  // The result is tied to operand 1: return that view, written in place.
  results[0].ref = api().ref_retain(out);
  return nullptr;
}

// A new result whose shape the function decides: twice the input's length.
// The runtime allocates it where the program uses it; the worker fills it
// once the wait fence (which also covers that allocation) is signalled.
ferry_error_t *repeat(void *state, void *, ferry_call_t *call,
                      const ferry_value_t *args, ferry_value_t *results) {
  const ferry_ref_t *in = args[0].ref;
  if (api().ref_type(in) != FERRY_REF_BUFFER_VIEW ||
      api().view_element_type(in) != FERRY_ELEMENT_I32 ||
      api().view_rank(in) != 1)
    return fail("operand 0 must be a 1-D i32 tensor");
  const int64_t dims[] = {2 * api().view_dim(in, 0)};
  ferry_ref_t *out = nullptr;
  if (ferry_error_t *error =
          api().result_allocate(call, 0, 1, dims, FERRY_ELEMENT_I32, &out))
    return error;
  static_cast<Worker *>(state)->post(
      Job{0, api().ref_retain(in), api().ref_retain(out),
          api().ref_retain(args[2].ref), api().ref_retain(args[1].ref)});
  results[0].ref = out; // the owned handle goes to the runtime
  return nullptr;
}

// Element i of the output is written after element i of the input is read,
// so the output may be the input's storage (FERRY_PLUGIN_TIED_MAY_ALIAS).
constexpr uint32_t kScaleFlags =
    FERRY_PLUGIN_COARSE_FENCES | FERRY_PLUGIN_TIED_MAY_ALIAS;
const ferry_plugin_function_t kDouble[] = {
    {"function", "rrrr", "r", kScaleFlags, scale,
     reinterpret_cast<void *>(intptr_t(2))}};
const ferry_plugin_function_t kTriple[] = {
    {"function", "rrrr", "r", kScaleFlags, scale,
     reinterpret_cast<void *>(intptr_t(3))}};
const ferry_plugin_function_t kRepeat[] = {
    {"function", "rrr", "r", FERRY_PLUGIN_COARSE_FENCES, repeat, nullptr}};
const ferry_plugin_module_t kModules[] = {
    {"Double", 1, kDouble}, {"Triple", 1, kTriple}, {"Repeat", 1, kRepeat}};

} // namespace

extern "C" FERRY_PLUGIN_EXPORT ferry_error_t *
ferry_plugin_load(const ferry_runtime_api_t *runtime, ferry_plugin_t *out) {
  if (runtime->abi_version != FERRY_PLUGIN_ABI_VERSION)
    return runtime->error_create("custom_module needs plugin ABI version 2");
  runtimeApi.store(runtime);
  out->abi_version = FERRY_PLUGIN_ABI_VERSION;
  out->state = new Worker();
  out->destroy = [](void *state) { delete static_cast<Worker *>(state); };
  out->module_count = sizeof(kModules) / sizeof(kModules[0]);
  out->modules = kModules;
  return nullptr;
}

// ferry-run --trace: the Chrome trace JSON writer, and the events the
// runtime's tracing hooks report for small programs on local-sync and
// local-task.
#include "runtime/tools/chrome_trace.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <thread>

#include "runtime/base/testing/status_assertions.h"
#include "runtime/drivers/local/local_device.h"
#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/testing/test_executables.h"
#include "runtime/vm/context.h"
#include "runtime/vm/native_module.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::tools {
namespace {

using vm::CallContext;
using vm::RegisterKind;
using vm::Value;

// A strict JSON syntax check (RFC 8259 values), enough to tell a writer bug.
class JsonChecker {
public:
  explicit JsonChecker(std::string_view text) : text_(text) {}
  bool valid() {
    skipSpace();
    if (!value())
      return false;
    skipSpace();
    return at_ == text_.size();
  }

private:
  void skipSpace() {
    while (at_ < text_.size() && std::strchr(" \t\r\n", text_[at_]))
      ++at_;
  }
  bool eat(char c) {
    skipSpace();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (text_.substr(at_, word.size()) != word)
      return false;
    at_ += word.size();
    return true;
  }
  bool string() {
    if (!eat('"'))
      return false;
    while (at_ < text_.size() && text_[at_] != '"') {
      if (uint8_t(text_[at_]) < 0x20)
        return false;
      if (text_[at_] == '\\') {
        ++at_;
        if (at_ >= text_.size() || !std::strchr("\"\\/bfnrtu", text_[at_]))
          return false;
      }
      ++at_;
    }
    return eat('"');
  }
  bool number() {
    size_t begin = at_;
    if (at_ < text_.size() && text_[at_] == '-')
      ++at_;
    while (at_ < text_.size() && (std::isdigit(uint8_t(text_[at_])) ||
                                  std::strchr(".eE+-", text_[at_])))
      ++at_;
    return at_ > begin;
  }
  bool value() {
    skipSpace();
    if (at_ >= text_.size())
      return false;
    char c = text_[at_];
    if (c == '{') {
      ++at_;
      if (eat('}'))
        return true;
      do {
        if (!string() || !eat(':') || !value())
          return false;
      } while (eat(','));
      return eat('}');
    }
    if (c == '[') {
      ++at_;
      if (eat(']'))
        return true;
      do {
        if (!value())
          return false;
      } while (eat(','));
      return eat(']');
    }
    if (c == '"')
      return string();
    if (c == 't')
      return literal("true");
    if (c == 'f')
      return literal("false");
    if (c == 'n')
      return literal("null");
    return number();
  }

  std::string_view text_;
  size_t at_ = 0;
};

TEST(ChromeTraceWriterTest, WritesMetadataAndSortedEvents) {
  Trace trace;
  trace.processes = {{"vm", {"interpreter"}},
                     {"device_a (local-sync)", {"queue"}}};
  TraceEvent late;
  late.name = "copy";
  late.category = "queue";
  late.process = 2;
  late.timestampNs = 2500;
  late.durationNs = 1001;
  late.args = {{"bytes", int64_t(64)}};
  TraceEvent early = late;
  early.name = "alloca";
  early.timestampNs = 7;
  TraceEvent counter;
  counter.phase = TraceEvent::Phase::kCounter;
  counter.name = "live_bytes";
  counter.category = "memory";
  counter.process = 2;
  counter.timestampNs = 1200;
  counter.args = {{"bytes", int64_t(4096)}};
  TraceEvent begin;
  begin.phase = TraceEvent::Phase::kAsyncBegin;
  begin.name = "Odd \"name\"\n";
  begin.category = "import_completion";
  begin.timestampNs = 1000;
  begin.id = 3;
  begin.args = {{"note", std::string("a\\b")}};
  trace.events = {late, early, counter, begin};

  std::string json = formatTraceJson(trace);
  EXPECT_TRUE(JsonChecker(json).valid()) << json;
  EXPECT_NE(json.find(R"({"ph":"M","name":"process_name","pid":2,"tid":0,)"
                      R"j("args":{"name":"device_a (local-sync)"}})j"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"ph":"M","name":"thread_name","pid":1,"tid":1,)"
                      R"("args":{"name":"interpreter"}})"),
            std::string::npos);
  EXPECT_NE(json.find(R"({"ph":"X","name":"copy","cat":"queue","pid":2,)"
                      R"("tid":1,"ts":2.500,"dur":1.001,"args":{"bytes":64}})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"ph":"C","name":"live_bytes","cat":"memory",)"
                      R"("pid":2,"tid":1,"ts":1.200,"args":{"bytes":4096}})"),
            std::string::npos);
  EXPECT_NE(json.find(R"("name":"Odd \"name\"\u000a")"), std::string::npos);
  EXPECT_NE(json.find(R"("ts":1.000,"id":3,"args":{"note":"a\\b"}})"),
            std::string::npos);
  // Timestamp order, metadata first.
  size_t alloca = json.find("\"alloca\""), async = json.find("Odd"),
         sample = json.find("\"live_bytes\""), copy = json.find("\"copy\"");
  EXPECT_LT(json.rfind("\"ph\":\"M\""), alloca);
  EXPECT_LT(alloca, async);
  EXPECT_LT(async, sample);
  EXPECT_LT(sample, copy);
}

TEST(ChromeTraceWriterTest, EmptyTraceIsValid) {
  std::string json = formatTraceJson({});
  EXPECT_TRUE(JsonChecker(json).valid()) << json;
  EXPECT_NE(json.find("\"traceEvents\":["), std::string::npos);
}

// What a recorder saw, by event.
struct Summary {
  std::map<std::string, int> queueOps; // by name, over all devices
  std::map<uint32_t, int> queueOpsByProcess;
  std::map<std::string, int> importCalls, asyncBegins, asyncEnds;
  std::map<uint32_t, std::vector<int64_t>> liveBytes; // samples in time order
  std::vector<std::string> processNames;

  explicit Summary(const Trace &trace) {
    for (const TraceProcess &process : trace.processes)
      processNames.push_back(process.name);
    std::vector<const TraceEvent *> sorted;
    for (const TraceEvent &event : trace.events)
      sorted.push_back(&event);
    std::stable_sort(sorted.begin(), sorted.end(), [](auto *a, auto *b) {
      return a->timestampNs < b->timestampNs;
    });
    for (const TraceEvent *event : sorted) {
      if (event->category == "queue") {
        ++queueOps[event->name];
        ++queueOpsByProcess[event->process];
      } else if (event->category == "import_call") {
        ++importCalls[event->name];
      } else if (event->phase == TraceEvent::Phase::kAsyncBegin) {
        ++asyncBegins[event->name];
      } else if (event->phase == TraceEvent::Phase::kAsyncEnd) {
        ++asyncEnds[event->name];
      } else if (event->phase == TraceEvent::Phase::kCounter) {
        liveBytes[event->process].push_back(
            std::get<int64_t>(event->args.at(0).second));
      }
    }
  }
};

class TraceRecorderTest : public ::testing::TestWithParam<bool> {
protected:
  // Declared first: outlives the devices and the calls reporting to it.
  TraceRecorder recorder;
  std::mutex threadsMutex;
  std::vector<std::thread> threads;

  std::shared_ptr<hal::Device> makeDevice(std::string name) {
    drivers::local::LocalDeviceOptions options;
    options.asynchronous = GetParam();
    options.workerCount = 2;
    return drivers::local::LocalDevice::create(name, options);
  }

  std::shared_ptr<hal::BufferView> input(hal::Device &device,
                                         std::vector<int32_t> values,
                                         std::vector<int64_t> shape) {
    auto buffer = *device.allocator().allocate(
        hal::kHostVisible, hal::kTransfer | hal::kDispatchStorage,
        values.size() * sizeof(int32_t));
    std::memcpy(buffer->data(), values.data(), values.size() * sizeof(int32_t));
    return *hal::BufferView::create(buffer, shape, hal::ElementType::kI32);
  }

  // Double.function(in, out, wait, signal) -> out under the coarse-fences
  // ABI, finishing on a thread of its own.
  std::shared_ptr<const vm::NativeModule> doubleModule() {
    auto module = std::make_shared<vm::NativeModule>("Double");
    using K = RegisterKind;
    Status added = module->addFunction(
        {"function",
         {K::kRef, K::kRef, K::kRef, K::kRef},
         {K::kRef},
         vm::bytecode::kImportCoarseFences,
         [this](std::span<const Value> args,
                CallContext &) -> Result<std::vector<Value>> {
           auto in = args[0].refAs<hal::BufferView>();
           auto out = args[1].refAs<hal::BufferView>();
           auto wait = args[2].refAs<hal::Fence>();
           auto signal = args[3].refAs<hal::Fence>();
           std::lock_guard<std::mutex> lock(threadsMutex);
           threads.emplace_back([in, out, wait, signal] {
             if (wait && !wait->wait().ok()) {
               signal->fail(internalError("wait failed"));
               return;
             }
             auto *src =
                 reinterpret_cast<const int32_t *>(in->buffer()->data());
             auto *dst = reinterpret_cast<int32_t *>(out->buffer()->data());
             for (uint64_t i = 0; i < in->elementCount(); ++i)
               dst[i] = 2 * src[i];
             signal->signal();
           });
           return std::vector<Value>{Value(out)};
         }});
    EXPECT_TRUE(added.ok()) << added.toString();
    return module;
  }

  void joinThreads() {
    std::lock_guard<std::mutex> lock(threadsMutex);
    for (std::thread &thread : threads)
      thread.join();
    threads.clear();
  }
};

TEST_P(TraceRecorderTest, ReportsEveryKindPerDeviceAndLiveBytesReturnToZero) {
  std::shared_ptr<hal::Device> a = makeDevice("device_a");
  std::shared_ptr<hal::Device> b = makeDevice("device_b");
  recorder.attach(*a);
  recorder.attach(*b);
  {
    // Elementwise add (2 allocas, 1 dispatch, 1 dealloca) on device_a.
    Result<vm::Module> module =
        vm::Module::load(vm::testing::buildElementwiseModule());
    ASSERT_TRUE(module.ok()) << module.status().toString();
    Result<vm::Context> add = vm::Context::create(
        std::make_shared<const vm::Module>(std::move(*module)), {a});
    ASSERT_TRUE(add.ok()) << add.status().toString();
    recorder.attach(*add);
    Result<std::vector<Value>> sum =
        add->invoke("main", {Value(input(*a, {1, 2, 3}, {3})),
                             Value(input(*a, {4, 5, 6}, {3}))});
    ASSERT_TRUE(sum.ok()) << sum.status().toString();

    // A coarse-fences call finishing on another thread (1 alloca, 1 import
    // call, 1 completion) on device_b.
    module = vm::Module::load(vm::testing::buildCoarseFencesCallModule());
    ASSERT_TRUE(module.ok()) << module.status().toString();
    Result<vm::Context> call = vm::Context::create(
        std::make_shared<const vm::Module>(std::move(*module)), {b},
        {doubleModule()});
    ASSERT_TRUE(call.ok()) << call.status().toString();
    recorder.attach(*call);
    Result<std::vector<Value>> doubled =
        call->invoke("main", {Value(input(*b, {1, 2, 3, 4}, {2, 2}))});
    ASSERT_TRUE(doubled.ok()) << doubled.status().toString();
    joinThreads();

    // Direct queue work on device_b: a fill, a copy, a barrier, a host call
    // and a dealloca of a buffer it did not queue-allocate (frees nothing).
    auto buffer = input(*b, {0, 0, 0, 0}, {4})->buffer();
    auto other = input(*b, {0, 0, 0, 0}, {4})->buffer();
    auto f1 = hal::Fence::create(), f2 = hal::Fence::create(),
         f3 = hal::Fence::create(), f4 = hal::Fence::create(),
         f5 = hal::Fence::create();
    ASSERT_TRUE(b->queueFill(nullptr, f1, buffer, 0, 16, 7, 4).ok());
    ASSERT_TRUE(b->queueCopy(f1, f2, buffer, 0, other, 0, 16).ok());
    ASSERT_TRUE(b->queueBarrier(f2, f3).ok());
    ASSERT_TRUE(b->queueHostCall(f3, f4, [] { return okStatus(); }).ok());
    ASSERT_TRUE(b->queueDealloca(f4, f5, other, 0).ok());
    ASSERT_TRUE(f5->wait().ok());
  }
  // Everything the programs made is released.
  recorder.sampleLiveBytes();

  Summary summary(recorder.snapshot());
  EXPECT_EQ(summary.processNames,
            (std::vector<std::string>{
                "vm",
                strCat("device_a (", a->driverName(), ")"),
                strCat("device_b (", b->driverName(), ")"),
            }));
  EXPECT_EQ(summary.queueOps, (std::map<std::string, int>{{"alloca", 3},
                                                          {"barrier", 1},
                                                          {"copy", 1},
                                                          {"dealloca", 2},
                                                          {"dispatch", 1},
                                                          {"fill", 1},
                                                          {"host_call", 1}}));
  // device_a: 2 allocas, dispatch, dealloca; device_b: the rest.
  EXPECT_EQ(summary.queueOpsByProcess,
            (std::map<uint32_t, int>{{2, 4}, {3, 6}}));
  EXPECT_EQ(summary.importCalls,
            (std::map<std::string, int>{{"Double.function", 1}}));
  EXPECT_EQ(summary.asyncBegins,
            (std::map<std::string, int>{{"Double.function", 1}}));
  EXPECT_EQ(summary.asyncEnds, summary.asyncBegins);
  for (uint32_t process : {2u, 3u}) {
    const std::vector<int64_t> &samples = summary.liveBytes[process];
    ASSERT_GE(samples.size(), 2u) << process;
    EXPECT_EQ(samples.front(), 0) << process;
    EXPECT_GT(*std::max_element(samples.begin(), samples.end()), 0) << process;
    EXPECT_EQ(samples.back(), 0) << process;
  }
  std::string json = recorder.json();
  EXPECT_TRUE(JsonChecker(json).valid());
}

TEST_P(TraceRecorderTest, DetachedDevicesReportNothing) {
  std::shared_ptr<hal::Device> a = makeDevice("device_a");
  recorder.attach(*a);
  a->setObserver(nullptr);
  auto fence = hal::Fence::create();
  ASSERT_TRUE(a->queueBarrier(nullptr, fence).ok());
  ASSERT_TRUE(fence->wait().ok());
  EXPECT_TRUE(Summary(recorder.snapshot()).queueOps.empty());
}

TEST_P(TraceRecorderTest, FailedOperationsAreMarked) {
  std::shared_ptr<hal::Device> a = makeDevice("device_a");
  recorder.attach(*a);
  auto fence = hal::Fence::create();
  (void)a->queueHostCall(nullptr, fence,
                         [] { return internalError("host broke"); });
  EXPECT_TRUE(failedWith(fence->wait(), StatusCode::kInternal, "host broke"));
  Trace trace = recorder.snapshot();
  auto call = std::find_if(
      trace.events.begin(), trace.events.end(),
      [](const TraceEvent &event) { return event.name == "host_call"; });
  ASSERT_NE(call, trace.events.end());
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(call->args[1].first, "failed");
}

// An executable dispatch's event names the executable, entry and grid.
TEST_P(TraceRecorderTest, ExecutableDispatchesNameTheirEntry) {
  std::shared_ptr<hal::Device> a = makeDevice("device_a");
  recorder.attach(*a);
  Result<vm::Module> module =
      vm::Module::load(vm::testing::buildDispatchEntryModule(
          hal::testing::testExecutableRecord(), {2, 2, 1}));
  ASSERT_TRUE(module.ok()) << module.status().toString();
  Result<vm::Context> context = vm::Context::create(
      std::make_shared<const vm::Module>(std::move(*module)), {a});
  ASSERT_TRUE(context.ok()) << context.status().toString();
  auto lhs = input(*a, {1, 2, 3}, {3});
  auto rhs = input(*a, {4, 5, 6}, {3});
  ASSERT_TRUE(context->invoke("main", {lhs, rhs}).ok());
  Trace trace = recorder.snapshot();
  auto dispatch = std::find_if(
      trace.events.begin(), trace.events.end(),
      [](const TraceEvent &event) { return event.name == "dispatch"; });
  ASSERT_NE(dispatch, trace.events.end());
  std::map<std::string, std::variant<int64_t, std::string>> args(
      dispatch->args.begin(), dispatch->args.end());
  EXPECT_EQ(std::get<std::string>(args.at("executable")), "test_exe");
  EXPECT_EQ(std::get<std::string>(args.at("entry")), "add_f32");
  EXPECT_EQ(std::get<int64_t>(args.at("workgroups")), 4);
  EXPECT_EQ(std::get<int64_t>(args.at("bytes")), 12);
}

INSTANTIATE_TEST_SUITE_P(Drivers, TraceRecorderTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &info) {
                           return info.param ? "LocalTask" : "LocalSync";
                         });

} // namespace
} // namespace ferry::tools

#include "runtime/modules/plugin.h"

#include <dlfcn.h>

#include <cstring>
#include <set>

#include "runtime/hal/buffer_bits.h"
#include "runtime/hal/element_type.h"

// The C ABI's opaque types. A ferry_ref holds one reference to a runtime
// object; a borrowed argument handle lives on the caller's stack.
struct ferry_ref {
  ferry::vm::Ref ref;
};
struct ferry_error {
  std::string message;
};
struct ferry_call {
  ferry::vm::CallContext *context;
};

namespace ferry::modules {
namespace {

using vm::bytecode::RegisterKind;

#define FERRY_CHECK_ELEMENT(c, hal_name)                                       \
  static_assert(uint32_t(c) == uint32_t(hal::ElementType::hal_name),           \
                "plugin_api.h element types must match element_type.h");
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_I8, kI8)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_I16, kI16)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_I32, kI32)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_I64, kI64)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_F32, kF32)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_F64, kF64)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_I1, kI1)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_F16, kF16)
FERRY_CHECK_ELEMENT(FERRY_ELEMENT_BF16, kBF16)
#undef FERRY_CHECK_ELEMENT
static_assert(FERRY_PLUGIN_COARSE_FENCES == vm::bytecode::kImportCoarseFences);
static_assert(FERRY_PLUGIN_TIED_MAY_ALIAS == vm::bytecode::kImportTiedMayAlias);

ferry_error_t *errorCreate(const char *message) {
  return new ferry_error{message ? message : "(no message)"};
}
const char *errorMessage(const ferry_error_t *error) {
  return error ? error->message.c_str() : "";
}
void errorFree(ferry_error_t *error) { delete error; }

ferry_ref_type_t refType(const ferry_ref_t *ref) {
  if (!ref)
    return FERRY_REF_NULL;
  switch (ref->ref.index()) {
  case 1:
    return FERRY_REF_DEVICE;
  case 2:
    return FERRY_REF_BUFFER;
  case 3:
    return FERRY_REF_BUFFER_VIEW;
  case 4:
    return FERRY_REF_FENCE;
  default:
    return FERRY_REF_NULL;
  }
}
ferry_ref_t *refRetain(const ferry_ref_t *ref) {
  return ref ? new ferry_ref{ref->ref} : nullptr;
}
void refRelease(ferry_ref_t *ref) { delete ref; }

template <typename T> std::shared_ptr<T> as(const ferry_ref_t *ref) {
  if (!ref)
    return nullptr;
  const auto *object = std::get_if<std::shared_ptr<T>>(&ref->ref);
  return object ? *object : nullptr;
}

uint32_t viewRank(const ferry_ref_t *ref) {
  auto view = as<hal::BufferView>(ref);
  return view ? uint32_t(view->rank()) : 0;
}
int64_t viewDim(const ferry_ref_t *ref, uint32_t index) {
  auto view = as<hal::BufferView>(ref);
  return view && index < view->rank() ? view->shape()[index] : 0;
}
uint32_t viewElementType(const ferry_ref_t *ref) {
  auto view = as<hal::BufferView>(ref);
  return view ? uint32_t(view->elementType()) : 0;
}
ferry_error_t *viewMap(const ferry_ref_t *ref, void **data,
                       uint64_t *byteLength) {
  auto view = as<hal::BufferView>(ref);
  if (!view)
    return errorCreate("view_map: the ref is not a buffer view");
  if (!data || !byteLength)
    return errorCreate("view_map: data and byte_length must not be NULL");
  const hal::Buffer &buffer = *view->buffer();
  Status live = buffer.requireLive("view_map");
  if (!live.ok())
    return errorCreate(live.message().c_str());
  if (!(buffer.memoryType() & hal::kHostVisible))
    return errorCreate(
        strCat("view_map: ", view->typeString(),
               " is not in host-visible memory, so a plugin cannot map it")
            .c_str());
  *data = buffer.data();
  *byteLength = view->byteLength();
  return nullptr;
}

ferry_error_t *fenceWait(const ferry_ref_t *ref) {
  if (!ref)
    return nullptr;
  auto fence = as<hal::Fence>(ref);
  if (!fence)
    return errorCreate("fence_wait: the ref is not a fence");
  Status status = fence->wait();
  return status.ok() ? nullptr : errorCreate(status.message().c_str());
}
void fenceSignal(const ferry_ref_t *ref) {
  if (auto fence = as<hal::Fence>(ref))
    fence->signal();
}
void fenceFail(const ferry_ref_t *ref, const char *message) {
  if (auto fence = as<hal::Fence>(ref))
    fence->fail(
        makeStatus(StatusCode::kAborted, message ? message : "(no message)"));
}

ferry_error_t *resultAllocate(ferry_call_t *call, uint32_t index, uint32_t rank,
                              const int64_t *dims, uint32_t elementType,
                              ferry_ref_t **view) {
  if (!call || !view || (rank > 0 && !dims))
    return errorCreate("result_allocate: call, view and (for rank > 0) dims "
                       "must not be NULL");
  *view = nullptr;
  std::optional<hal::ElementType> type = hal::elementTypeFromValue(elementType);
  if (!type)
    return errorCreate(strCat("result_allocate: result ", index,
                              ": unknown element type ", elementType)
                           .c_str());
  Result<std::shared_ptr<hal::BufferView>> allocated =
      call->context->allocateResult(index, std::span<const int64_t>(dims, rank),
                                    *type);
  if (!allocated.ok())
    return errorCreate(allocated.status().message().c_str());
  *view = new ferry_ref{vm::Ref(*allocated)};
  return nullptr;
}

const ferry_runtime_api_t kApi = {
    FERRY_PLUGIN_ABI_VERSION,
    0,
    errorCreate,
    errorMessage,
    errorFree,
    refType,
    refRetain,
    refRelease,
    viewRank,
    viewDim,
    viewElementType,
    viewMap,
    fenceWait,
    fenceSignal,
    fenceFail,
    resultAllocate,
};

// The loaded library and the plugin it described; destroyed (plugin
// destroy(), then dlclose) when the last module using it goes.
struct Library {
  std::string path;
  void *handle = nullptr;
  ferry_plugin_t plugin{};
  bool described = false;

  ~Library() {
    if (described && plugin.destroy)
      plugin.destroy(plugin.state);
    if (handle)
      dlclose(handle);
  }
};

Result<std::vector<RegisterKind>> parseKinds(const char *kinds) {
  if (!kinds)
    return invalidArgument("its kinds string is NULL");
  std::vector<RegisterKind> out;
  for (const char *c = kinds; *c; ++c) {
    if (*c == 'i')
      out.push_back(RegisterKind::kI64);
    else if (*c == 'r')
      out.push_back(RegisterKind::kRef);
    else
      return invalidArgument("kind '", *c, "' in \"", kinds,
                             "\" is neither 'i' (i64) nor 'r' (ref)");
    if (out.size() > 0xFFFF)
      return invalidArgument("it has more than 65535 values");
  }
  return out;
}

// Calls a plugin function through the C ABI.
vm::NativeFunctionBody makeBody(std::shared_ptr<Library> library,
                                const ferry_plugin_function_t &fn,
                                std::vector<RegisterKind> argKinds,
                                std::vector<RegisterKind> resultKinds) {
  return [library, call = fn.call, functionState = fn.function_state,
          argKinds = std::move(argKinds), resultKinds = std::move(resultKinds)](
             std::span<const vm::Value> args,
             vm::CallContext &context) -> Result<std::vector<vm::Value>> {
    // Borrowed handles for ref arguments, valid for the call.
    std::vector<ferry_ref> borrowed(args.size());
    std::vector<ferry_value_t> cArgs(args.size() + 1,
                                     ferry_value_t{0, nullptr});
    for (size_t i = 0; i < args.size(); ++i) {
      if (argKinds[i] == RegisterKind::kI64) {
        cArgs[i].i64 = args[i].i64();
        continue;
      }
      if (std::holds_alternative<std::monostate>(args[i].ref()))
        continue;
      borrowed[i].ref = args[i].ref();
      cArgs[i].ref = &borrowed[i];
    }
    std::vector<ferry_value_t> cResults(resultKinds.size() + 1,
                                        ferry_value_t{0, nullptr});
    ferry_call callHandle{&context};
    ferry_error_t *error = call(library->plugin.state, functionState,
                                &callHandle, cArgs.data(), cResults.data());
    // Take over every owned result handle, even on failure, so none leaks.
    std::vector<vm::Value> results;
    for (size_t i = 0; i < resultKinds.size(); ++i) {
      if (resultKinds[i] == RegisterKind::kI64) {
        results.emplace_back(cResults[i].i64);
        continue;
      }
      std::unique_ptr<ferry_ref> owned(cResults[i].ref);
      results.emplace_back(owned ? owned->ref : vm::Ref());
    }
    if (error) {
      std::unique_ptr<ferry_error> owned(error);
      return makeStatus(StatusCode::kAborted, owned->message);
    }
    return results;
  };
}

} // namespace

const ferry_runtime_api_t &pluginRuntimeApi() { return kApi; }

Result<std::vector<std::shared_ptr<const vm::NativeModule>>>
loadPlugin(const std::string &path) {
  auto fail = [&](const Status &status) {
    return status.withContext(strCat("plugin '", path, "'"));
  };
  auto library = std::make_shared<Library>();
  library->path = path;
  // RTLD_LOCAL: plugins do not see each other's symbols.
  library->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library->handle) {
    const char *why = dlerror();
    return invalidArgument("cannot load plugin '", path,
                           "': ", why ? why : "dlopen failed");
  }
  dlerror();
  void *symbol = dlsym(library->handle, FERRY_PLUGIN_ENTRY_POINT);
  if (!symbol)
    return fail(notFound("it has no entry point '", FERRY_PLUGIN_ENTRY_POINT,
                         "' (a Ferry plugin exports it; see "
                         "runtime/modules/plugin_api.h)"));
  auto entry = reinterpret_cast<ferry_plugin_load_fn>(symbol);
  ferry_plugin_t described{};
  if (ferry_error_t *error = entry(&kApi, &described)) {
    std::unique_ptr<ferry_error> owned(error);
    return fail(makeStatus(StatusCode::kAborted,
                           "it refused to load: ", owned->message));
  }
  // Only abi_version has a fixed place in every version of ferry_plugin_t;
  // the rest (destroy included) is not trusted on a mismatch.
  if (described.abi_version != FERRY_PLUGIN_ABI_VERSION)
    return fail(failedPrecondition(
        "it was built for plugin ABI version ", described.abi_version,
        ", this runtime speaks version ", FERRY_PLUGIN_ABI_VERSION,
        "; rebuild it against this runtime's plugin_api.h"));
  library->plugin = described;
  library->described = true;
  if (described.module_count > 0 && !described.modules)
    return fail(invalidArgument("it declares ", described.module_count,
                                " modules but no module table"));

  std::vector<std::shared_ptr<const vm::NativeModule>> modules;
  std::set<std::string> names;
  for (size_t m = 0; m < described.module_count; ++m) {
    const ferry_plugin_module_t &desc = described.modules[m];
    if (!desc.name || !*desc.name || std::strchr(desc.name, '.'))
      return fail(
          invalidArgument("module ", m, " has no name or a name with a '.'"));
    if (!names.insert(desc.name).second)
      return fail(invalidArgument("it defines module '", desc.name, "' twice"));
    if (desc.function_count > 0 && !desc.functions)
      return fail(invalidArgument("module '", desc.name, "' declares ",
                                  desc.function_count,
                                  " functions but no function table"));
    auto module = std::make_shared<vm::NativeModule>(desc.name, library);
    for (size_t f = 0; f < desc.function_count; ++f) {
      const ferry_plugin_function_t &fn = desc.functions[f];
      std::string where =
          strCat("module '", desc.name, "' function ", f,
                 fn.name ? strCat(" ('", fn.name, "')") : std::string());
      if (!fn.name || !fn.call)
        return fail(invalidArgument(where, " has no name or no call"));
      Result<std::vector<RegisterKind>> args = parseKinds(fn.arg_kinds);
      if (!args.ok())
        return fail(args.status().withContext(strCat(where, " arguments")));
      Result<std::vector<RegisterKind>> results = parseKinds(fn.result_kinds);
      if (!results.ok())
        return fail(results.status().withContext(strCat(where, " results")));
      vm::NativeFunction function{fn.name, *args, *results, fn.flags,
                                  makeBody(library, fn, *args, *results)};
      Status added = module->addFunction(std::move(function));
      if (!added.ok())
        return fail(added);
    }
    modules.push_back(std::move(module));
  }
  return modules;
}

} // namespace ferry::modules

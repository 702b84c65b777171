/* The Ferry plugin ABI: native modules in a shared library, loaded by
 * `ferry-run --module=PATH.so` (or runtime/modules/plugin.h).
 *
 * This header is plain C and the whole contract: a plugin includes only it,
 * links nothing of the runtime, and calls back into the runtime only through
 * the function table it is handed (ferry_runtime_api_t). So a plugin built
 * against ABI version N works with any runtime that speaks version N,
 * whatever C++ compiler, standard library or sanitizer either was built with.
 *
 * Loading. The runtime dlopen()s the library and calls its entry point
 *
 *   ferry_error_t *ferry_plugin_load(const ferry_runtime_api_t *api,
 *                                    ferry_plugin_t *out);
 *
 * (FERRY_PLUGIN_ENTRY_POINT; declare it with FERRY_PLUGIN_EXPORT). The
 * plugin checks api->abi_version, fills *out (setting out->abi_version to the
 * FERRY_PLUGIN_ABI_VERSION it was built with; the runtime refuses any other)
 * and returns NULL, or returns an error (api->error_create) to refuse to
 * load. Everything *out points to must stay valid until out->destroy runs.
 *
 * Modules and functions. A plugin provides any number of modules, each with
 * functions. A bytecode module's import "Double.function" resolves to module
 * "Double", function "function". A function declares its signature as two
 * strings of register kinds ('i' = i64, 'r' = ref), e.g. "rrrr" -> "r", and
 * its calling convention (flags); they must equal what the program imports.
 *
 * Calls. call(state, fn_state, call, args, results) receives the arguments
 * and writes exactly as many results as its signature has; `call` is the
 * call's context (valid until call returns), which api->result_allocate
 * takes. Ref arguments are
 * *borrowed*: valid until call returns; keep one longer with
 * api->ref_retain and give it back with api->ref_release. Ref results are
 * *owned* handles the runtime takes over: return api->ref_retain(arg) to
 * return (a reference to) an argument. A NULL ref is a null value. Return
 * NULL on success or an error (api->error_create; the runtime frees it and
 * reports the message naming the function).
 *
 * The coarse-fences convention (FERRY_PLUGIN_COARSE_FENCES): the last two
 * arguments are a wait fence and a signal fence (either may be NULL). The
 * call must not block. It returns its results (buffer views) at once and may
 * finish the work later on a thread of its own: touch buffer contents only
 * after api->fence_wait(wait) succeeds (blocking is fine on the plugin's own
 * thread), then resolve the signal fence exactly once with api->fence_signal
 * or api->fence_fail (the runtime reports the message naming the function).
 * Returning NULL from call promises that the signal fence will be resolved;
 * returning an error means it will not (the runtime fails it). A tied result
 * may be the tied operand's view (ref_retain) and is written in place. Every
 * ref result must be a buffer view: the runtime fails a call that returns
 * NULL or another kind of ref, naming the function.
 *
 * New results. A result tied to no operand is a new tensor the program owns
 * (it frees it at its last use). The callee allocates it, during call, with
 * api->result_allocate(call, index, rank, dims, element_type, &view): the
 * runtime allocates it on the calling device with the memory types and
 * usage the compiler resolved for that result (where the program uses it),
 * in the shape the callee chooses: a result of dynamic shape gets its dims
 * here, and the program reads them from the view. The callee returns that
 * view as the result (the handle is owned: returning it hands it back) and
 * writes its contents after fence_wait(wait), like a tied output. Where the
 * result lives in memory the host cannot map, the view is a host-visible
 * stand-in that the runtime copies into the result after the callee
 * signals. A new result returned any other way (a view made elsewhere, an
 * argument's view, NULL) fails the call naming the function and the result;
 * so does a shape or element type the declared result type rules out
 * (static dimensions must match). Only coarse-fences calls have new results.
 *
 * Threads. call may run on several threads at once. Every api function is
 * thread-safe. destroy(state) runs once when the runtime unloads the plugin,
 * after every call has returned (a runtime unloads a plugin only once no
 * program can call it); it must finish or abandon pending work (resolving
 * its signal fences), join any threads the plugin started and release every
 * handle it retained. Never release a borrowed handle.
 */
#ifndef FERRY_RUNTIME_MODULES_PLUGIN_API_H_
#define FERRY_RUNTIME_MODULES_PLUGIN_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change to the types or tables below. Version 2
 * gave call its context and added result_allocate. */
#define FERRY_PLUGIN_ABI_VERSION 2u
#define FERRY_PLUGIN_ENTRY_POINT "ferry_plugin_load"
#define FERRY_PLUGIN_EXPORT __attribute__((visibility("default")))

/* A runtime object (buffer view, buffer, fence, device). Opaque. */
typedef struct ferry_ref ferry_ref_t;
/* An error: a message the runtime reports. Opaque. */
typedef struct ferry_error ferry_error_t;
/* One call in progress (for result_allocate). Opaque. */
typedef struct ferry_call ferry_call_t;

typedef enum ferry_ref_type {
  FERRY_REF_NULL = 0,
  FERRY_REF_DEVICE = 1,
  FERRY_REF_BUFFER = 2,
  FERRY_REF_BUFFER_VIEW = 3,
  FERRY_REF_FENCE = 4,
} ferry_ref_type_t;

/* Element types of buffer views (the runtime checks these equal its own
 * table, runtime/hal/element_type.h). */
typedef enum ferry_element_type {
  FERRY_ELEMENT_I8 = 1,
  FERRY_ELEMENT_I16 = 2,
  FERRY_ELEMENT_I32 = 3,
  FERRY_ELEMENT_I64 = 4,
  FERRY_ELEMENT_F32 = 5,
  FERRY_ELEMENT_F64 = 6,
  FERRY_ELEMENT_I1 = 7,   /* one byte, 0 or 1 */
  FERRY_ELEMENT_F16 = 8,  /* IEEE binary16 */
  FERRY_ELEMENT_BF16 = 9, /* the upper 16 bits of an IEEE binary32 */
} ferry_element_type_t;

/* One argument or result; which member is meaningful follows the
 * function's signature. */
typedef struct ferry_value {
  int64_t i64;
  ferry_ref_t *ref;
} ferry_value_t;

/* Calling conventions and properties (the bytecode's ImportFlags). */
#define FERRY_PLUGIN_COARSE_FENCES 1u
/* The function may be given the same storage as an input and as a tied
 * output: it reads each input element before it writes the output element
 * at the same position (elementwise functions do). A compiler that knows it
 * (`ferry-compile --module=PATH.so`) passes an input that dies at the call
 * as the output instead of allocating one; the runtime refuses to bind a
 * program compiled that way to a function that does not declare it. */
#define FERRY_PLUGIN_TIED_MAY_ALIAS 2u

/* What the runtime offers a plugin. */
typedef struct ferry_runtime_api {
  uint32_t abi_version; /* FERRY_PLUGIN_ABI_VERSION of the runtime */
  uint32_t reserved;

  /* Errors. error_create copies `message`. */
  ferry_error_t *(*error_create)(const char *message);
  const char *(*error_message)(const ferry_error_t *error);
  void (*error_free)(ferry_error_t *error);

  /* References. ref_retain returns a new owned handle to the same object
   * (NULL for NULL); ref_release gives an owned handle back. */
  ferry_ref_type_t (*ref_type)(const ferry_ref_t *ref);
  ferry_ref_t *(*ref_retain)(const ferry_ref_t *ref);
  void (*ref_release)(ferry_ref_t *ref);

  /* Buffer views. view_element_type returns a ferry_element_type_t.
   * view_map gives host access to the view's bytes: fails unless the buffer
   * is live (its allocation has executed: map after the wait fence) and
   * host-visible. The pointer stays valid while the plugin holds the view
   * and the program has not deallocated the buffer. */
  uint32_t (*view_rank)(const ferry_ref_t *view);
  int64_t (*view_dim)(const ferry_ref_t *view, uint32_t index);
  uint32_t (*view_element_type)(const ferry_ref_t *view);
  ferry_error_t *(*view_map)(const ferry_ref_t *view, void **data,
                             uint64_t *byte_length);

  /* Fences. fence_wait blocks until `fence` resolves (NULL: at once) and
   * returns its failure, if any; call it only on the plugin's own threads.
   * fence_signal / fence_fail resolve a fence (the first resolution wins). */
  ferry_error_t *(*fence_wait)(const ferry_ref_t *fence);
  void (*fence_signal)(const ferry_ref_t *fence);
  void (*fence_fail)(const ferry_ref_t *fence, const char *message);

  /* New results. result_allocate allocates result `index` of `call` (one
   * tied to no operand) as a buffer view of `rank` dims `dims` and
   * `element_type` (a ferry_element_type_t), on the calling device with the
   * memory types and usage the program resolved for it, and stores an owned
   * handle in *view. Call it only during call, on its thread, once per new
   * result. It fails for a tied result, a second allocation, a negative dim
   * or an allocation the device refuses. */
  ferry_error_t *(*result_allocate)(ferry_call_t *call, uint32_t index,
                                    uint32_t rank, const int64_t *dims,
                                    uint32_t element_type, ferry_ref_t **view);
} ferry_runtime_api_t;

typedef ferry_error_t *(*ferry_plugin_call_fn)(void *plugin_state,
                                               void *function_state,
                                               ferry_call_t *call,
                                               const ferry_value_t *args,
                                               ferry_value_t *results);

typedef struct ferry_plugin_function {
  const char *name;         /* "function" (after the module's "Double.") */
  const char *arg_kinds;    /* e.g. "rrrr" */
  const char *result_kinds; /* e.g. "r" */
  uint32_t flags; /* FERRY_PLUGIN_COARSE_FENCES, FERRY_PLUGIN_TIED_MAY_ALIAS */
  ferry_plugin_call_fn call;
  void *function_state; /* passed to call */
} ferry_plugin_function_t;

typedef struct ferry_plugin_module {
  const char *name; /* "Double" */
  size_t function_count;
  const ferry_plugin_function_t *functions;
} ferry_plugin_module_t;

typedef struct ferry_plugin {
  uint32_t abi_version; /* FERRY_PLUGIN_ABI_VERSION the plugin was built with */
  void *state;          /* passed to every call and to destroy */
  void (*destroy)(void *state); /* may be NULL */
  size_t module_count;
  const ferry_plugin_module_t *modules;
} ferry_plugin_t;

typedef ferry_error_t *(*ferry_plugin_load_fn)(const ferry_runtime_api_t *api,
                                               ferry_plugin_t *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FERRY_RUNTIME_MODULES_PLUGIN_API_H_ */

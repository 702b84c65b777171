/* The native executable ABI: what an executable image (an ELF shared object
 * embedded in a module, bytecode_format.h "Executable") exports and how the
 * runtime calls it (runtime/hal/executable.h loads it, Device::
 * queueDispatchEntry runs it).
 *
 * Plain C, so that kernels written in C (the runtime's tests) and code the
 * compiler generates through LLVM agree with the C++ runtime on one layout.
 * An image links nothing of the runtime: it sees only this header's types.
 *
 * An image exports:
 *   const uint32_t ferry_executable_abi_version;  ==
 * FERRY_EXECUTABLE_ABI_VERSION and one function per entry point, under the
 * entry's name: int32_t ENTRY(const ferry_dispatch_state_t *state);  0 = ok,
 * else a status (FERRY_ENTRY_STATUS_*) or the entry's own code
 *
 * The runtime calls ENTRY once for every workgroup (x, y, z) with
 * x < workgroup_count[0], y < workgroup_count[1], z < workgroup_count[2], in
 * any order, possibly concurrently on several threads (local-task) or one
 * after another (local-sync); a zero count means no call. Entries must be
 * reentrant and must not keep pointers after returning. Bindings are not
 * guaranteed to be distinct memory (a tied operand may be an input and the
 * output). A nonzero return fails the dispatch's signal fence with an error
 * naming executable, entry, workgroup and the code (or what a
 * FERRY_ENTRY_STATUS_* code means). Binding pointers are
 * aligned to at least 64 bytes when the binding offset is 0, otherwise to the
 * element size only. */
#ifndef FERRY_RUNTIME_HAL_EXECUTABLE_ABI_H_
#define FERRY_RUNTIME_HAL_EXECUTABLE_ABI_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FERRY_EXECUTABLE_ABI_VERSION 1u

/* The name of the exported uint32_t holding the image's ABI version. */
#define FERRY_EXECUTABLE_ABI_VERSION_SYMBOL "ferry_executable_abi_version"

/* What one workgroup of a dispatch sees. 56 bytes, natural alignment
 * (x86-64 and aarch64 SysV). */
typedef struct ferry_dispatch_state_t {
  uint32_t workgroup_id[3];        /* offset 0 */
  uint32_t workgroup_count[3];     /* offset 12 */
  uint32_t binding_count;          /* offset 24 */
  uint32_t push_constant_count;    /* offset 28 */
  void *const *bindings;           /* offset 32: buffer base + binding offset */
  const uint64_t *binding_lengths; /* offset 40: bytes of each binding */
  const uint64_t *push_constants;  /* offset 48: dynamic sizes, scalars */
} ferry_dispatch_state_t;

/* How an entry uses a binding (the module records one per binding): the
 * runtime checks the buffer allows it before any workgroup runs. */
#define FERRY_BINDING_ACCESS_READ 1u
#define FERRY_BINDING_ACCESS_WRITE 2u
/* With READ alone: the entry reads the binding for a parameter (a scalar
 * passed as a 0-d tensor, such as a slice's dynamic offset or stride), not
 * for elements it computes on or moves; a copy kernel's count leaves it
 * out. */
#define FERRY_BINDING_ACCESS_PARAMETER 4u

/* What an entry does (the module records it): a copy kernel only moves
 * elements (a strided slice gathered or scattered), and the runtime counts
 * each dispatch of it as one copy of its smallest binding's bytes, its
 * parameter bindings left out. */
#define FERRY_ENTRY_KIND_COMPUTE 0u
#define FERRY_ENTRY_KIND_COPY 1u

/* What an entry returns. Negative codes are the ABI's own; an entry's own
 * failure codes are positive.
 * - OUT_OF_MEMORY: the workgroup could not allocate memory it needs (a
 *   compiled kernel's heap tile: its `malloc` returned null, or its size
 *   overflowed or exceeded 2^62 bytes). The entry freed what the workgroup
 *   had allocated before returning; the runtime fails the dispatch with a
 *   resource-exhausted error saying "out of memory". */
#define FERRY_ENTRY_STATUS_OK 0
#define FERRY_ENTRY_STATUS_OUT_OF_MEMORY (-1)

/* An entry point: FERRY_ENTRY_STATUS_OK (0) on success, else a failure code
 * the runtime reports. */
typedef int32_t (*ferry_executable_entry_fn_t)(
    const ferry_dispatch_state_t *state);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* FERRY_RUNTIME_HAL_EXECUTABLE_ABI_H_ */

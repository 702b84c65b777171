/* Small executables for the runtime's tests, written against the kernel ABI
 * (runtime/hal/executable_abi.h) the way generated code is: a shared object
 * linking nothing of the runtime. One source, built once per variant:
 *   (none)                      the good executable: every entry below
 *   FERRY_TEST_EXECUTABLE_BAD_ABI   ferry_executable_abi_version is 99
 *   FERRY_TEST_EXECUTABLE_NO_ENTRY  add_f32 is not exported
 */
#include <stdint.h>

#include "runtime/hal/executable_abi.h"

#define EXPORT __attribute__((visibility("default")))

#ifdef FERRY_TEST_EXECUTABLE_BAD_ABI
EXPORT const uint32_t ferry_executable_abi_version = 99;
#else
EXPORT const uint32_t ferry_executable_abi_version =
    FERRY_EXECUTABLE_ABI_VERSION;
#endif

static uint64_t linearId(const ferry_dispatch_state_t *state) {
  const uint32_t *id = state->workgroup_id;
  const uint32_t *count = state->workgroup_count;
  return id[0] + (uint64_t)count[0] * (id[1] + (uint64_t)count[1] * id[2]);
}

static uint64_t workgroupTotal(const ferry_dispatch_state_t *state) {
  const uint32_t *count = state->workgroup_count;
  return (uint64_t)count[0] * count[1] * count[2];
}

/* out[i] = lhs[i] + rhs[i] over f32 bindings (lhs, rhs, out), the element
 * count in push constant 0; each workgroup takes one tile of the elements,
 * picked by its linear id. Returns 100 + binding when a binding is shorter
 * than the elements need (the runtime's checks should make that
 * impossible). */
#ifndef FERRY_TEST_EXECUTABLE_NO_ENTRY
EXPORT int32_t add_f32(const ferry_dispatch_state_t *state) {
  if (state->binding_count != 3 || state->push_constant_count != 1)
    return 99;
  uint64_t n = state->push_constants[0];
  for (uint32_t b = 0; b < 3; ++b)
    if (state->binding_lengths[b] < n * sizeof(float))
      return 100 + (int32_t)b;
  uint64_t total = workgroupTotal(state);
  uint64_t tile = (n + total - 1) / total;
  uint64_t begin = linearId(state) * tile;
  uint64_t end = begin + tile < n ? begin + tile : n;
  const float *lhs = (const float *)state->bindings[0];
  const float *rhs = (const float *)state->bindings[1];
  float *out = (float *)state->bindings[2];
  for (uint64_t i = begin; i < end; ++i)
    out[i] = lhs[i] + rhs[i];
  return 0;
}
#endif

/* Records which workgroups ran: binding 0 (read and write) holds 4 uint32
 * per workgroup, by linear id: a visit count, then x, y and z. */
EXPORT int32_t record_workgroups(const ferry_dispatch_state_t *state) {
  uint32_t *record = (uint32_t *)state->bindings[0] + 4 * linearId(state);
  if (state->binding_lengths[0] < 4 * sizeof(uint32_t) * workgroupTotal(state))
    return 101;
  record[0] += 1;
  record[1] = state->workgroup_id[0];
  record[2] = state->workgroup_id[1];
  record[3] = state->workgroup_id[2];
  return 0;
}

/* Fails with code 7 in workgroup (1, 0, 0); the others succeed. */
EXPORT int32_t fail_in_workgroup_1(const ferry_dispatch_state_t *state) {
  return state->workgroup_id[0] == 1 && state->workgroup_id[1] == 0 &&
                 state->workgroup_id[2] == 0
             ? 7
             : 0;
}

/* Runs out of memory (FERRY_ENTRY_STATUS_OUT_OF_MEMORY) in workgroup
 * (1, 0, 0), as a compiled kernel whose heap tile cannot be allocated. */
EXPORT int32_t
out_of_memory_in_workgroup_1(const ferry_dispatch_state_t *state) {
  return state->workgroup_id[0] == 1 && state->workgroup_id[1] == 0 &&
                 state->workgroup_id[2] == 0
             ? FERRY_ENTRY_STATUS_OUT_OF_MEMORY
             : FERRY_ENTRY_STATUS_OK;
}

/* Not an entry: hidden, so the runtime must not find it. */
int32_t hidden_entry(const ferry_dispatch_state_t *state) { return 0; }

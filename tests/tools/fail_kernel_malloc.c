/* Preloaded into ferry-run (LD_PRELOAD) by end-to-end tests of a kernel that
 * runs out of memory (tests/e2e/errors/kernel_out_of_memory.mlir): the
 * FERRY_FAIL_KERNEL_MALLOC-th call of malloc made by an executable image's
 * code (counted over the process; the runtime loads images from memory files,
 * /proc/self/fd/N) returns null, and so does every later one. At exit it
 * prints how many buffers the kernels allocated and how many of those they
 * did not free, so a test checks a failing kernel leaks nothing, and how
 * many bytes they asked for in all and at most in one call, so a test checks
 * the size of a workgroup's tiles.
 *
 * Other callers get glibc's malloc. Not for sanitizer builds: their runtime
 * replaces malloc itself. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *pointer);

static atomic_long kernelMallocs, kernelFailed, kernelFrees, kernelBytes,
    kernelLargest;
static __thread int inside; /* dladdr may allocate: no recursion */

/* Whether `address` is code of an executable image. */
static int inKernel(void *address) {
  if (inside)
    return 0;
  inside = 1;
  Dl_info info;
  int found = dladdr(address, &info) && info.dli_fname &&
              strncmp(info.dli_fname, "/proc/self/fd/", 14) == 0;
  inside = 0;
  return found;
}

static long failFrom(void) {
  const char *value = getenv("FERRY_FAIL_KERNEL_MALLOC");
  return value ? atol(value) : 0;
}

void *malloc(size_t size) {
  if (!inKernel(__builtin_return_address(0)))
    return __libc_malloc(size);
  long call = atomic_fetch_add(&kernelMallocs, 1) + 1;
  atomic_fetch_add(&kernelBytes, (long)size);
  long largest = atomic_load(&kernelLargest);
  while ((long)size > largest &&
         !atomic_compare_exchange_weak(&kernelLargest, &largest, (long)size))
    ;
  long from = failFrom();
  if (from > 0 && call >= from) {
    atomic_fetch_add(&kernelFailed, 1);
    return NULL;
  }
  return __libc_malloc(size);
}

void free(void *pointer) {
  if (pointer && inKernel(__builtin_return_address(0)))
    atomic_fetch_add(&kernelFrees, 1);
  __libc_free(pointer);
}

__attribute__((destructor)) static void report(void) {
  long mallocs = atomic_load(&kernelMallocs);
  long failed = atomic_load(&kernelFailed);
  fprintf(stderr,
          "fail_kernel_malloc: %ld kernel mallocs, %ld failed, %ld not "
          "freed, %ld bytes, largest %ld\n",
          mallocs, failed, mallocs - failed - atomic_load(&kernelFrees),
          atomic_load(&kernelBytes), atomic_load(&kernelLargest));
}

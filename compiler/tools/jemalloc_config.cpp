// jemalloc's options for ferry-compile, read at its first allocation (built
// only when ferry-compile links jemalloc; see CMakeLists.txt).
//
// The IR of a large program is hundreds of MB of small objects that every
// pass walks; on 4 KiB pages nearly every op visited is a TLB miss (a costly
// two-level page walk in a virtual machine). Huge pages for the heap (not for
// jemalloc's metadata, which measured no better) cut the user time of a
// 100,000-op compile by a further ~10%, part of which the kernel spends
// clearing them (docs/PERFORMANCE.md). The kernel must allow them on request
// (transparent_hugepage "madvise" or "always"); otherwise this is a no-op.
// MALLOC_CONF in the environment still overrides it.
#include <jemalloc/jemalloc.h>

const char *malloc_conf = "thp:always";

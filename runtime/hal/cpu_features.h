// CPU features: the LLVM target feature names the runtime can check on the
// running CPU, each with its check. One table for both sides: the compiler
// gives LLVM only features from it (the host's, intersected with it, every
// other one disabled) and records exactly those in a module's executable
// (bytecode_format.h, Executable::cpu_features); the runtime refuses an
// executable naming a feature the running CPU lacks or that it cannot check
// (runtime/hal/executable.h), so code compiled on one machine never dies of
// an illegal instruction on another.
//
// x86-64: cpuid leaves 1, 7 (subleaves 0 and 1) and 0x80000001, plus XCR0
// (xgetbv) for the register state an AVX or AVX-512 feature needs the OS to
// save. aarch64: a minimal table from getauxval(AT_HWCAP). Other hosts have
// an empty table (every named feature is unknown).
//
// Header-only plain C++ (no LLVM, nothing of the runtime to link).
// Ownership/threads: values; CpuFeatureSet::host() reads the CPU once
// (thread-safe) and returns a copy.
#ifndef FERRY_RUNTIME_HAL_CPU_FEATURES_H_
#define FERRY_RUNTIME_HAL_CPU_FEATURES_H_

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace ferry::hal {

#if defined(__x86_64__)
// Where a feature's bit is: cpuid leaf, subleaf, register and bit, and the
// XCR0 state bits the OS must enable (0: none).
enum CpuidRegister : uint8_t { kEax, kEbx, kEcx, kEdx };
inline constexpr uint64_t kXcr0Avx = 0x6;     // SSE and AVX (YMM) state
inline constexpr uint64_t kXcr0Avx512 = 0xE6; // + opmask, ZMM_Hi256, Hi16_ZMM

// X(llvm name, leaf, subleaf, register, bit, xcr0 mask)
#define FERRY_CPU_FEATURES(X)                                                  \
  X("64bit", 0x80000001u, 0, kEdx, 29, 0)                                      \
  X("x87", 1, 0, kEdx, 0, 0)                                                   \
  X("cx8", 1, 0, kEdx, 8, 0)                                                   \
  X("cmov", 1, 0, kEdx, 15, 0)                                                 \
  X("mmx", 1, 0, kEdx, 23, 0)                                                  \
  X("fxsr", 1, 0, kEdx, 24, 0)                                                 \
  X("sse", 1, 0, kEdx, 25, 0)                                                  \
  X("sse2", 1, 0, kEdx, 26, 0)                                                 \
  X("sse3", 1, 0, kEcx, 0, 0)                                                  \
  X("pclmul", 1, 0, kEcx, 1, 0)                                                \
  X("ssse3", 1, 0, kEcx, 9, 0)                                                 \
  X("cx16", 1, 0, kEcx, 13, 0)                                                 \
  X("sse4.1", 1, 0, kEcx, 19, 0)                                               \
  X("sse4.2", 1, 0, kEcx, 20, 0)                                               \
  X("crc32", 1, 0, kEcx, 20, 0)                                                \
  X("movbe", 1, 0, kEcx, 22, 0)                                                \
  X("popcnt", 1, 0, kEcx, 23, 0)                                               \
  X("aes", 1, 0, kEcx, 25, 0)                                                  \
  X("xsave", 1, 0, kEcx, 26, 0)                                                \
  X("rdrnd", 1, 0, kEcx, 30, 0)                                                \
  X("avx", 1, 0, kEcx, 28, kXcr0Avx)                                           \
  X("fma", 1, 0, kEcx, 12, kXcr0Avx)                                           \
  X("f16c", 1, 0, kEcx, 29, kXcr0Avx)                                          \
  X("fsgsbase", 7, 0, kEbx, 0, 0)                                              \
  X("bmi", 7, 0, kEbx, 3, 0)                                                   \
  X("avx2", 7, 0, kEbx, 5, kXcr0Avx)                                           \
  X("bmi2", 7, 0, kEbx, 8, 0)                                                  \
  X("avx512f", 7, 0, kEbx, 16, kXcr0Avx512)                                    \
  X("evex512", 7, 0, kEbx, 16, kXcr0Avx512)                                    \
  X("avx512dq", 7, 0, kEbx, 17, kXcr0Avx512)                                   \
  X("rdseed", 7, 0, kEbx, 18, 0)                                               \
  X("adx", 7, 0, kEbx, 19, 0)                                                  \
  X("avx512ifma", 7, 0, kEbx, 21, kXcr0Avx512)                                 \
  X("avx512cd", 7, 0, kEbx, 28, kXcr0Avx512)                                   \
  X("sha", 7, 0, kEbx, 29, 0)                                                  \
  X("avx512bw", 7, 0, kEbx, 30, kXcr0Avx512)                                   \
  X("avx512vl", 7, 0, kEbx, 31, kXcr0Avx512)                                   \
  X("avx512vbmi", 7, 0, kEcx, 1, kXcr0Avx512)                                  \
  X("avx512vbmi2", 7, 0, kEcx, 6, kXcr0Avx512)                                 \
  X("gfni", 7, 0, kEcx, 8, 0)                                                  \
  X("vaes", 7, 0, kEcx, 9, kXcr0Avx)                                           \
  X("vpclmulqdq", 7, 0, kEcx, 10, kXcr0Avx)                                    \
  X("avx512vnni", 7, 0, kEcx, 11, kXcr0Avx512)                                 \
  X("avx512bitalg", 7, 0, kEcx, 12, kXcr0Avx512)                               \
  X("avx512vpopcntdq", 7, 0, kEcx, 14, kXcr0Avx512)                            \
  X("avx512fp16", 7, 0, kEdx, 23, kXcr0Avx512)                                 \
  X("avxvnni", 7, 1, kEax, 4, kXcr0Avx)                                        \
  X("avx512bf16", 7, 1, kEax, 5, kXcr0Avx512)                                  \
  X("sahf", 0x80000001u, 0, kEcx, 0, 0)                                        \
  X("lzcnt", 0x80000001u, 0, kEcx, 5, 0)                                       \
  X("sse4a", 0x80000001u, 0, kEcx, 6, 0)                                       \
  X("prfchw", 0x80000001u, 0, kEcx, 8, 0)                                      \
  X("xop", 0x80000001u, 0, kEcx, 11, kXcr0Avx)                                 \
  X("fma4", 0x80000001u, 0, kEcx, 16, kXcr0Avx)

#elif defined(__aarch64__) && defined(__linux__)
// X(llvm name, AT_HWCAP bit)
#define FERRY_CPU_FEATURES(X)                                                  \
  X("fp-armv8", HWCAP_FP)                                                      \
  X("neon", HWCAP_ASIMD)                                                       \
  X("crc", HWCAP_CRC32)                                                        \
  X("lse", HWCAP_ATOMICS)                                                      \
  X("fullfp16", HWCAP_FPHP)                                                    \
  X("dotprod", HWCAP_ASIMDDP)

#else
#define FERRY_CPU_FEATURES(X)
#endif

namespace detail {
inline constexpr std::string_view kCpuFeatureNames[] = {
#define FERRY_X(name, ...) name,
    FERRY_CPU_FEATURES(FERRY_X)
#undef FERRY_X
        ""};
} // namespace detail

// Every feature name the runtime can check, in table order.
inline constexpr std::span<const std::string_view>
    kCpuFeatureNames(detail::kCpuFeatureNames,
                     std::size(detail::kCpuFeatureNames) - 1);
inline constexpr size_t kCpuFeatureCount = kCpuFeatureNames.size();

// The table index of `name`, or nullopt for a name the runtime cannot check.
constexpr std::optional<size_t> cpuFeatureIndex(std::string_view name) {
  for (size_t i = 0; i < kCpuFeatureCount; ++i)
    if (kCpuFeatureNames[i] == name)
      return i;
  return std::nullopt;
}

// A set of the table's features: what a CPU has.
class CpuFeatureSet {
public:
  // No features (tests use it for a CPU that lacks everything).
  CpuFeatureSet() = default;

  // The running CPU's features (read once per process).
  static CpuFeatureSet host() {
    static const CpuFeatureSet features = readHost();
    return features;
  }

  bool has(std::string_view name) const {
    std::optional<size_t> index = cpuFeatureIndex(name);
    return index && bits_[*index];
  }
  void set(size_t index, bool value = true) { bits_[index] = value; }

private:
  static CpuFeatureSet readHost();

  std::bitset<kCpuFeatureCount + 1> bits_;
};

#if defined(__x86_64__)
inline CpuFeatureSet CpuFeatureSet::readHost() {
  struct Leaf {
    uint32_t leaf, subleaf;
    uint32_t registers[4];
    bool valid;
  };
  Leaf leaves[] = {{1, 0, {}, false},
                   {7, 0, {}, false},
                   {7, 1, {}, false},
                   {0x80000001u, 0, {}, false}};
  for (Leaf &l : leaves) {
    unsigned r[4] = {0, 0, 0, 0};
    // __get_cpuid_count checks the leaf against the highest one the CPU has.
    l.valid = __get_cpuid_count(l.leaf, l.subleaf, &r[0], &r[1], &r[2], &r[3]);
    // Subleaf 1 of leaf 7 exists only when leaf 7 says so (its EAX).
    for (int i = 0; i < 4; ++i)
      l.registers[i] = l.valid ? r[i] : 0;
  }
  if (leaves[1].registers[kEax] < 1)
    leaves[2].valid = false;
  // XCR0: which register state the OS saves (only readable with OSXSAVE).
  uint64_t xcr0 = 0;
  if (leaves[0].valid && (leaves[0].registers[kEcx] >> 27) & 1) {
    uint32_t low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    xcr0 = (uint64_t(high) << 32) | low;
  }
  auto bit = [&](uint32_t leaf, uint32_t subleaf, CpuidRegister reg, int b,
                 uint64_t xcr0Mask) {
    for (const Leaf &l : leaves)
      if (l.leaf == leaf && l.subleaf == subleaf)
        return l.valid && ((l.registers[reg] >> b) & 1) &&
               (xcr0 & xcr0Mask) == xcr0Mask;
    return false;
  };
  CpuFeatureSet set;
  size_t index = 0;
#define FERRY_X(name, leaf, subleaf, reg, b, mask)                             \
  set.set(index++, bit(leaf, subleaf, reg, b, mask));
  FERRY_CPU_FEATURES(FERRY_X)
#undef FERRY_X
  return set;
}
#elif defined(__aarch64__) && defined(__linux__)
inline CpuFeatureSet CpuFeatureSet::readHost() {
  unsigned long hwcap = getauxval(AT_HWCAP);
  CpuFeatureSet set;
  size_t index = 0;
#define FERRY_X(name, mask) set.set(index++, (hwcap & (mask)) != 0);
  FERRY_CPU_FEATURES(FERRY_X)
#undef FERRY_X
  return set;
}
#else
inline CpuFeatureSet CpuFeatureSet::readHost() { return CpuFeatureSet(); }
#endif

// The first feature of a comma-separated list of LLVM feature names
// ("avx,avx2,fma") that `cpu` lacks (`unknown` false) or that is not in the
// table (`unknown` true: the runtime cannot check it); nullopt when `cpu` has
// them all. An empty list needs nothing; an empty name is unknown.
struct MissingCpuFeature {
  std::string_view name;
  bool unknown;
};
inline std::optional<MissingCpuFeature>
findMissingCpuFeature(std::string_view list,
                      const CpuFeatureSet &cpu = CpuFeatureSet::host()) {
  if (list.empty())
    return std::nullopt;
  while (true) {
    size_t comma = list.find(',');
    std::string_view name = list.substr(0, comma);
    if (!cpuFeatureIndex(name))
      return MissingCpuFeature{name, true};
    if (!cpu.has(name))
      return MissingCpuFeature{name, false};
    if (comma == std::string_view::npos)
      return std::nullopt;
    list.remove_prefix(comma + 1);
  }
}

// The architecture these features belong to, as an executable's format
// names it ("elf-x86_64"); empty where the runtime runs no executables.
inline constexpr std::string_view kHostExecutableFormat =
#if defined(__x86_64__)
    "elf-x86_64";
#elif defined(__aarch64__)
    "elf-aarch64";
#else
    "";
#endif

} // namespace ferry::hal

#endif // FERRY_RUNTIME_HAL_CPU_FEATURES_H_

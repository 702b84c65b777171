#include "runtime/hal/executable.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ferry::hal {
namespace {

// The e_machine of the host's executables.
constexpr uint16_t kHostMachine =
#if defined(__x86_64__)
    EM_X86_64;
#elif defined(__aarch64__)
    EM_AARCH64;
#else
    EM_NONE;
#endif

std::string knownFeatures() {
  std::string out;
  for (std::string_view name : kCpuFeatureNames)
    out += strCat(out.empty() ? "" : ",", name);
  return out.empty() ? "none" : out;
}

// Checks the ELF header before the dynamic loader sees the image, for
// messages that say what is wrong rather than dlopen's.
Status checkElfHeader(std::string_view owner, std::span<const uint8_t> image) {
  if (image.size() < sizeof(Elf64_Ehdr) ||
      std::memcmp(image.data(), ELFMAG, SELFMAG) != 0)
    return dataLoss(owner, " is not an ELF shared object (",
                    image.size() < SELFMAG ? "its image has only "
                                           : "bad magic; its image has ",
                    image.size(), " bytes)");
  Elf64_Ehdr header;
  std::memcpy(&header, image.data(), sizeof(header));
  if (header.e_ident[EI_CLASS] != ELFCLASS64)
    return dataLoss(owner, " is not a 64-bit ELF object");
  if (header.e_type != ET_DYN)
    return dataLoss(owner, " is an ELF object of type ", header.e_type,
                    ", not a shared object (ET_DYN)");
  if (header.e_machine != kHostMachine)
    return failedPrecondition(owner, " is ELF code for machine ",
                              header.e_machine, ", not this one (",
                              kHostMachine, ")");
  return okStatus();
}

// Closes file descriptors on scope exit.
struct FdList {
  std::vector<int> fds;
  ~FdList() {
    for (int fd : fds)
      ::close(fd);
  }
};

// The path dlopen() is given for memory file `fd`.
std::string fdPath(int fd) { return strCat("/proc/self/fd/", fd); }

// Whether `symbol` (a dlsym result) is defined in `library` itself rather
// than in one of its dependencies (dlsym searches those too).
bool definedIn(void *library, void *symbol) {
  struct link_map *map = nullptr;
  Dl_info info;
  if (dlinfo(library, RTLD_DI_LINKMAP, &map) != 0 || !map ||
      dladdr(symbol, &info) == 0 || !info.dli_fname)
    return false;
  return std::strcmp(info.dli_fname, map->l_name) == 0;
}

} // namespace

Result<std::shared_ptr<Executable>> Executable::load(const ExecutableSpec &spec,
                                                     const CpuFeatureSet &cpu) {
  std::string owner = strCat("executable '", spec.name, "'");
  if (kHostExecutableFormat.empty())
    return unimplemented(owner, ": this runtime cannot run native executables "
                                "on this architecture");
  if (spec.format != kHostExecutableFormat)
    return failedPrecondition(owner, " is ", spec.format,
                              " code but this runtime runs ",
                              kHostExecutableFormat);
  // Before any of the image is mapped: a feature the CPU lacks must never
  // become an illegal instruction.
  if (std::optional<MissingCpuFeature> missing =
          findMissingCpuFeature(spec.cpuFeatures, cpu)) {
    if (missing->unknown)
      return unimplemented(owner, " uses CPU feature '", missing->name,
                           "', which this runtime cannot check (it checks: ",
                           knownFeatures(), ")");
    return failedPrecondition(owner, " uses CPU feature '", missing->name,
                              "', which this CPU does not have (compiled for "
                              "another machine? recompile it for this one)");
  }
  FERRY_RETURN_IF_ERROR(checkElfHeader(owner, spec.image));

  // The image goes into an anonymous memory file, loaded by its /proc path.
  FdList fds;
  // The name shows in /proc/self/maps; memfd_create takes at most 249 bytes.
  int fd = memfd_create(
      strCat("ferry-executable-", spec.name.substr(0, 200)).c_str(),
      MFD_CLOEXEC);
  if (fd < 0)
    return internalError(owner,
                         ": memfd_create failed: ", std::strerror(errno));
  fds.fds.push_back(fd);
  for (size_t written = 0; written < spec.image.size();) {
    ssize_t n =
        ::write(fd, spec.image.data() + written, spec.image.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return internalError(owner,
                           ": writing its image to a memory file failed: ",
                           std::strerror(errno));
    written += size_t(n);
  }
  // The dynamic loader matches libraries by path: a library still loaded
  // from an earlier memory file that had this descriptor number would be
  // returned instead of this image. Take another number until it is free.
  for (int tries = 0;; ++tries) {
    void *existing =
        dlopen(fdPath(fd).c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!existing)
      break;
    dlclose(existing);
    if (tries == 64)
      return internalError(owner, ": no free descriptor path to load it from");
    fd = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
      return internalError(owner, ": dup failed: ", std::strerror(errno));
    fds.fds.push_back(fd);
  }

  std::shared_ptr<Executable> executable(new Executable());
  executable->name_ = std::string(spec.name);
  executable->library_ = dlopen(fdPath(fd).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!executable->library_) {
    const char *why = dlerror();
    return dataLoss(owner, " cannot be loaded: ", why ? why : "unknown error");
  }
  void *library = executable->library_;
  auto *version = static_cast<const uint32_t *>(
      dlsym(library, FERRY_EXECUTABLE_ABI_VERSION_SYMBOL));
  if (!version || !definedIn(library, (void *)version))
    return dataLoss(owner, " does not export ",
                    FERRY_EXECUTABLE_ABI_VERSION_SYMBOL,
                    " (not a Ferry executable)");
  if (*version != FERRY_EXECUTABLE_ABI_VERSION)
    return failedPrecondition(owner, " has executable ABI version ", *version,
                              " but this runtime supports version ",
                              FERRY_EXECUTABLE_ABI_VERSION,
                              "; recompile it with a matching ferry-compile");
  for (const ExecutableEntrySpec &spec : spec.entries) {
    Entry entry;
    entry.name = std::string(spec.name);
    entry.pushConstantCount = spec.pushConstantCount;
    entry.bindingAccess.assign(spec.bindingAccess.begin(),
                               spec.bindingAccess.end());
    entry.kind = spec.kind;
    void *symbol = dlsym(library, entry.name.c_str());
    if (!symbol || !definedIn(library, symbol))
      return notFound(owner, " does not export entry '", entry.name, "'");
    entry.function = reinterpret_cast<ferry_executable_entry_fn_t>(symbol);
    executable->entries_.push_back(std::move(entry));
  }
  return executable;
}

Executable::~Executable() {
  if (library_)
    dlclose(library_);
}

} // namespace ferry::hal

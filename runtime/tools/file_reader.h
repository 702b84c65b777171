// Reading the files the tools take (Ferry modules, NumPy .npy inputs) with
// every read bounded by what the file's own header says it holds.
//
// A format is recognised from its first bytes, and a reader asks for the
// header, learns from it how long the file must be, and reads exactly that
// much plus one byte (to tell a file that goes on). So a file whose magic is
// wrong is refused after a few bytes, one shorter or longer than its header
// says gets an error saying so, and one that never ends (/dev/zero, a pipe
// fed forever) costs no more than its header promises instead of being read
// until memory runs out. Every message names the file.
//
// Ownership/threads: a BoundedFileReader owns its open file; use it from one
// thread. The free functions touch only their path.
#ifndef FERRY_RUNTIME_TOOLS_FILE_READER_H_
#define FERRY_RUNTIME_TOOLS_FILE_READER_H_

#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/base/status.h"

namespace ferry::tools {

// What a file's first bytes say it is.
enum class FileFormat { kUnknown, kFerryModule, kNumPy };
FileFormat recognizeFileFormat(std::span<const uint8_t> prefix);
// "a Ferry module (.fvm)", "a NumPy .npy file", "an unknown format".
std::string_view describeFileFormat(FileFormat format);

// Reads a file front to back, no further than asked.
class BoundedFileReader {
public:
  // Fails with "cannot open 'PATH': REASON".
  static Result<BoundedFileReader> open(std::string path);

  const std::string &path() const { return path_; }
  // Everything read so far, from the start of the file.
  std::span<const uint8_t> bytes() const { return bytes_; }
  std::vector<uint8_t> takeBytes() { return std::move(bytes_); }
  // The file's size when it is a regular file (its length is known before
  // reading); nullopt for devices, pipes and the like.
  std::optional<uint64_t> regularFileSize() const { return regularSize_; }

  // Reads until `total` bytes have been read from the start, or the file
  // ends first (bytes() is then shorter). Fails only on a read error (whose
  // message, like the others below, leaves naming the path to the caller).
  Status readUpTo(uint64_t total);
  // Whether the file ends after the bytes read so far. Reads at most one
  // more byte (kept in bytes()).
  Result<bool> endsHere();

private:
  struct Closer {
    void operator()(std::FILE *file) const { std::fclose(file); }
  };
  BoundedFileReader(std::string path, std::FILE *file,
                    std::optional<uint64_t> regularSize)
      : path_(std::move(path)), file_(file), regularSize_(regularSize) {}

  std::string path_;
  std::unique_ptr<std::FILE, Closer> file_;
  std::optional<uint64_t> regularSize_;
  std::vector<uint8_t> bytes_;
  bool ended_ = false;
};

// The error for a file holding more than its header says: "its WHAT says
// the file holds DECLARED bytes, but it has SIZE" (or "goes on past them"
// when the file's size is not known).
Status fileLongerThanDeclared(const BoundedFileReader &reader,
                              std::string_view what, uint64_t declared);

// A whole Ferry module file, as vm::Module::load() takes it: the header,
// then the payload it declares and no more (a longer file is an error; a
// shorter one is returned as it is, for the loader to say what is missing).
// Errors name the path; those about the header are the loader's own.
Result<std::vector<uint8_t>> readModuleFile(const std::string &path);

// Writes `bytes` as the whole of `path`; messages name the path and the
// errno of the call that failed (fwrite, fflush or fclose).
Status writeFileBytes(const std::string &path, std::span<const uint8_t> bytes);
// Writes `text` to stdout and flushes it; fails with the system error if it
// was not all written (e.g. `> /dev/full`).
Status writeStdout(std::string_view text);

// An ostream onto stdout for output too large to collect first (ferry-run's
// results): writes go straight to stdio, and finish() flushes and reports
// the first failed write with its system error, like writeStdout.
class StdoutStream : public std::ostream {
public:
  StdoutStream();
  Status finish();

private:
  class Buffer : public std::streambuf {
  public:
    std::optional<int> error; // errno of the first failed write
  protected:
    std::streamsize xsputn(const char *data, std::streamsize count) override;
    int_type overflow(int_type c) override;
  };
  Buffer buffer_;
};

} // namespace ferry::tools

#endif // FERRY_RUNTIME_TOOLS_FILE_READER_H_

#include "runtime/tools/file_reader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <sys/stat.h>

#include "runtime/tools/npy.h"
#include "runtime/vm/bytecode_format.h"
#include "runtime/vm/module.h"

namespace ferry::tools {

FileFormat recognizeFileFormat(std::span<const uint8_t> prefix) {
  auto startsWith = [&](std::span<const uint8_t> magic) {
    return prefix.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), prefix.begin());
  };
  if (startsWith(
          std::span(reinterpret_cast<const uint8_t *>(vm::bytecode::kMagic),
                    sizeof(vm::bytecode::kMagic))))
    return FileFormat::kFerryModule;
  if (startsWith(kNpyMagic))
    return FileFormat::kNumPy;
  return FileFormat::kUnknown;
}

std::string_view describeFileFormat(FileFormat format) {
  switch (format) {
  case FileFormat::kFerryModule:
    return "a Ferry module (.fvm)";
  case FileFormat::kNumPy:
    return "a NumPy .npy file";
  case FileFormat::kUnknown:
    break;
  }
  return "an unknown format";
}

Result<BoundedFileReader> BoundedFileReader::open(std::string path) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return notFound("cannot open '", path, "': ", std::strerror(errno));
  std::optional<uint64_t> regularSize;
  struct stat info;
  if (fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode))
    regularSize = uint64_t(info.st_size);
  return BoundedFileReader(std::move(path), file, regularSize);
}

Status BoundedFileReader::readUpTo(uint64_t total) {
  // Chunks bound what is allocated ahead of bytes that actually arrive.
  constexpr uint64_t kChunkBytes = uint64_t(1) << 20;
  if (regularSize_)
    bytes_.reserve(size_t(std::min(total, *regularSize_ + 1)));
  while (!ended_ && bytes_.size() < total) {
    size_t have = bytes_.size();
    size_t want = size_t(std::min<uint64_t>(total - have, kChunkBytes));
    bytes_.resize(have + want);
    size_t got = std::fread(bytes_.data() + have, 1, want, file_.get());
    bytes_.resize(have + got);
    if (got < want) {
      if (std::ferror(file_.get()))
        return invalidArgument("read failed: ", std::strerror(errno));
      ended_ = true;
    }
  }
  return okStatus();
}

Result<bool> BoundedFileReader::endsHere() {
  FERRY_RETURN_IF_ERROR(readUpTo(bytes_.size() + 1));
  return ended_;
}

Status fileLongerThanDeclared(const BoundedFileReader &reader,
                              std::string_view what, uint64_t declared) {
  std::optional<uint64_t> size = reader.regularFileSize();
  return invalidArgument(
      "its ", what, " says the file holds ", declared, " bytes, but ",
      size ? strCat("it has ", *size)
           : std::string("it goes on past them (a device or a pipe that "
                         "does not end?)"));
}

static Result<std::vector<uint8_t>> readModule(BoundedFileReader &reader) {
  FERRY_RETURN_IF_ERROR(reader.readUpTo(vm::bytecode::kHeaderBytes));
  Result<uint64_t> declared = vm::Module::declaredFileBytes(reader.bytes());
  if (!declared.ok()) {
    FileFormat format = recognizeFileFormat(reader.bytes());
    if (format != FileFormat::kFerryModule && format != FileFormat::kUnknown)
      return invalidArgument("not a Ferry module: it is ",
                             describeFileFormat(format));
    return declared.status();
  }
  std::optional<uint64_t> size = reader.regularFileSize();
  if (size && *size > *declared)
    return fileLongerThanDeclared(reader, "module header", *declared);
  // A shorter file is read whole: the loader says how much is missing.
  FERRY_RETURN_IF_ERROR(reader.readUpTo(*declared));
  if (reader.bytes().size() == *declared) {
    FERRY_ASSIGN_OR_RETURN(bool ends, reader.endsHere());
    if (!ends)
      return fileLongerThanDeclared(reader, "module header", *declared);
  }
  return reader.takeBytes();
}

Result<std::vector<uint8_t>> readModuleFile(const std::string &path) {
  FERRY_ASSIGN_OR_RETURN(BoundedFileReader reader,
                         BoundedFileReader::open(path));
  Result<std::vector<uint8_t>> bytes = readModule(reader);
  if (!bytes.ok())
    return bytes.status().withContext(strCat("'", path, "'"));
  return bytes;
}

namespace {

// Writes and flushes `bytes`; on failure, the errno of the first call that
// failed, read right after it (0 if it set none). The stream buffers, so a
// full disk may show at fwrite or only at fflush.
std::optional<int> writeAndFlush(std::FILE *file,
                                 std::span<const uint8_t> bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size())
    return errno;
  if (std::fflush(file) != 0)
    return errno;
  return std::nullopt;
}

std::string_view describeErrno(int error) {
  return error ? std::strerror(error) : "short write";
}

} // namespace

Status writeFileBytes(const std::string &path, std::span<const uint8_t> bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return invalidArgument("cannot write '", path, "': ", std::strerror(errno));
  std::optional<int> error = writeAndFlush(file, bytes);
  if (std::fclose(file) != 0 && !error)
    error = errno;
  if (!error)
    return okStatus();
  return invalidArgument("cannot write '", path, "': ", describeErrno(*error));
}

Status writeStdout(std::string_view text) {
  std::optional<int> error = writeAndFlush(
      stdout,
      std::span(reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  if (!error)
    return okStatus();
  return invalidArgument("cannot write to standard output: ",
                         describeErrno(*error));
}

StdoutStream::StdoutStream() : std::ostream(&buffer_) {}

std::streamsize StdoutStream::Buffer::xsputn(const char *data,
                                             std::streamsize count) {
  if (error)
    return 0;
  size_t written = std::fwrite(data, 1, size_t(count), stdout);
  if (written != size_t(count))
    error = errno;
  return std::streamsize(written);
}

StdoutStream::Buffer::int_type StdoutStream::Buffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof()))
    return traits_type::not_eof(c);
  char one = traits_type::to_char_type(c);
  return xsputn(&one, 1) == 1 ? c : traits_type::eof();
}

Status StdoutStream::finish() {
  if (!buffer_.error && std::fflush(stdout) != 0)
    buffer_.error = errno;
  if (!buffer_.error)
    return okStatus();
  return invalidArgument("cannot write to standard output: ",
                         describeErrno(*buffer_.error));
}

} // namespace ferry::tools

// Reading modules and .npy files no further than their headers say: wrong
// magic, files shorter or longer than declared, and files that never end
// (a device, a pipe) all fail quickly with messages naming the file.
#include "runtime/tools/file_reader.h"

#include <csignal>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <thread>
#include <unistd.h>

#include "runtime/tools/npy.h"
#include "runtime/tools/testing/scratch_directory.h"
#include "runtime/vm/module.h"
#include "runtime/vm/testing/sample_modules.h"

namespace ferry::tools {
namespace {

class FileReaderTest : public testing::ScratchDirectoryTest {
protected:
  static std::string message(const Status &status) {
    return status.ok() ? "<ok>" : status.message();
  }

  std::vector<uint8_t> module = vm::testing::buildElementwiseModule();
  std::vector<uint8_t> npy =
      encodeNpy(std::vector<int64_t>{2, 2}, hal::ElementType::kI8,
                std::vector<uint8_t>{1, 2, 3, 4});
};

// Feeds `head` then zeros forever into a pipe, as `cat head /dev/zero |`
// would; the reader gets the pipe's /dev/fd path.
class EndlessPipe {
public:
  explicit EndlessPipe(std::vector<uint8_t> head) {
    std::signal(SIGPIPE, SIG_IGN); // the writer sees EPIPE once we close
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    readFd = fds[0];
    writer = std::thread([fd = fds[1], head = std::move(head)] {
      std::vector<uint8_t> zeros(1 << 16, 0);
      bool ok = write(fd, head.data(), head.size()) == ssize_t(head.size());
      while (ok)
        ok = write(fd, zeros.data(), zeros.size()) > 0;
      close(fd);
    });
  }
  ~EndlessPipe() {
    close(readFd);
    writer.join();
  }
  std::string path() const { return strCat("/dev/fd/", readFd); }

private:
  int readFd = -1;
  std::thread writer;
};

TEST_F(FileReaderTest, RecognizesFormatsByTheirFirstBytes) {
  EXPECT_EQ(recognizeFileFormat(module), FileFormat::kFerryModule);
  EXPECT_EQ(recognizeFileFormat(npy), FileFormat::kNumPy);
  EXPECT_EQ(recognizeFileFormat(std::vector<uint8_t>(64, 0)),
            FileFormat::kUnknown);
  EXPECT_EQ(recognizeFileFormat(std::span(module).first(3)),
            FileFormat::kUnknown);
}

TEST_F(FileReaderTest, ReadsWholeFilesOfTheDeclaredSize) {
  Result<std::vector<uint8_t>> read = readModuleFile(write("m.fvm", module));
  ASSERT_TRUE(read.ok()) << read.status().toString();
  EXPECT_EQ(*read, module);
  Result<HostTensor> tensor = readNpyFile(write("a.npy", npy));
  ASSERT_TRUE(tensor.ok()) << tensor.status().toString();
  EXPECT_EQ(tensor->typeString(), "2x2xi8");
}

TEST_F(FileReaderTest, WrongMagicNamesTheFileAndWhatItIs) {
  std::string npyPath = write("a.npy", npy);
  EXPECT_EQ(message(readModuleFile(npyPath).status()),
            "'" + npyPath + "': not a Ferry module: it is a NumPy .npy file");
  std::string modulePath = write("m.fvm", module);
  EXPECT_EQ(message(readNpyFile(modulePath).status()),
            "'" + modulePath +
                "': not a NumPy .npy file: it is a Ferry module (.fvm)");
  EXPECT_EQ(message(readModuleFile("/dev/zero").status()),
            "'/dev/zero': not a Ferry module (bad magic; expected a .fvm "
            "file written by ferry-compile)");
  EXPECT_EQ(message(readNpyFile("/dev/zero").status()),
            "'/dev/zero': not a NumPy .npy file (bad magic)");
}

TEST_F(FileReaderTest, FilesLongerThanTheirHeaderSays) {
  std::vector<uint8_t> longer = module;
  longer.resize(module.size() + 100);
  std::string path = write("long.fvm", longer);
  EXPECT_EQ(message(readModuleFile(path).status()),
            strCat("'", path, "': its module header says the file holds ",
                   module.size(), " bytes, but it has ", longer.size()));
  longer = npy;
  longer.push_back(5);
  path = write("long.npy", longer);
  EXPECT_EQ(message(readNpyFile(path).status()),
            strCat("'", path, "': its NumPy header says the file holds ",
                   npy.size(), " bytes, but it has ", npy.size() + 1));
}

TEST_F(FileReaderTest, FilesShorterThanTheirHeaderSays) {
  // A module shorter than its header says is read whole (no further than
  // its end), and the loader says what is missing.
  std::string path =
      write("short.fvm", std::span(module).first(module.size() - 1));
  Result<std::vector<uint8_t>> read = readModuleFile(path);
  ASSERT_TRUE(read.ok()) << read.status().toString();
  EXPECT_EQ(read->size(), module.size() - 1);
  EXPECT_EQ(message(vm::Module::load(*read).status()),
            strCat("module file is truncated: header says ", module.size() - 32,
                   " payload bytes, file has ", module.size() - 33));
  path = write("header.fvm", std::span(module).first(20));
  EXPECT_EQ(message(readModuleFile(path).status()),
            "'" + path +
                "': module file is truncated: the header needs 32 bytes, "
                "file has 20");
  path = write("short.npy", std::span(npy).first(npy.size() - 1));
  EXPECT_EQ(message(readNpyFile(path).status()),
            "'" + path + "': shape 2x2xi8 needs 4 data bytes, file has 3");
}

TEST_F(FileReaderTest, FilesThatNeverEndStopAtTheirDeclaredSize) {
  {
    EndlessPipe pipe(module);
    EXPECT_EQ(message(readModuleFile(pipe.path()).status()),
              strCat("'", pipe.path(),
                     "': its module header says the file holds ", module.size(),
                     " bytes, but it goes on past them (a device or a pipe "
                     "that does not end?)"));
  }
  {
    EndlessPipe pipe(npy);
    EXPECT_EQ(message(readNpyFile(pipe.path()).status()),
              strCat("'", pipe.path(),
                     "': its NumPy header says the file "
                     "holds ",
                     npy.size(),
                     " bytes, but it goes on past them (a device or a pipe "
                     "that does not end?)"));
  }
  // A header may claim more than the payload it comes with: reading still
  // stops one byte past what it claims.
  std::vector<uint8_t> huge = module;
  huge[16] = 0x00;
  huge[17] = 0x00;
  huge[18] = 0x10; // payload of 1 MiB: zeros after the real payload
  huge[19] = huge[20] = huge[21] = huge[22] = huge[23] = 0;
  {
    EndlessPipe pipe(huge);
    Result<std::vector<uint8_t>> read = readModuleFile(pipe.path());
    ASSERT_FALSE(read.ok());
    EXPECT_NE(read.status().message().find("goes on past them"),
              std::string::npos)
        << read.status().toString();
  }
}

TEST_F(FileReaderTest, NpyHeadersAreBounded) {
  // Version 2 with a 4 GiB header: refused before reading it.
  std::vector<uint8_t> file = {0x93, 'N', 'U',  'M',  'P',  'Y',
                               2,    0,   0xff, 0xff, 0xff, 0xff};
  EndlessPipe pipe(file);
  EXPECT_EQ(message(readNpyFile(pipe.path()).status()),
            "'" + pipe.path() +
                "': header of 4294967295 bytes is larger than a supported "
                "array's (at most 1048576)");
}

TEST_F(FileReaderTest, UnreadableFilesNameThePath) {
  EXPECT_EQ(message(readModuleFile(dir + "/missing.fvm").status()),
            "cannot open '" + dir + "/missing.fvm': No such file or directory");
  EXPECT_EQ(message(readModuleFile(dir).status()),
            "'" + dir + "': read failed: Is a directory");
}

} // namespace
} // namespace ferry::tools

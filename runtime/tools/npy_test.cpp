#include "runtime/tools/file_reader.h"
#include "runtime/tools/npy.h"

#include <gtest/gtest.h>

namespace ferry::tools {
namespace {

using hal::ElementType;

std::vector<uint8_t> npyWithHeader(std::string header,
                                   std::vector<uint8_t> data) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  out.push_back(uint8_t(header.size()));
  out.push_back(uint8_t(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

TEST(NpyTest, RoundTripsEveryTypeAndRank) {
  for (ElementType type :
       {ElementType::kI8, ElementType::kI16, ElementType::kI32,
        ElementType::kI64, ElementType::kF32, ElementType::kF64,
        ElementType::kF16, ElementType::kBF16}) {
    for (std::vector<int64_t> shape :
         {std::vector<int64_t>{}, {3}, {2, 3}, {0, 4}}) {
      size_t count = 1;
      for (int64_t d : shape)
        count *= size_t(d);
      std::vector<uint8_t> bytes(count * hal::elementByteSize(type));
      for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = uint8_t(i * 7);
      std::vector<uint8_t> file = encodeNpy(shape, type, bytes);
      EXPECT_EQ((file.size() - bytes.size()) % 64, 0u);
      Result<HostTensor> tensor = parseNpy(file);
      ASSERT_TRUE(tensor.ok()) << tensor.status().toString();
      EXPECT_EQ(tensor->shape, shape);
      EXPECT_EQ(tensor->elementType, type);
      EXPECT_EQ(tensor->bytes, bytes);
    }
  }
}

TEST(NpyTest, ReadsWhatNumPyWrites) {
  // np.save of np.array([[1,2],[3,4]], dtype=np.int8) (header abbreviated).
  auto file = npyWithHeader(
      "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 2), }\n",
      {1, 2, 3, 4});
  Result<HostTensor> tensor = parseNpy(file);
  ASSERT_TRUE(tensor.ok()) << tensor.status().toString();
  EXPECT_EQ(tensor->typeString(), "2x2xi8");
}

// Bools ('|b1') are Ferry's i1, one byte of 0 or 1; float16 ('<f2') is f16
// and a uint16 array ('<u2') bf16 bits (npy.h).
TEST(NpyTest, BoolsHalvesAndBf16Bits) {
  struct Case {
    std::string descr;
    ElementType type;
  };
  for (const Case &c :
       {Case{"|b1", ElementType::kI1}, Case{"<f2", ElementType::kF16},
        Case{"<u2", ElementType::kBF16}}) {
    size_t size = hal::elementByteSize(c.type);
    std::vector<uint8_t> data(2 * size, 0);
    data[0] = 1;
    auto file = npyWithHeader("{'descr': '" + c.descr +
                                  "', 'fortran_order': False, 'shape': (2,), }",
                              data);
    Result<HostTensor> tensor = parseNpy(file);
    ASSERT_TRUE(tensor.ok()) << c.descr << ": " << tensor.status().toString();
    EXPECT_EQ(tensor->elementType, c.type) << c.descr;
    EXPECT_EQ(tensor->bytes, data) << c.descr;
    std::vector<uint8_t> written =
        encodeNpy(tensor->shape, tensor->elementType, tensor->bytes);
    std::string text(written.begin(), written.end());
    EXPECT_NE(text.find("'descr': '" + c.descr + "'"), std::string::npos)
        << text;
  }
  Result<HostTensor> notBool = parseNpy(npyWithHeader(
      "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", {0, 2}));
  ASSERT_FALSE(notBool.ok());
  EXPECT_EQ(notBool.status().message(),
            "bool element 1 is 2; a bool is 0 or 1");
}

TEST(NpyTest, ClearErrors) {
  auto error = [](std::vector<uint8_t> file) {
    Result<HostTensor> tensor = parseNpy(file);
    return tensor.ok() ? "<ok>" : tensor.status().message();
  };
  EXPECT_EQ(error({1, 2, 3}), "not a NumPy .npy file (bad magic)");
  EXPECT_EQ(error(npyWithHeader(
                "{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }",
                {0, 0, 0, 0})),
            "unsupported dtype '<u4' (supported: |b1 |i1 <i2 <i4 <i8 <f2 <f4 "
            "<f8, and <u2 for bf16 bits)");
  EXPECT_NE(error(npyWithHeader(
                      "{'descr': '>i4', 'fortran_order': False, 'shape': (1,), "
                      "}",
                      {0, 0, 0, 0}))
                .find("big-endian"),
            std::string::npos);
  EXPECT_NE(
      error(npyWithHeader(
                "{'descr': '<i4', 'fortran_order': True, 'shape': (1,), }",
                {0, 0, 0, 0}))
          .find("Fortran-order"),
      std::string::npos);
  EXPECT_EQ(error(npyWithHeader(
                "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }",
                {0, 0, 0, 0})),
            "shape 2xi32 needs 8 data bytes, file has 4");
  std::vector<uint8_t> truncated = npyWithHeader("{'descr'", {});
  truncated[8] = 200;
  EXPECT_EQ(error(truncated), "file is truncated in its header");
}

TEST(NpyTest, MissingFileNamesPathAndReason) {
  Result<HostTensor> tensor = readNpyFile("/nonexistent/x.npy");
  ASSERT_FALSE(tensor.ok());
  EXPECT_EQ(tensor.status().message(),
            "cannot open '/nonexistent/x.npy': No such file or directory");
}

// A full device fails at the flush or close of the buffered stream, not at
// fwrite: the message carries that call's errno.
TEST(NpyTest, WriteErrorNamesPathAndReason) {
  std::vector<uint8_t> small(16, 1), large(1 << 20, 1);
  for (const std::vector<uint8_t> *bytes : {&small, &large}) {
    Status status = writeFileBytes("/dev/full", *bytes);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.message(),
              "cannot write '/dev/full': No space left on device");
  }
  std::vector<int64_t> shape = {4};
  Status npy = writeNpyFile("/dev/full", shape, ElementType::kI32, small);
  EXPECT_EQ(npy.message(), "cannot write '/dev/full': No space left on device");
  EXPECT_EQ(writeFileBytes("/nonexistent/x.npy", small).message(),
            "cannot write '/nonexistent/x.npy': No such file or directory");
}

} // namespace
} // namespace ferry::tools

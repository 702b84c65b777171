#include "runtime/tools/host_tensor.h"

#include <cstring>
#include <gtest/gtest.h>
#include <sstream>

namespace ferry::tools {
namespace {

using hal::ElementType;

std::string roundTrip(std::string_view literal) {
  Result<HostTensor> tensor = parseTensorLiteral(literal);
  if (!tensor.ok())
    return "error: " + tensor.status().message();
  return formatTensor(tensor->shape, tensor->elementType, tensor->bytes);
}

std::string parseError(std::string_view literal) {
  Result<HostTensor> tensor = parseTensorLiteral(literal);
  return tensor.ok() ? "<ok>" : tensor.status().message();
}

TEST(HostTensorTest, ParsesAndPrintsEveryRank) {
  EXPECT_EQ(roundTrip("4xi32=11,22,33,44"), "4xi32=[11 22 33 44]");
  EXPECT_EQ(roundTrip("2x3xi32=1,2,3,4,5,6"), "2x3xi32=[1 2 3][4 5 6]");
  EXPECT_EQ(roundTrip("2x2x2xi32=1,2,3,4,5,6,7,8"),
            "2x2x2xi32=[[1 2][3 4]][[5 6][7 8]]");
  EXPECT_EQ(roundTrip("i32=5"), "i32=5");
  EXPECT_EQ(roundTrip("0xi32="), "0xi32=[]");
  EXPECT_EQ(roundTrip("2x0xi32="), "2x0xi32=[][]");
  EXPECT_EQ(roundTrip("0x3xf32="), "0x3xf32=[]");
}

TEST(HostTensorTest, EveryElementType) {
  EXPECT_EQ(roundTrip("3xi8=-128,127,+5"), "3xi8=[-128 127 5]");
  EXPECT_EQ(roundTrip("2xi16=-32768,32767"), "2xi16=[-32768 32767]");
  EXPECT_EQ(roundTrip("2xi64=-9223372036854775808,9223372036854775807"),
            "2xi64=[-9223372036854775808 9223372036854775807]");
  EXPECT_EQ(roundTrip("4xf32=1.5,2.0,0.1,-3"), "4xf32=[1.5 2 0.1 -3]");
  EXPECT_EQ(roundTrip("3xf64=0.1,1e300,inf"), "3xf64=[0.1 1e+300 inf]");
  EXPECT_EQ(roundTrip("2xf32= 1 , 2 "), "2xf32=[1 2]");
}

// i1 reads and prints 0 or 1 (one byte each); f16 and bf16 read a decimal
// rounded once to nearest even and print the shortest decimal of the float
// they hold, which reads back to the same bits.
TEST(HostTensorTest, NewElementTypesRoundTrip) {
  EXPECT_EQ(roundTrip("3xi1=1,0,1"), "3xi1=[1 0 1]");
  EXPECT_EQ(roundTrip("4xf16=1.5,-0.1,65504,6e-8"),
            "4xf16=[1.5 -0.099975586 65504 5.9604645e-08]");
  EXPECT_EQ(roundTrip("4xbf16=1.5,-0.1,3e38,inf"),
            "4xbf16=[1.5 -0.100097656 3.0040553e+38 inf]");
  EXPECT_EQ(roundTrip("4xf16=1.5,-0.099975586,65504,5.9604645e-08"),
            "4xf16=[1.5 -0.099975586 65504 5.9604645e-08]");
  HostTensor half = *parseTensorLiteral("2xf16=1,0.1");
  EXPECT_EQ(half.bytes, (std::vector<uint8_t>{0x00, 0x3c, 0x66, 0x2e}));
  HostTensor bf = *parseTensorLiteral("2xbf16=1,0.1");
  EXPECT_EQ(bf.bytes, (std::vector<uint8_t>{0x80, 0x3f, 0xcd, 0x3d}));
  HostTensor mask = *parseTensorLiteral("2xi1=1,0");
  EXPECT_EQ(mask.bytes, (std::vector<uint8_t>{1, 0}));
}

TEST(HostTensorTest, NamesTheProblem) {
  EXPECT_EQ(parseError("4xi32=1,2,x,4"), "'x' is not a valid i32");
  EXPECT_EQ(parseError("4xi32=1,2,3"), "4xi32 needs 4 values, got 3");
  EXPECT_EQ(parseError("i32="), "i32 needs 1 value, got 0");
  EXPECT_EQ(parseError("2xi8=1,300"), "'300' is not a valid i8");
  EXPECT_EQ(parseError("2xf32=1,1e99"), "'1e99' is not a valid f32");
  EXPECT_EQ(parseError("2xi32=1.5,2"), "'1.5' is not a valid i32");
  EXPECT_EQ(parseError("4xi33=1,2,3,4"),
            "unknown element type 'i33' in '4xi33' (expected i1, i8, i16, "
            "i32, i64, f16, bf16, f32 or f64)");
  EXPECT_EQ(parseError("2xi1=1,2"), "'2' is not a valid i1");
  EXPECT_EQ(parseError("2xf16=1,70000"), "'70000' is not a valid f16");
  EXPECT_EQ(parseError("2xbf16=1,1e39"), "'1e39' is not a valid bf16");
  EXPECT_EQ(parseError("?xi32=1"), "'?' is not a valid dimension in '?xi32'");
  EXPECT_EQ(parseError("-1xi32=1"),
            "'-1' is not a valid dimension in '-1xi32'");
  EXPECT_EQ(parseError("4xi32"),
            "expected SHAPExTYPE=VALUES, e.g. 4xi32=1,2,3,4");
  EXPECT_EQ(parseError("2xi32=1,"), "'' is not a valid i32");
  // One sign only.
  EXPECT_EQ(parseError("2xi32=1,+-1"), "'+-1' is not a valid i32");
  EXPECT_EQ(parseError("2xi64=1,+-1"), "'+-1' is not a valid i64");
  EXPECT_EQ(parseError("2xf32=1,+-1.5"), "'+-1.5' is not a valid f32");
  EXPECT_EQ(parseError("2xf64=+-inf,1"), "'+-inf' is not a valid f64");
  EXPECT_EQ(parseError("2xi8=++1,1"), "'++1' is not a valid i8");
  EXPECT_EQ(parseError("2xi16=-+1,1"), "'-+1' is not a valid i16");
  EXPECT_EQ(parseError("2xi32=+,1"), "'+' is not a valid i32");
  EXPECT_NE(parseError("99999999999x99999999999xi64=").find("too large"),
            std::string::npos);
  std::string deep;
  for (int i = 0; i < 100; ++i)
    deep += "1x";
  EXPECT_NE(parseError(deep + "i32=1").find("rank 100; at most 64"),
            std::string::npos);
}

TEST(HostTensorTest, ParsedBytesAreLittleEndianRowMajor) {
  HostTensor tensor = *parseTensorLiteral("2x2xi16=1,2,3,-1");
  EXPECT_EQ(tensor.shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(tensor.bytes, (std::vector<uint8_t>{1, 0, 2, 0, 3, 0, 0xff, 0xff}));
}

// 0, 1, 2, ... as `count` i32s.
std::vector<uint8_t> iota32(int32_t count) {
  std::vector<uint8_t> bytes(size_t(count) * 4);
  for (int32_t i = 0; i < count; ++i)
    std::memcpy(bytes.data() + size_t(i) * 4, &i, 4);
  return bytes;
}

TEST(HostTensorTest, SummarizesBeyondTheLimitLikeNumPy) {
  std::vector<int64_t> row = {2000};
  EXPECT_EQ(formatTensor(row, ElementType::kI32, iota32(2000), 1000),
            "2000xi32=[0 1 2 ... 1997 1998 1999]");
  // At the limit everything prints; one more summarizes.
  std::vector<int64_t> ten = {10};
  EXPECT_EQ(formatTensor(ten, ElementType::kI32, iota32(10), 10),
            "10xi32=[0 1 2 3 4 5 6 7 8 9]");
  EXPECT_EQ(formatTensor(ten, ElementType::kI32, iota32(10), 9),
            "10xi32=[0 1 2 ... 7 8 9]");
  // Every dimension longer than 6 is cut, shorter ones print whole.
  std::vector<int64_t> matrix = {8, 8};
  EXPECT_EQ(formatTensor(matrix, ElementType::kI32, iota32(64), 63),
            "8x8xi32=[0 1 2 ... 5 6 7][8 9 10 ... 13 14 15]"
            "[16 17 18 ... 21 22 23]...[40 41 42 ... 45 46 47]"
            "[48 49 50 ... 53 54 55][56 57 58 ... 61 62 63]");
  std::vector<int64_t> tall = {8, 2};
  EXPECT_EQ(formatTensor(tall, ElementType::kI32, iota32(16), 15),
            "8x2xi32=[0 1][2 3][4 5]...[10 11][12 13][14 15]");
  std::vector<int64_t> cube = {2, 7, 1};
  EXPECT_EQ(formatTensor(cube, ElementType::kI32, iota32(14), 1),
            "2x7x1xi32=[[0][1][2]...[4][5][6]][[7][8][9]...[11][12][13]]");
  // Small tensors never change; nor do scalars and empty ones.
  std::vector<int64_t> six = {6};
  EXPECT_EQ(formatTensor(six, ElementType::kI32, iota32(6), 0),
            "6xi32=[0 1 2 3 4 5]");
  EXPECT_EQ(formatTensor({}, ElementType::kI32, iota32(1), 0), "i32=0");
  std::vector<int64_t> empty = {0, 7};
  EXPECT_EQ(formatTensor(empty, ElementType::kI32, {}, 0), "0x7xi32=[]");
}

TEST(HostTensorTest, SummariesOfEveryElementType) {
  std::vector<int64_t> shape = {7};
  std::vector<uint8_t> f64(7 * 8);
  for (int i = 0; i < 7; ++i) {
    double value = i + 0.5;
    std::memcpy(f64.data() + i * 8, &value, 8);
  }
  EXPECT_EQ(formatTensor(shape, ElementType::kF64, f64, 6),
            "7xf64=[0.5 1.5 2.5 ... 4.5 5.5 6.5]");
  std::vector<uint8_t> i8 = {0x80, 1, 2, 3, 4, 5, 0x7f};
  EXPECT_EQ(formatTensor(shape, ElementType::kI8, i8, 6),
            "7xi8=[-128 1 2 ... 4 5 127]");
}

TEST(HostTensorTest, WritesLinesInChunks) {
  // Larger than one 64 KiB chunk, so several writes make up the line.
  std::vector<int64_t> shape = {100000};
  std::vector<uint8_t> bytes = iota32(100000);
  std::ostringstream out;
  writeTensorLine(out, shape, ElementType::kI32, bytes);
  std::string text = out.str();
  EXPECT_EQ(text, formatTensor(shape, ElementType::kI32, bytes) + "\n");
  EXPECT_EQ(text.substr(0, 20), "100000xi32=[0 1 2 3 ");
  EXPECT_EQ(text.substr(text.size() - 14), " 99998 99999]\n");
  std::ostringstream summary;
  writeTensorLine(summary, shape, ElementType::kI32, bytes,
                  kDefaultPrintMaxElements);
  EXPECT_EQ(summary.str(), "100000xi32=[0 1 2 ... 99997 99998 99999]\n");
}

} // namespace
} // namespace ferry::tools

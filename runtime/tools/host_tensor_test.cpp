#include "runtime/tools/host_tensor.h"

#include <cstring>
#include <gtest/gtest.h>

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

TEST(HostTensorTest, NamesTheProblem) {
  EXPECT_EQ(parseError("4xi32=1,2,x,4"), "'x' is not a valid i32");
  EXPECT_EQ(parseError("4xi32=1,2,3"), "4xi32 needs 4 values, got 3");
  EXPECT_EQ(parseError("i32="), "i32 needs 1 value, got 0");
  EXPECT_EQ(parseError("2xi8=1,300"), "'300' is not a valid i8");
  EXPECT_EQ(parseError("2xf32=1,1e99"), "'1e99' is not a valid f32");
  EXPECT_EQ(parseError("2xi32=1.5,2"), "'1.5' is not a valid i32");
  EXPECT_EQ(parseError("4xi33=1,2,3,4"),
            "unknown element type 'i33' in '4xi33' (expected i8, i16, i32, "
            "i64, f32 or f64)");
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

} // namespace
} // namespace ferry::tools

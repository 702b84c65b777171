#include "runtime/base/status.h"

#include <gtest/gtest.h>

#include "runtime/base/testing/status_assertions.h"

namespace ferry {
namespace {

Result<int> half(int value) {
  if (value % 2)
    return invalidArgument(value, " is odd");
  return value / 2;
}

Result<int> quarter(int value) {
  FERRY_ASSIGN_OR_RETURN(int h, half(value));
  return half(h);
}

Status checkEven(int value) {
  FERRY_RETURN_IF_ERROR(half(value).status());
  return okStatus();
}

TEST(StatusTest, OkAndFailure) {
  EXPECT_TRUE(okStatus().ok());
  Status status = notFound("no '", "x", "'");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "no 'x'");
  EXPECT_EQ(status.toString(), "NOT_FOUND: no 'x'");
  EXPECT_EQ(status.withContext("loading").message(), "loading: no 'x'");
  EXPECT_TRUE(okStatus().withContext("loading").ok());
}

TEST(StatusTest, ResultPropagates) {
  EXPECT_EQ(*quarter(8), 2);
  Result<int> bad = quarter(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "3 is odd");
  EXPECT_TRUE(checkEven(2).ok());
  EXPECT_EQ(checkEven(3).code(), StatusCode::kInvalidArgument);
}

TEST(StatusTest, FailedWithNeedsTheCodeAndThePart) {
  Status odd = checkEven(3);
  EXPECT_TRUE(failedWith(odd, StatusCode::kInvalidArgument, "is odd"));
  EXPECT_TRUE(failedWith(quarter(6), StatusCode::kInvalidArgument, "3 is"));
  ::testing::AssertionResult ok =
      failedWith(okStatus(), StatusCode::kInvalidArgument, "is odd");
  EXPECT_FALSE(ok);
  EXPECT_STREQ(ok.message(), "expected INVALID_ARGUMENT containing 'is odd', "
                             "got OK");
  ::testing::AssertionResult code =
      failedWith(odd, StatusCode::kNotFound, "is odd");
  EXPECT_FALSE(code);
  EXPECT_STREQ(code.message(), "expected NOT_FOUND containing 'is odd', got "
                               "INVALID_ARGUMENT: 3 is odd");
  EXPECT_FALSE(failedWith(odd, StatusCode::kInvalidArgument, "is even"));
  EXPECT_FALSE(failedWith(quarter(8), StatusCode::kInvalidArgument, ""));
}

} // namespace
} // namespace ferry

// gtest assertions on failures: a test that expects an error names its code
// and a part of its message, so it cannot pass on the wrong error (or on a
// failure for an unrelated reason).
//
//   EXPECT_TRUE(failedWith(Fence::join(...)->wait(), StatusCode::kDataLoss,
//                          "second failed"));
//
// Tests only: this header depends on gtest.
#ifndef FERRY_RUNTIME_BASE_TESTING_STATUS_ASSERTIONS_H_
#define FERRY_RUNTIME_BASE_TESTING_STATUS_ASSERTIONS_H_

#include <gtest/gtest.h>

#include <string_view>

#include "runtime/base/status.h"

namespace ferry {

// Success if `status` failed with `code` and its message contains `part`;
// otherwise a failure that shows what the status was instead.
inline ::testing::AssertionResult
failedWith(const Status &status, StatusCode code, std::string_view part) {
  if (status.ok())
    return ::testing::AssertionFailure()
           << "expected " << statusCodeName(code) << " containing '" << part
           << "', got OK";
  if (status.code() != code || status.message().find(part) == std::string::npos)
    return ::testing::AssertionFailure()
           << "expected " << statusCodeName(code) << " containing '" << part
           << "', got " << status.toString();
  return ::testing::AssertionSuccess();
}

template <typename T>
::testing::AssertionResult failedWith(const Result<T> &result, StatusCode code,
                                      std::string_view part) {
  return failedWith(result.status(), code, part);
}

} // namespace ferry

#endif // FERRY_RUNTIME_BASE_TESTING_STATUS_ASSERTIONS_H_

// Status and Result<T>: how every runtime API reports failure.
//
// The runtime never throws across its API. A function that can fail returns a
// Status (no value) or a Result<T> (a value or a Status). A Status carries a
// coarse code, for callers that branch on the kind of failure, and a message
// that names what failed, on which object and why, for the person reading it.
//
// Ownership/threads: both are plain values; copy and move them freely. They
// hold no shared state, so distinct objects may be used from distinct threads.
#ifndef FERRY_RUNTIME_BASE_STATUS_H_
#define FERRY_RUNTIME_BASE_STATUS_H_

#include <cassert>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ferry {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,    // the caller passed something malformed
  kNotFound,           // a named thing (function, driver, device) is absent
  kOutOfRange,         // an index or size is outside what it refers to
  kFailedPrecondition, // the object is in the wrong state (e.g. deallocated)
  kResourceExhausted,  // an allocation could not be satisfied
  kDataLoss,           // a file is truncated or corrupt
  kUnimplemented,      // a valid request this runtime cannot do (yet)
  kAborted,            // a program asked to fail (vm `fail`, a kernel's code)
  kDeadlock,           // a wait that nothing could ever satisfy
  kDeadlineExceeded,   // a wait timed out before it was satisfied
  kInternal,           // a runtime bug
};

constexpr std::string_view statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kInvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::kNotFound:
    return "NOT_FOUND";
  case StatusCode::kOutOfRange:
    return "OUT_OF_RANGE";
  case StatusCode::kFailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::kResourceExhausted:
    return "RESOURCE_EXHAUSTED";
  case StatusCode::kDataLoss:
    return "DATA_LOSS";
  case StatusCode::kUnimplemented:
    return "UNIMPLEMENTED";
  case StatusCode::kAborted:
    return "ABORTED";
  case StatusCode::kDeadlock:
    return "DEADLOCK";
  case StatusCode::kDeadlineExceeded:
    return "DEADLINE_EXCEEDED";
  case StatusCode::kInternal:
    return "INTERNAL";
  }
  return "UNKNOWN";
}

// OK is a null pointer, so the success path (every queue operation returns a
// Status, fences store one) moves and destroys a single word; only failures
// allocate their code and message.
class [[nodiscard]] Status {
public:
  Status() = default; // OK
  Status(StatusCode code, std::string message)
      : rep_(code == StatusCode::kOk
                 ? nullptr
                 : std::make_unique<Rep>(Rep{code, std::move(message)})) {}
  Status(const Status &other)
      : rep_(other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr) {}
  Status &operator=(const Status &other) {
    if (this != &other)
      rep_ = other.rep_ ? std::make_unique<Rep>(*other.rep_) : nullptr;
    return *this;
  }
  Status(Status &&) noexcept = default;
  Status &operator=(Status &&) noexcept = default;

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  const std::string &message() const {
    static const std::string kEmpty;
    return rep_ ? rep_->message : kEmpty;
  }

  // "INVALID_ARGUMENT: message"; just "OK" for success.
  std::string toString() const {
    if (ok())
      return "OK";
    return std::string(statusCodeName(rep_->code)) + ": " + rep_->message;
  }

  // Prefixes context ("while loading 'x.fvm'") onto a failure; keeps the code.
  Status withContext(std::string_view context) const {
    if (ok())
      return Status();
    return Status(rep_->code, std::string(context) + ": " + rep_->message);
  }

private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  std::unique_ptr<Rep> rep_;
};

inline Status okStatus() { return Status(); }

// Concatenates anything streamable; keeps message building to one line.
template <typename... Args> std::string strCat(const Args &...args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

template <typename... Args>
Status makeStatus(StatusCode code, const Args &...args) {
  return Status(code, strCat(args...));
}
template <typename... Args> Status invalidArgument(const Args &...args) {
  return makeStatus(StatusCode::kInvalidArgument, args...);
}
template <typename... Args> Status notFound(const Args &...args) {
  return makeStatus(StatusCode::kNotFound, args...);
}
template <typename... Args> Status outOfRange(const Args &...args) {
  return makeStatus(StatusCode::kOutOfRange, args...);
}
template <typename... Args> Status failedPrecondition(const Args &...args) {
  return makeStatus(StatusCode::kFailedPrecondition, args...);
}
template <typename... Args> Status resourceExhausted(const Args &...args) {
  return makeStatus(StatusCode::kResourceExhausted, args...);
}
template <typename... Args> Status dataLoss(const Args &...args) {
  return makeStatus(StatusCode::kDataLoss, args...);
}
template <typename... Args> Status unimplemented(const Args &...args) {
  return makeStatus(StatusCode::kUnimplemented, args...);
}
template <typename... Args> Status deadlineExceeded(const Args &...args) {
  return makeStatus(StatusCode::kDeadlineExceeded, args...);
}
template <typename... Args> Status internalError(const Args &...args) {
  return makeStatus(StatusCode::kInternal, args...);
}

// A value of T or the Status explaining why there is none. Constructing a
// Result from an OK Status is a bug (there would be neither) and asserts.
template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : storage_(std::move(value)) {}
  Result(Status status) : storage_(std::move(status)) {
    assert(!std::get<Status>(storage_).ok() && "Result from an OK Status");
  }

  bool ok() const { return std::holds_alternative<T>(storage_); }
  // The failure; OK when there is a value.
  Status status() const {
    if (ok())
      return Status();
    return std::get<Status>(storage_);
  }

  T &value() & {
    assert(ok());
    return std::get<T>(storage_);
  }
  const T &value() const & {
    assert(ok());
    return std::get<T>(storage_);
  }
  T &&value() && {
    assert(ok());
    return std::get<T>(std::move(storage_));
  }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  std::variant<T, Status> storage_;
};

} // namespace ferry

#define FERRY_STATUS_CONCAT_INNER(a, b) a##b
#define FERRY_STATUS_CONCAT(a, b) FERRY_STATUS_CONCAT_INNER(a, b)

// Returns the Status of `expr` (a Status) from the enclosing function if it
// failed.
#define FERRY_RETURN_IF_ERROR(expr)                                            \
  do {                                                                         \
    ::ferry::Status ferry_status_ = (expr);                                    \
    if (!ferry_status_.ok())                                                   \
      return ferry_status_;                                                    \
  } while (false)

// `FERRY_ASSIGN_OR_RETURN(auto x, resultExpr);` declares/assigns the value or
// returns the failure from the enclosing function.
#define FERRY_ASSIGN_OR_RETURN(lhs, expr)                                      \
  FERRY_ASSIGN_OR_RETURN_IMPL(FERRY_STATUS_CONCAT(ferry_result_, __LINE__),    \
                              lhs, expr)
#define FERRY_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr)                            \
  auto tmp = (expr);                                                           \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(tmp).value()

#endif // FERRY_RUNTIME_BASE_STATUS_H_

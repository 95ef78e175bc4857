// Errors as values: the result type every fallible engine and domain function returns.
#pragma once

#include <boost/system/result.hpp>
#include <string>
#include <utility>
#include <vector>

namespace fcp::core {

// An error an LLM can act on: one line of message (no "! " prefix) plus optional
// suggestions, each of which should be a pasteable op or value (rendered as "  try: …").
// Not an aggregate on purpose: Result<std::string> must not be constructible as an error from a
// string (C++20 parenthesised aggregate init would make that ambiguous). Build with make_error.
struct Error {
  Error() = default;
  std::string message;
  std::vector<std::string> hints;
};

template <class T = void>
using Result = boost::system::result<T, Error>;

inline Error make_error(std::string message, std::vector<std::string> hints = {}) {
  Error error;
  error.message = std::move(message);
  error.hints = std::move(hints);
  return error;
}

// Thrown only when code calls .value() on a failed Result; the dispatch safety net logs it.
class ErrorException : public std::exception {
 public:
  explicit ErrorException(Error error) : error_(std::move(error)) {}
  const char* what() const noexcept override { return error_.message.c_str(); }
  const Error& error() const noexcept { return error_; }

 private:
  Error error_;
};

[[noreturn]] inline void throw_exception_from_error(const Error& e, const boost::source_location&) {
  throw ErrorException(e);
}

}  // namespace fcp::core

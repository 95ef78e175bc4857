// How a CLI run fails: each error type maps to an exit status in exactly one place (app.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

namespace fcp::cli {

// Exit statuses of the fcp command (the contract scripts rely on).
namespace exit_status {
inline constexpr int ok = 0;
inline constexpr int tool_error = 1;  // the call ran and reported isError: true
inline constexpr int failure = 2;     // usage, connection, protocol or child-daemon failure
}  // namespace exit_status

// The command line is wrong; the short usage text follows the message.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The channel to the daemon failed: cannot connect or spawn, closed, timed out, child died.
class ChannelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The daemon answered with a JSON-RPC error response, or with something that is not JSON-RPC.
class ProtocolError : public std::runtime_error {
 public:
  ProtocolError(std::int64_t code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  std::int64_t code() const { return code_; }

 private:
  std::int64_t code_;
};

// The daemon did not answer within the time allowed (a ChannelError, so exit status 2).
class TimeoutError : public ChannelError {
 public:
  using ChannelError::ChannelError;
};

// The error every channel raises when the daemon does not answer in time.
inline TimeoutError timeout_error(std::chrono::milliseconds timeout) {
  std::ostringstream text;
  text << "timed out after " << static_cast<double>(timeout.count()) / 1000.0
       << " s waiting for the daemon (see --timeout)";
  return TimeoutError(text.str());
}

}  // namespace fcp::cli

// Options shared by the transports (size limits, HTTP security checks).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace fcp::transport {

struct Limits {
  std::size_t max_message_bytes = 4u << 20;   // larger messages are refused (HTTP: 413)
  std::size_t max_queued_bytes = 64u << 20;   // outgoing bytes queued before reading pauses
  std::size_t max_connections = 256;          // TCP/HTTP; more are closed at accept
};

struct HttpOptions {
  Limits limits;
  // Origins allowed when an Origin header is present (exact match, e.g. "http://localhost:3000").
  // Origins whose host is localhost/127.0.0.1/[::1] are always allowed.
  std::vector<std::string> allowed_origins;
  // Host header names allowed besides localhost, 127.0.0.1 and [::1] (port ignored).
  std::vector<std::string> allowed_hosts;
  std::size_t max_sessions = 1024;
};

}  // namespace fcp::transport

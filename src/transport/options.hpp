// Options shared by the transports (size limits, HTTP security checks).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace fcp::transport {

struct Limits {
  std::size_t max_message_bytes = 4u << 20;  // larger messages are refused (HTTP: 413)
  std::size_t max_queued_bytes = 64u << 20;  // outgoing bytes queued before reading pauses
  std::size_t max_connections = 256;         // TCP/HTTP; more are closed at accept
};

struct HttpOptions {
  Limits limits;
  // Origins allowed when an Origin header is present (exact match, e.g. "http://localhost:3000").
  // Origins whose host is localhost/127.0.0.1/[::1] are always allowed.
  std::vector<std::string> allowed_origins;
  // Host header names allowed besides localhost, 127.0.0.1 and [::1] (port ignored).
  std::vector<std::string> allowed_hosts;
  std::size_t max_sessions = 1024;
  // A keep-alive connection with no request for this long is closed; also bounds every write.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  // A session with no request and no open stream for this long is closed.
  std::chrono::milliseconds session_idle_timeout{std::chrono::hours(1)};
  // SSE streams carry a comment this often so that proxies and clients keep them open.
  std::chrono::milliseconds sse_keepalive_interval{std::chrono::seconds(15)};
};

}  // namespace fcp::transport

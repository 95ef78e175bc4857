// Options shared by the transports (size limits, HTTP security checks).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "transport/trusted_proxies.hpp"

namespace fcp::transport {

// A byte count shared by every connection whose Limits were copied from one Limits.
struct SharedByteCount {
  std::atomic<std::size_t> bytes{0};
};

struct Limits {
  std::size_t max_message_bytes = 4u << 20;  // larger messages are refused (HTTP: 413)
  std::size_t max_queued_bytes = 16u << 20;  // outgoing bytes queued before reading pauses
  // Outgoing bytes queued on all stdio/TCP connections together before they pause reading.
  std::size_t max_total_queued_bytes = 256u << 20;
  std::shared_ptr<SharedByteCount> total_queued = std::make_shared<SharedByteCount>();
  // Bytes of partial (unterminated) messages all TCP connections together may hold; past it a
  // connection whose read finds the total past it, holding a partial message itself, is closed.
  std::size_t max_total_partial_bytes = 256u << 20;
  std::shared_ptr<SharedByteCount> total_partial = std::make_shared<SharedByteCount>();
  // TCP: connections one client address may hold (of max_connections). At max_connections the
  // connection idle longest is closed to admit a new client.
  std::size_t max_connections_per_address = 64;
  // TCP: a message must arrive whole within this time of its first byte (slowloris).
  std::chrono::milliseconds message_timeout{std::chrono::seconds(30)};
  // TCP: a connection with no call running and nothing to read or write is closed after this.
  std::chrono::milliseconds idle_timeout{std::chrono::minutes(15)};
  // TCP: a reply that the client does not read within this time closes the connection.
  std::chrono::milliseconds write_timeout{std::chrono::seconds(60)};
  // Requests of one stdio/TCP connection running or queued before reading pauses: pipelining
  // costs the daemon at most this many calls' work and replies per connection.
  std::size_t max_calls_in_flight = 16;
  std::size_t max_connections = 256;  // TCP/HTTP; more are closed at accept
};

struct HttpOptions {
  Limits limits;
  // Origins allowed when an Origin header is present (exact match, e.g. "http://localhost:3000").
  // Origins whose host is localhost/127.0.0.1/[::1] are always allowed.
  std::vector<std::string> allowed_origins;
  // Host header names allowed besides localhost, 127.0.0.1 and [::1] (port ignored).
  std::vector<std::string> allowed_hosts;
  std::size_t max_sessions = 1024;
  // Put before every session id (a replica's name and '-'), so a load balancer can send a
  // session's requests to the replica that holds it.
  std::string session_id_prefix;
  // A keep-alive connection with no request for this long is closed; also bounds every write.
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  // A session with no request and no open stream for this long is closed.
  std::chrono::milliseconds session_idle_timeout{std::chrono::hours(1)};
  // SSE streams carry a comment this often so that proxies and clients keep them open.
  std::chrono::milliseconds sse_keepalive_interval{std::chrono::seconds(15)};
  // Reverse proxies whose X-Forwarded-For names the client (config http.trusted_proxies): a
  // request from one counts, for the client's share of call threads, as that client's.
  TrustedProxies trusted_proxies;
};

}  // namespace fcp::transport

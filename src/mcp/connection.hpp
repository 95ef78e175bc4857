// The boundary between transports and the MCP layer: a transport frames bytes into messages and
// hands each one to a Connection together with a Responder that carries the answers back.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fcp::mcp {

// The MCP request headers a transport received with a message (HTTP: every `Mcp-*` and
// `MCP-Protocol-Version` field, names lowercased, values without surrounding whitespace). The
// MCP layer checks them against the body; the transport does not interpret them.
struct TransportHeaders {
  std::vector<std::pair<std::string, std::string>> fields;
  // The value of `name` (lowercase), nullopt when absent.
  std::optional<std::string_view> get(std::string_view name) const {
    for (const auto& [field, value] : fields)
      if (field == name) return value;
    return std::nullopt;
  }
};

// Where the messages caused by one incoming message go. Implemented by each transport.
// stdio/TCP write every message as one line on the connection; HTTP answers the POST that
// carried the message (application/json, or an SSE stream once a notification precedes the
// reply; 202 Accepted for no_reply()).
// Thread: may be called from any thread. An implementation may do its work before returning
// (stdio/TCP write at once when called on the event loop with the connection idle), so callers
// must not hold a lock that the transport's work could need.
// Contract: exactly one of reply() or no_reply() is called, after any notify() calls.
class Responder {
 public:
  virtual ~Responder() = default;
  virtual void notify(std::string message) = 0;  // progress or log tied to this message
  virtual void reply(std::string message) = 0;   // the single JSON-RPC response
  virtual void no_reply() = 0;                   // notification, response, or cancelled request
  // Calls `cancel` (once, from any thread) if the client goes away before this message is
  // answered. Transports whose Connection outlives the client's link (HTTP: the session stays,
  // the POST's socket closes) implement it; for the others closing the Connection cancels.
  virtual void when_gone(const std::function<void()>& /*cancel*/) {}
  // Sends `message` as the reply, then closes the client's connection once it is written (a
  // client that did not authenticate). Transports without such a connection just reply.
  virtual void reply_and_close(std::string message) { reply(std::move(message)); }
  // Sends `message` as the reply with the HTTP status the MCP revision prescribes for it (the
  // stateless 2026-07-28 revision: 404 for an unknown method, 400 for a refused request).
  // Transports without statuses just reply.
  virtual void reply_with_status(std::string message, unsigned /*http_status*/) {
    reply(std::move(message));
  }
  // The answer is a long-lived stream (subscriptions/listen): notify() messages go out as they
  // come rather than with the reply (HTTP: the response begins now as an event stream with
  // status 200, even for a request outside a session). Before any notify(). Transports that
  // write each message at once need nothing.
  virtual void open_stream() {}
  // The server ends a stream it opened with open_stream() (a subscriptions/listen it tears down)
  // and answers its request no further. `cancelled`: the notifications/cancelled that names the
  // request. Transports that carry every stream on one channel (stdio, TCP) send it, then count
  // the request as answered; HTTP closes the event stream instead, which is how the client learns
  // of it there (MCP 2026-07-28, Subscriptions: Cancellation).
  virtual void end_stream(std::string cancelled) {
    notify(std::move(cancelled));
    no_reply();
  }
  // The headers that came with the message (null: the transport has none, stdio and TCP).
  virtual const TransportHeaders* headers() const { return nullptr; }
};

// Where unsolicited server messages go (log records not tied to a request).
// Thread: may be called from any thread.
class Outbound {
 public:
  virtual ~Outbound() = default;
  virtual void send(std::string message) = 0;
};

struct ConnectionInfo {
  std::string transport;                    // "stdio", "tcp", "http"
  std::string peer;                         // for logs: "127.0.0.1:51234", "stdin"
  std::optional<std::string> session_name;  // a named session requested out of band (HTTP header)
  // The principal the transport authenticated (HTTP: the bearer token; stdio: the process that
  // started the daemon). nullopt: the client must authenticate in band when the daemon has tokens
  // (TCP: `initialize` params `fcp.token`, or `_meta["fcp/token"]`).
  std::optional<std::string> principal;
  // The client's address for its share of call threads, when it is not the peer's (HTTP behind a
  // trusted proxy: from X-Forwarded-For). Empty: the peer's address.
  std::string client_address{};
};

// One MCP client connection (a stdio process, a TCP socket, an HTTP Mcp-Session-Id).
// Thread: handle() may be called from the transport's thread; the connection serialises work.
class Connection {
 public:
  virtual ~Connection() = default;
  // One complete message as received (not yet parsed).
  virtual void handle(std::string_view message, std::shared_ptr<Responder> responder) = 0;
  // A message larger than the limit arrived (and was discarded by the transport).
  virtual void handle_oversized(std::size_t size, std::shared_ptr<Responder> responder) = 0;
  // True once initialize succeeded (HTTP issues Mcp-Session-Id then).
  virtual bool initialized() const = 0;
  // The transport closed: cancel in-flight work and release a named session. Idempotent.
  virtual void close() = 0;
  // The client will send nothing more but may still read (stdio: stdin ended): the streams only
  // it could end (subscriptions/listen) are ended by the server.
  virtual void input_ended() {}
};

// Creates connections. Implemented by mcp::Server.
class ConnectionFactory {
 public:
  virtual ~ConnectionFactory() = default;
  virtual std::shared_ptr<Connection> connect(ConnectionInfo info,
                                              std::shared_ptr<Outbound> outbound) = 0;
  // Whether clients must present a bearer token, and the principal a token names (nullopt:
  // not a valid token). Thread: any.
  virtual bool requires_token() const { return false; }
  virtual std::optional<std::string> principal_for_token(std::string_view /*token*/) const {
    return std::nullopt;
  }
};

// The MCP protocol versions of 2025-era sessions (begun by initialize), newest first.
inline constexpr std::string_view kSupportedProtocolVersions[] = {"2025-11-25", "2025-06-18",
                                                                  "2025-03-26"};
inline bool is_supported_protocol_version(std::string_view version) {
  for (auto v : kSupportedProtocolVersions)
    if (v == version) return true;
  return false;
}
// The stateless revision: no initialize, every request names it in its _meta (mcp/lifecycle).
inline constexpr std::string_view kStatelessProtocolVersion = "2026-07-28";
// The first protocol version with tools' outputSchema and results' structuredContent.
inline constexpr std::string_view kFirstStructuredProtocolVersion = "2025-06-18";

}  // namespace fcp::mcp

// The Streamable HTTP transport (MCP 2025-11-25): one endpoint, /mcp, served with Boost.Beast.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>

#include "core/result.hpp"
#include "mcp/connection.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

class Listener;
class SessionReaper;
struct HttpShared;

// Serves MCP over HTTP at /mcp: POST carries one message (answered as application/json, as an
// SSE stream when notifications precede the reply, or 202), GET opens a session's event stream
// (unsolicited Outbound messages, keep-alive comments), DELETE ends a session. Sessions are
// Connections keyed by a random Mcp-Session-Id issued once initialize succeeded; they expire
// after options.session_idle_timeout without use. Host and Origin are checked against loopback
// names and the allow-lists (DNS-rebinding protection). See HttpPeer for the details.
// Thread: construct, start, stop, local_endpoint and destroy from the owner's thread; the work
// runs on the threads of `io`, one strand per TCP connection. Ownership: the factory must
// outlive the server; connections still closing when it is destroyed keep their own state.
class HttpServer {
 public:
  HttpServer(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
             boost::asio::ip::tcp::endpoint endpoint, HttpOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and listens; the error names the endpoint and the reason (e.g. address in use).
  core::Result<void> start();
  // Stops accepting, closes every TCP connection and every session's Connection. Idempotent.
  void stop();
  // Stops accepting new connections; the open ones go on (shutdown lets their calls finish).
  void stop_accepting();
  // The bound endpoint (with the real port when 0 was asked for); valid after start().
  boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  boost::asio::io_context& io_;
  boost::asio::ip::tcp::endpoint endpoint_;
  std::shared_ptr<HttpShared> shared_;
  std::shared_ptr<Listener> listener_;
  std::shared_ptr<SessionReaper> reaper_;
};

}  // namespace fcp::transport

// The TCP transport: newline-delimited JSON messages over many concurrent sockets.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <memory>

#include "core/result.hpp"
#include "mcp/connection.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

class Listener;
class TcpPeer;
template <class T>
class LiveSet;

// Accepts sockets; each gets its own Connection (ConnectionInfo{"tcp", "ip:port"}), its own
// strand, the same framing as stdio, and back-pressure (reading pauses while more than
// limits.max_queued_bytes of output wait). Sockets beyond limits.max_connections are closed at
// once. A disconnect calls Connection::close() once; later replies are dropped.
// Thread: construct, start, stop, local_endpoint and destroy from the owner's thread; the work
// runs on the threads of `io`. Ownership: the factory must outlive the server; connections that
// are still closing when the server is destroyed keep their own state alive.
class TcpServer {
 public:
  TcpServer(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
            boost::asio::ip::tcp::endpoint endpoint, Limits limits);
  ~TcpServer();
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;

  // Binds and listens; the error names the endpoint and the reason (e.g. address in use).
  core::Result<void> start();
  // Stops accepting and closes every connection (their Connections are closed). Idempotent.
  void stop();
  // Stops accepting new connections; the open ones go on (shutdown lets their calls finish).
  void stop_accepting();
  // The bound endpoint (with the real port when 0 was asked for); valid after start().
  boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }

 private:
  boost::asio::io_context& io_;
  mcp::ConnectionFactory& factory_;
  boost::asio::ip::tcp::endpoint endpoint_;
  Limits limits_;
  std::shared_ptr<Listener> listener_;
  std::shared_ptr<LiveSet<TcpPeer>> peers_;
};

}  // namespace fcp::transport

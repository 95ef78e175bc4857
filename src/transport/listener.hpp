// Accepts TCP sockets for a server (TCP or HTTP) and reports bind/listen failures as values.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <string>

#include "core/result.hpp"

namespace fcp::transport {

// "127.0.0.1:8080", "[::1]:8080".
std::string format_endpoint(const boost::asio::ip::tcp::endpoint& endpoint);

// Listens on one endpoint and hands every accepted socket, bound to a fresh strand, to
// on_accept. Thread: listen() on the owner's thread before or while `io` runs; stop() from any
// thread; on_accept runs on the listener's strand. Ownership: held by shared_ptr; pending
// accepts keep it alive after its server is gone.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  using AcceptHandler = std::function<void(boost::asio::ip::tcp::socket)>;

  Listener(boost::asio::io_context& io, std::string name, AcceptHandler on_accept);

  // Binds, listens and starts accepting; returns the bound endpoint (port 0 resolved).
  core::Result<boost::asio::ip::tcp::endpoint> listen(
      const boost::asio::ip::tcp::endpoint& endpoint);
  void stop();

 private:
  void do_accept();
  void on_accept(const boost::system::error_code& ec, boost::asio::ip::tcp::socket socket);

  boost::asio::io_context& io_;
  std::string name_;
  AcceptHandler on_accept_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer retry_timer_;
  bool stopped_ = false;
};

}  // namespace fcp::transport

#include "transport/listener.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <utility>

namespace fcp::transport {

std::string format_endpoint(const boost::asio::ip::tcp::endpoint& endpoint) {
  // Built by appending: GCC 12 reports a false -Wrestrict for "[" + std::string at -O3.
  const auto address = endpoint.address();
  std::string text;
  if (address.is_v6()) text.push_back('[');
  text.append(address.to_string());
  if (address.is_v6()) text.push_back(']');
  text.push_back(':');
  text.append(std::to_string(endpoint.port()));
  return text;
}

Listener::Listener(boost::asio::io_context& io, std::string name, AcceptHandler on_accept)
    : io_(io),
      name_(std::move(name)),
      on_accept_(std::move(on_accept)),
      acceptor_(boost::asio::make_strand(io)),
      retry_timer_(acceptor_.get_executor()) {}

core::Result<boost::asio::ip::tcp::endpoint> Listener::listen(
    const boost::asio::ip::tcp::endpoint& endpoint) {
  boost::system::error_code ec;
  const char* step = "open";
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) {
    step = "configure";
    acceptor_.set_option(boost::asio::socket_base::reuse_address(true), ec);
  }
  if (!ec) {
    step = "bind";
    acceptor_.bind(endpoint, ec);
  }
  if (!ec) {
    step = "listen";
    acceptor_.listen(boost::asio::socket_base::max_listen_connections, ec);
  }
  auto bound = ec ? endpoint : acceptor_.local_endpoint(ec);
  if (ec) {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    return core::make_error(name_ + ": cannot " + step + " " + format_endpoint(endpoint) + ": " +
                            ec.message());
  }
  spdlog::info("{}: listening on {}", name_, format_endpoint(bound));
  boost::asio::post(acceptor_.get_executor(), [self = shared_from_this()] { self->do_accept(); });
  return bound;
}

void Listener::stop() {
  boost::asio::post(acceptor_.get_executor(), [self = shared_from_this()] {
    self->stopped_ = true;
    self->retry_timer_.cancel();
    boost::system::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void Listener::do_accept() {
  if (stopped_) return;
  acceptor_.async_accept(boost::asio::make_strand(io_),
                         [self = shared_from_this()](const boost::system::error_code& ec,
                                                     boost::asio::ip::tcp::socket socket) {
                           self->on_accept(ec, std::move(socket));
                         });
}

void Listener::on_accept(const boost::system::error_code& ec, boost::asio::ip::tcp::socket socket) {
  if (stopped_ || ec == boost::asio::error::operation_aborted) return;
  if (ec) {
    // Typically EMFILE: back off instead of spinning on a listener that keeps failing.
    spdlog::warn("{}: accept failed: {}", name_, ec.message());
    retry_timer_.expires_after(std::chrono::milliseconds(100));
    retry_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& wait_ec) {
      if (!wait_ec) self->do_accept();
    });
    return;
  }
  on_accept_(std::move(socket));
  do_accept();
}

}  // namespace fcp::transport

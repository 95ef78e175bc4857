#include "cli/tcp_channel.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

[[noreturn]] void fail(const boost::beast::error_code& ec, std::chrono::milliseconds timeout) {
  if (ec == boost::beast::error::timeout) throw timeout_error(timeout);
  if (ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset) {
    throw ChannelError("the daemon closed the connection");
  }
  throw ChannelError("connection to the daemon failed: " + ec.message());
}

}  // namespace

TcpChannel::TcpChannel(const Endpoint& endpoint, std::chrono::milliseconds timeout)
    : timeout_(timeout) {
  net_.connect(endpoint.host, endpoint.port, timeout, "tcp://" + endpoint.authority());
}

void TcpChannel::send(const std::string& message) {
  if (!net_.is_open()) throw ChannelError("the connection to the daemon is closed");
  std::string framed = message + "\n";
  auto ec = net_.run(timeout_, [&](auto handler) {
    boost::asio::async_write(net_.stream(), boost::asio::buffer(framed), std::move(handler));
  });
  if (ec) fail(ec, timeout_);
}

std::string TcpChannel::receive(std::chrono::milliseconds timeout) {
  for (;;) {
    if (auto line = take_line(buffer_)) return *line;
    if (!net_.is_open()) throw ChannelError("the connection to the daemon is closed");
    auto ec = net_.run(timeout, [&](auto handler) {
      boost::asio::async_read_until(net_.stream(), boost::asio::dynamic_buffer(buffer_), '\n',
                                    std::move(handler));
    });
    if (ec) fail(ec, timeout);
  }
}

}  // namespace fcp::cli

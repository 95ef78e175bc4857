#include "cli/net_stream.hpp"

#include <boost/asio/ip/tcp.hpp>

#include "cli/errors.hpp"

namespace fcp::cli {

void NetStream::connect(const std::string& host, std::uint16_t port,
                        std::chrono::milliseconds timeout, const std::string& what) {
  boost::asio::ip::tcp::resolver resolver(io_);
  boost::beast::error_code ec;
  auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) throw ChannelError("cannot resolve " + what + ": " + ec.message());
  ec = run(timeout, [&](auto handler) { stream_.async_connect(endpoints, std::move(handler)); });
  if (ec == boost::beast::error::timeout) {
    throw ChannelError("cannot connect to " + what + ": timed out");
  }
  if (ec) throw ChannelError("cannot connect to " + what + ": " + ec.message());
  stream_.socket().set_option(boost::asio::ip::tcp::no_delay(true), ec);
}

void NetStream::close() noexcept {
  boost::beast::error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.socket().close(ignored);
}

}  // namespace fcp::cli

// Blocking network I/O with a deadline per operation, for the TCP and HTTP channels.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <cstdint>
#include <string>

namespace fcp::cli {

// One TCP connection. Asio's synchronous calls cannot time out, so each operation is started
// asynchronously with the stream's expiry set and the private io_context is run until it is
// done; a timeout surfaces as beast::error::timeout.
// Thread: one thread at a time; no operation is ever left pending between calls.
class NetStream {
 public:
  NetStream() : stream_(io_) {}

  // Throws ChannelError naming `what` (e.g. "tcp://127.0.0.1:7000") on failure.
  void connect(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout,
               const std::string& what);
  void close() noexcept;
  bool is_open() const { return stream_.socket().is_open(); }

  boost::beast::tcp_stream& stream() { return stream_; }

  // Runs one composed operation started by `start(handler)` to completion or the deadline.
  template <class Start>
  boost::beast::error_code run(std::chrono::milliseconds timeout, Start&& start) {
    boost::beast::error_code result;
    bool done = false;
    stream_.expires_after(timeout);
    start([&result, &done](boost::beast::error_code ec, auto&&...) {
      result = ec;
      done = true;
    });
    io_.restart();
    while (!done && io_.run_one() > 0) {
    }
    stream_.expires_never();
    return done ? result : boost::asio::error::operation_aborted;
  }

 private:
  boost::asio::io_context io_;
  boost::beast::tcp_stream stream_;
};

}  // namespace fcp::cli

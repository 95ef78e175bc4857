// The write side of one HTTP connection: whole responses, chunked SSE streams with keep-alive
// comments, and closing.
#pragma once

#include <array>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/serializer.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "transport/http_checks.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

// "event: message\ndata: <json>\n\n" (a multi-line payload gets one data: line per line).
std::string format_sse_event(std::string_view json);

// Base of HttpPeer, which adds reading and routing. At most one write is in flight; SSE events
// that arrive meanwhile are coalesced into the next chunk. A stream whose unsent events exceed
// limits.max_queued_bytes (a client that stopped reading) is closed.
// Thread: everything runs on strand(). Ownership: held by shared_ptr; every pending operation
// holds one, and the link dies with its last operation.
class HttpLink : public std::enable_shared_from_this<HttpLink> {
 public:
  using StreamHeader = boost::beast::http::response<boost::beast::http::empty_body>;

  HttpLink(boost::asio::ip::tcp::socket socket, const HttpOptions& options);
  virtual ~HttpLink();
  HttpLink(const HttpLink&) = delete;
  HttpLink& operator=(const HttpLink&) = delete;

  boost::asio::any_io_executor strand() { return stream_.get_executor(); }

 protected:
  // Writes a complete response, then calls on_response_sent().
  void send_response(HttpResponse response);
  // Starts a chunked text/event-stream response with `header`'s status and fields. With
  // watch_disconnect the link also reads, so that a client going away is noticed at once.
  void begin_stream(StreamHeader header, bool watch_disconnect);
  void stream_event(std::string_view json);
  // Ends the stream after the queued events, then calls on_response_sent().
  void end_stream();
  bool streaming() const { return streaming_; }
  bool closed() const { return closed_; }
  // Closes the socket now; calls on_closed() once.
  void close();
  // Half-closes and waits briefly for the client to close, so that a response sent before
  // unread request bytes is not destroyed by a TCP reset; then close().
  void linger_close();

  virtual void on_response_sent(bool keep_alive) = 0;
  virtual void on_closed() = 0;

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::chrono::milliseconds idle_timeout_;

 private:
  void flush();
  void on_stream_write(const boost::system::error_code& ec);
  void arm_keepalive();
  void watch_disconnect();
  void drain();

  std::chrono::milliseconds keepalive_interval_;
  std::size_t max_queued_bytes_;
  std::optional<HttpResponse> response_;
  std::optional<StreamHeader> header_;
  std::optional<boost::beast::http::response_serializer<boost::beast::http::empty_body>>
      serializer_;
  std::string pending_;  // events not yet handed to a write
  std::string chunk_;    // the chunk being written
  boost::asio::steady_timer keepalive_timer_;
  std::array<char, 4096> scratch_{};  // bytes read only to notice EOF, then discarded
  bool streaming_ = false;
  bool header_sent_ = false;
  bool ending_ = false;
  bool last_sent_ = false;
  bool writing_ = false;
  bool stream_keep_alive_ = true;
  bool closed_ = false;
};

}  // namespace fcp::transport

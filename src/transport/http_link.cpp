#include "transport/http_link.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/buffers_cat.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/write.hpp>
#include <utility>

namespace fcp::transport {
namespace beast = boost::beast;
namespace http = beast::http;
using boost::system::error_code;

// How long linger_close() waits for the client to close its side.
inline constexpr std::chrono::milliseconds kLingerTimeout{2000};

std::string format_sse_event(std::string_view json) {
  std::string event = "event: message\n";
  while (true) {
    const auto newline = json.find('\n');
    event.append("data: ").append(json.substr(0, newline)).push_back('\n');
    if (newline == std::string_view::npos) break;
    json.remove_prefix(newline + 1);
  }
  event.push_back('\n');
  return event;
}

HttpLink::HttpLink(boost::asio::ip::tcp::socket socket, const HttpOptions& options)
    : stream_(std::move(socket)),
      idle_timeout_(options.idle_timeout),
      keepalive_interval_(options.sse_keepalive_interval),
      max_queued_bytes_(options.limits.max_queued_bytes),
      keepalive_timer_(stream_.get_executor()) {}

HttpLink::~HttpLink() = default;

void HttpLink::send_response(HttpResponse response) {
  if (closed_) return;
  response_ = std::move(response);
  stream_.expires_after(idle_timeout_);
  http::async_write(stream_, *response_, [self = shared_from_this()](const error_code& ec, auto) {
    const bool keep_alive = !self->response_->need_eof();
    self->response_.reset();
    if (self->closed_) return;
    if (ec) return self->close();
    self->on_response_sent(keep_alive);
  });
}

void HttpLink::begin_stream(StreamHeader header, bool watch) {
  if (closed_) return;
  header.chunked(true);
  stream_keep_alive_ = header.keep_alive();
  header_ = std::move(header);
  serializer_.emplace(*header_);
  streaming_ = true;
  header_sent_ = ending_ = last_sent_ = false;
  if (watch) watch_disconnect();
  arm_keepalive();
  flush();
}

void HttpLink::stream_event(std::string_view json) {
  if (!streaming_ || ending_ || closed_) return;
  pending_ += format_sse_event(json);
  if (pending_.size() + chunk_.size() > max_queued_bytes_) {
    spdlog::warn("http: a client is not reading its event stream; closing it");
    return close();
  }
  flush();
}

void HttpLink::end_stream() {
  if (!streaming_ || ending_ || closed_) return;
  ending_ = true;
  flush();
}

void HttpLink::flush() {
  if (writing_ || closed_ || last_sent_) return;
  auto self = shared_from_this();
  auto done = [self](const error_code& ec, auto) { self->on_stream_write(ec); };
  // With a watching read pending this applies to the write only (beast keeps one timer each).
  stream_.expires_after(idle_timeout_);
  if (!header_sent_) {
    writing_ = header_sent_ = true;
    return http::async_write_header(stream_, *serializer_, done);
  }
  if (pending_.empty() && !ending_) return;
  writing_ = true;
  last_sent_ = ending_;
  chunk_.swap(pending_);
  pending_.clear();
  if (chunk_.empty()) return boost::asio::async_write(stream_, http::make_chunk_last(), done);
  if (ending_) {
    return boost::asio::async_write(
        stream_,
        beast::buffers_cat(http::make_chunk(boost::asio::buffer(chunk_)), http::make_chunk_last()),
        done);
  }
  boost::asio::async_write(stream_, http::make_chunk(boost::asio::buffer(chunk_)), done);
}

void HttpLink::on_stream_write(const error_code& ec) {
  writing_ = false;
  chunk_.clear();
  if (closed_) return;
  if (ec) return close();
  if (!last_sent_) return flush();
  streaming_ = false;
  keepalive_timer_.cancel();
  serializer_.reset();
  header_.reset();
  on_response_sent(stream_keep_alive_);
}

void HttpLink::arm_keepalive() {
  keepalive_timer_.expires_after(keepalive_interval_);
  keepalive_timer_.async_wait([self = shared_from_this()](const error_code& ec) {
    if (ec || self->closed_ || !self->streaming_ || self->ending_) return;
    // A comment line: ignored by SSE parsers, but it keeps proxies and idle timers at bay.
    if (self->pending_.empty()) self->pending_ = ": keep-alive\n\n";
    self->flush();
    self->arm_keepalive();
  });
}

void HttpLink::watch_disconnect() {
  stream_.expires_never();
  stream_.async_read_some(boost::asio::buffer(scratch_),
                          [self = shared_from_this()](const error_code& ec, std::size_t) {
                            if (self->closed_) return;
                            // A client must not send while its stream is open: treat it as gone.
                            if (!ec) spdlog::debug("http: data on a streaming connection");
                            self->close();
                          });
}

void HttpLink::close() {
  if (closed_) return;
  closed_ = true;
  keepalive_timer_.cancel();
  error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  stream_.close();
  on_closed();
}

void HttpLink::linger_close() {
  if (closed_) return;
  error_code ignored;
  stream_.socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
  stream_.expires_after(std::min(idle_timeout_, kLingerTimeout));
  drain();
}

void HttpLink::drain() {
  stream_.async_read_some(boost::asio::buffer(scratch_),
                          [self = shared_from_this()](const error_code& ec, std::size_t) {
                            if (self->closed_) return;
                            if (ec) return self->close();
                            self->drain();
                          });
}

}  // namespace fcp::transport

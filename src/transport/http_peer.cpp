#include "transport/http_peer.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/read.hpp>
#include <cerrno>
#include <utility>

#include "transport/listener.hpp"

namespace fcp::transport {
namespace beast = boost::beast;
namespace http = beast::http;
using boost::system::error_code;

namespace {

// Carries the answers to one POST back to its connection. Thread: any; it only posts. Holds the
// connection weakly: answers for a client that went away are dropped.
class HttpResponder final : public mcp::Responder {
 public:
  // Holds the peer strongly: while a request awaits its reply (computed on the session strand),
  // nothing else may keep the peer, and its socket, alive.
  HttpResponder(const std::weak_ptr<HttpPeer>& peer, std::uint64_t serial,
                mcp::TransportHeaders headers)
      : peer_(peer.lock()), serial_(serial), headers_(std::move(headers)) {}
  ~HttpResponder() override {
    if (!done_.exchange(true)) finish(std::nullopt);  // dropped unanswered: as no_reply()
  }
  void notify(std::string message) override {
    if (done_.load()) return spdlog::warn("http: notify() after the reply was dropped");
    if (peer_) peer_->post_notify(serial_, std::move(message));
  }
  void reply(std::string message) override {
    if (done_.exchange(true)) return spdlog::warn("http: second reply was dropped");
    finish(std::move(message));
  }
  void reply_with_status(std::string message, unsigned http_status) override {
    if (done_.exchange(true)) return spdlog::warn("http: second reply was dropped");
    finish(std::move(message), http_status);
  }
  const mcp::TransportHeaders* headers() const override { return &headers_; }
  void no_reply() override {
    if (!done_.exchange(true)) finish(std::nullopt);
  }
  void when_gone(const std::function<void()>& cancel) override {
    if (peer_) peer_->post_when_gone(serial_, cancel);
  }
  void open_stream() override {
    if (peer_) peer_->post_open_stream(serial_);
  }
  // Closing the event stream is the end of it on HTTP: no notification.
  void end_stream(std::string /*cancelled*/) override { no_reply(); }

 private:
  void finish(std::optional<std::string> reply, unsigned http_status = 0) {
    if (peer_) peer_->post_finish(serial_, std::move(reply), http_status);
  }
  std::shared_ptr<HttpPeer> peer_;
  std::uint64_t serial_;
  const mcp::TransportHeaders headers_;
  std::atomic<bool> done_{false};
};

HttpLink::StreamHeader make_stream_header(const HttpRequest& request) {
  HttpLink::StreamHeader header{http::status::ok, request.version()};
  header.set(http::field::server, "fcp");
  header.set(http::field::content_type, "text/event-stream");
  header.set(http::field::cache_control, "no-cache");
  header.keep_alive(request.keep_alive());
  return header;
}

bool is_parse_error(const error_code& ec) {
  return ec.category() == make_error_code(http::error::bad_method).category();
}

}  // namespace

HttpPeer::HttpPeer(boost::asio::ip::tcp::socket socket, std::shared_ptr<HttpShared> shared)
    : HttpLink(std::move(socket), shared->options),
      shared_(std::move(shared)),
      probe_timer_(stream_.get_executor()) {
  error_code ec;
  const auto remote = stream_.socket().remote_endpoint(ec);
  name_ = ec ? "unknown" : format_endpoint(remote);
  if (!ec) address_ = remote.address();
}

std::shared_ptr<HttpPeer> HttpPeer::self() {
  return std::static_pointer_cast<HttpPeer>(shared_from_this());
}

void HttpPeer::start() {
  boost::asio::post(strand(), [self = self()] { self->do_read(); });
}

void HttpPeer::shutdown(std::string reason) {
  boost::asio::post(strand(), [self = self(), reason = std::move(reason)] {
    if (!reason.empty() && !self->closed())
      spdlog::info("http: closing {}: {}", self->name_, reason);
    self->waiting_since_ = kBusy;
    self->close();
  });
}

void HttpPeer::post_notify(std::uint64_t serial, std::string message) {
  boost::asio::post(strand(), [self = self(), serial, message = std::move(message)]() mutable {
    self->on_notify(serial, std::move(message));
  });
}

void HttpPeer::post_finish(std::uint64_t serial, std::optional<std::string> reply,
                           unsigned http_status) {
  boost::asio::post(strand(),
                    [self = self(), serial, reply = std::move(reply), http_status]() mutable {
                      self->on_finish(serial, std::move(reply), http_status);
                    });
}

void HttpPeer::post_open_stream(std::uint64_t serial) {
  boost::asio::post(strand(), [self = self(), serial] {
    if (!self->awaiting_ || serial != self->serial_ || self->closed()) return;
    self->buffering_ = false;
    if (!self->streaming()) self->begin_stream(make_stream_header(self->request_), false);
    for (const auto& note : std::exchange(self->buffered_, {}))
      self->stream_event(note);
  });
}

void HttpPeer::post_when_gone(std::uint64_t serial, std::function<void()> cancel) {
  boost::asio::post(strand(), [self = self(), serial, cancel = std::move(cancel)]() mutable {
    if (serial != self->serial_) return;  // a later POST runs: this one was answered
    if (self->closed()) return cancel();  // the client left before this arrived
    if (!self->awaiting_) return;         // answered already
    self->when_gone_ = std::move(cancel);
  });
}

void HttpPeer::post_event(std::string message) {
  boost::asio::post(strand(), [self = self(), message = std::move(message)] {
    if (self->get_stream_) self->stream_event(message);
  });
}

void HttpPeer::post_end() {
  boost::asio::post(strand(), [self = self()] {
    if (self->get_stream_) self->end_stream();
  });
}

void HttpPeer::do_read() {
  waiting_since_ = Clock::now().time_since_epoch().count();
  parser_.emplace();
  parser_->body_limit(shared_->options.limits.max_message_bytes);
  parser_->header_limit(16 * 1024);
  stream_.expires_after(idle_timeout_);
  http::async_read_header(
      stream_, buffer_, *parser_,
      [self = self()](const error_code& ec, std::size_t) { self->on_header(ec); });
}

void HttpPeer::on_header(const error_code& ec) {
  waiting_since_ = kBusy;
  if (ec || closed() || parser_->is_done()) return on_read(ec);
  auto read_body = [self = self()](const error_code& write_ec = {}, std::size_t = 0) {
    if (write_ec) return self->close();
    http::async_read(self->stream_, self->buffer_, *self->parser_,
                     [self](const error_code& read_ec, std::size_t) { self->on_read(read_ec); });
  };
  // curl and others wait (about a second) for this before sending a larger body.
  if (!beast::iequals(parser_->get()[http::field::expect], "100-continue")) return read_body();
  static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
  boost::asio::async_write(stream_, boost::asio::buffer(kContinue), read_body);
}

void HttpPeer::on_read(const error_code& ec) {
  if (closed()) return;
  if (ec == http::error::body_limit) {
    auto response =
        make_error_response(parser_->get(), http::status::payload_too_large, "Payload Too Large");
    response.keep_alive(false);  // the rest of the body is never read
    return send_response(std::move(response));
  }
  if (is_parse_error(ec) && ec != http::error::end_of_stream &&
      ec != http::error::partial_message) {
    auto response = make_error_response(HttpRequest{}, http::status::bad_request, "Bad Request");
    response.keep_alive(false);
    return send_response(std::move(response));
  }
  if (ec) return close();  // the client closed, went silent past idle_timeout, or failed
  request_ = parser_->release();
  handle_request();
}

void HttpPeer::handle_request() {
  if (auto refusal = check_request(request_, shared_->options))
    return send_response(std::move(*refusal));
  principal_.reset();
  if (shared_->factory.requires_token()) {
    const auto token = bearer_token(request_);
    principal_ = token ? shared_->factory.principal_for_token(*token) : std::nullopt;
    if (!principal_) {
      spdlog::warn("http: {} {}", name_, token ? "sent a wrong token" : "sent no bearer token");
      return send_response(make_unauthorized_response(request_, token.has_value()));
    }
  }
  switch (request_.method()) {
    case http::verb::post:
      return handle_post();
    case http::verb::get:
      return handle_get();
    default:
      return handle_delete();
  }
}

std::shared_ptr<HttpSession> HttpPeer::find_session() {
  const auto id = request_[kSessionIdHeader];
  if (id.empty()) {
    send_response(make_error_response(request_, http::status::bad_request,
                                      "Bad Request: Mcp-Session-Id header is required"));
    return nullptr;
  }
  auto session = shared_->sessions.find(id);
  // Another principal's session is answered as if it did not exist.
  if (session && session->principal() != principal_) session.reset();
  if (!session)
    send_response(make_error_response(request_, http::status::not_found, "Session not found"));
  return session;
}

void HttpPeer::handle_post() {
  new_session_ = request_.count(kSessionIdHeader) == 0;
  if (new_session_) {
    std::optional<std::string> name;
    if (const auto header = request_[kSessionNameHeader]; !header.empty()) name = header;
    session_ = HttpSession::create(shared_->factory, connection_info(name));
  } else {
    session_ = find_session();
    if (!session_) return;
  }
  session_->begin_use();
  awaiting_ = true;
  buffering_ = new_session_ || request_.version() < 11;  // HTTP/1.0 has no chunked streams
  buffered_.clear();
  auto responder = std::make_shared<HttpResponder>(self(), ++serial_, mcp_headers(request_));
  session_->connection().handle(request_.body(), std::move(responder));
  if (awaiting_) probe_client();
}

mcp::ConnectionInfo HttpPeer::connection_info(std::optional<std::string> session_name) const {
  mcp::ConnectionInfo info{"http", name_, std::move(session_name), principal_};
  const auto& proxies = shared_->options.trusted_proxies;
  if (proxies.empty() || !proxies.trusts(address_)) return info;
  std::vector<std::string_view> forwarded;
  const auto [first, last] = request_.equal_range("X-Forwarded-For");
  for (auto field = first; field != last; ++field)
    forwarded.push_back(field->value());
  const auto client = proxies.client_address(address_, forwarded).to_string();
  info.peer = client + " via " + name_;
  info.client_address = client;
  return info;
}

void HttpPeer::probe_client() {
  static constexpr std::chrono::milliseconds kProbeInterval{200};
  probe_timer_.expires_after(kProbeInterval);
  probe_timer_.async_wait([self = self()](const error_code& ec) {
    if (ec || self->closed() || !self->awaiting_) return;
    char byte = 0;
    const auto n =
        ::recv(self->stream_.socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    const bool gone = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    if (gone) return self->close();  // on_closed() cancels the call
    self->probe_client();
  });
}

void HttpPeer::handle_get() {
  if (request_.version() < 11)
    return send_response(make_error_response(request_, http::status::bad_request,
                                             "Bad Request: event streams need HTTP/1.1"));
  session_ = find_session();
  if (!session_) return;
  session_->begin_use();
  get_stream_ = true;
  // Attach first: once the header is out the client may trigger messages for this stream.
  session_->attach_stream(self());
  begin_stream(make_stream_header(request_), true);
}

void HttpPeer::handle_delete() {
  auto session = find_session();
  if (!session) return;
  shared_->sessions.remove(session->id());
  session->close();
  spdlog::debug("http: {} ended its session", name_);
  send_response(make_empty_response(request_, http::status::no_content));
}

void HttpPeer::on_notify(std::uint64_t serial, std::string message) {
  if (!awaiting_ || serial != serial_ || closed()) return;
  if (buffering_) return buffered_.push_back(std::move(message));
  if (!streaming()) begin_stream(make_stream_header(request_), false);
  stream_event(message);
}

void HttpPeer::on_finish(std::uint64_t serial, std::optional<std::string> reply,
                         unsigned http_status) {
  if (!awaiting_ || serial != serial_ || closed()) return;
  awaiting_ = false;
  when_gone_ = nullptr;
  probe_timer_.cancel();
  if (streaming()) {
    if (reply) stream_event(*reply);
    end_stream();
    // A stream outside a session (open_stream: a 2026-07-28 listen) keeps nothing.
    if (new_session_ && !session_->connection().initialized()) session_->close();
  } else if (new_session_) {
    respond_new_session(std::move(reply), http_status);
  } else if (reply || !buffered_.empty()) {
    send_response(buffered_response(std::move(reply), http_status));
  } else {
    send_response(make_empty_response(request_, http::status::accepted));
  }
  release_session();
}

void HttpPeer::respond_new_session(std::optional<std::string> reply, unsigned http_status) {
  if (!session_->connection().initialized() && reply && http_status != 0) {
    // A stateless request (MCP 2026-07-28): answered with the status its revision prescribes, and
    // nothing kept.
    session_->close();
    return send_response(buffered_response(std::move(reply), http_status));
  }
  if (!session_->connection().initialized()) {
    // Not an initialize (or a failed one): nothing to keep; the reply, if any, explains why.
    session_->close();
    auto response = make_error_response(request_, http::status::bad_request,
                                        "Bad Request: Mcp-Session-Id header is required");
    if (reply) {
      response.body() = std::move(*reply);
      response.prepare_payload();
    }
    return send_response(std::move(response));
  }
  if (!shared_->sessions.add(session_)) {
    session_->close();
    return send_response(
        make_error_response(request_, http::status::service_unavailable, "Too many sessions"));
  }
  spdlog::debug("http: {} opened session {}", name_, session_->id());
  auto response = reply || !buffered_.empty()
                      ? buffered_response(std::move(reply))
                      : make_empty_response(request_, http::status::accepted);
  response.set(kSessionIdHeader, session_->id());
  send_response(std::move(response));
}

HttpResponse HttpPeer::buffered_response(std::optional<std::string> reply, unsigned http_status) {
  // An event stream has begun well whatever its last event says.
  const auto status =
      http_status != 0 && buffered_.empty() ? http::int_to_status(http_status) : http::status::ok;
  HttpResponse response{status, request_.version()};
  response.set(http::field::server, "fcp");
  response.keep_alive(request_.keep_alive());
  if (buffered_.empty()) {
    response.set(http::field::content_type, "application/json");
    response.body() = std::move(*reply);
  } else {
    response.set(http::field::content_type, "text/event-stream");
    response.set(http::field::cache_control, "no-cache");
    for (const auto& note : buffered_)
      response.body() += format_sse_event(note);
    if (reply) response.body() += format_sse_event(*reply);
    buffered_.clear();
  }
  response.prepare_payload();
  return response;
}

void HttpPeer::release_session() {
  if (session_) session_->end_use();
  session_.reset();
}

void HttpPeer::on_response_sent(bool keep_alive) {
  if (get_stream_) return close();  // its watching read is still pending: no reuse
  if (!keep_alive) return linger_close();
  do_read();
}

void HttpPeer::on_closed() {
  shared_->peers.remove(this);
  probe_timer_.cancel();
  if (session_ && get_stream_) session_->detach_stream(this);
  // A Connection that never got an id cannot be reached again.
  if (session_ && awaiting_ && new_session_) session_->close();
  if (awaiting_ && when_gone_) {
    spdlog::info("http: {} left during a call: cancelling it", name_);
    std::exchange(when_gone_, nullptr)();
  }
  awaiting_ = false;
  release_session();
}

}  // namespace fcp::transport

#include "cli/http_channel.hpp"

#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json/parse.hpp>
#include <cctype>
#include <limits>

#include "cli/errors.hpp"
#include "cli/version.hpp"

namespace fcp::cli {
namespace http = boost::beast::http;
namespace {

// "Text/Event-Stream; charset=utf-8" → "text/event-stream"
std::string media_type(std::string_view header) {
  std::string type(header.substr(0, header.find(';')));
  while (!type.empty() && type.back() == ' ')
    type.pop_back();
  for (char& c : type)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return type;
}

// An error page that still carries a JSON-RPC message is handed to the MCP layer, so the
// daemon's own error text reaches the user.
bool is_jsonrpc_message(const std::string& body) {
  boost::system::error_code ec;
  auto value = boost::json::parse(body, ec);
  return !ec && value.is_object() && value.as_object().contains("jsonrpc");
}

// A kept-alive connection the server has since closed fails like this before any reply byte.
bool is_stale_connection(const boost::beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == boost::asio::error::eof ||
         ec == boost::asio::error::connection_reset || ec == boost::asio::error::broken_pipe;
}

std::string excerpt(const std::string& body) {
  constexpr std::size_t limit = 300;
  std::string text = body.size() > limit ? body.substr(0, limit) + "…" : body;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.pop_back();
  return text;
}

}  // namespace

HttpChannel::HttpChannel(Endpoint endpoint, std::optional<std::string> session_name,
                         std::chrono::milliseconds timeout, std::optional<std::string> token)
    : endpoint_(std::move(endpoint)),
      session_name_(std::move(session_name)),
      timeout_(timeout),
      token_(std::move(token)) {}

HttpChannel::Request HttpChannel::make_request(http::verb method, const std::string& body) const {
  Request request{method, endpoint_.target, 11};
  request.set(http::field::host, endpoint_.authority());
  request.set(http::field::user_agent,
              std::string(client_name) + "/" + std::string(client_version));
  request.set(http::field::accept, "application/json, text/event-stream");
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  if (!session_id_.empty()) request.set("Mcp-Session-Id", session_id_);
  if (!protocol_version_.empty()) request.set("MCP-Protocol-Version", protocol_version_);
  if (session_name_) request.set("Fcp-Session", *session_name_);
  if (token_) request.set(http::field::authorization, "Bearer " + *token_);
  request.body() = body;
  request.prepare_payload();
  return request;
}

void HttpChannel::check(const boost::beast::error_code& ec,
                        std::chrono::milliseconds timeout) const {
  if (!ec) return;
  if (ec == boost::beast::error::timeout) throw timeout_error(timeout);
  if (is_stale_connection(ec)) throw ChannelError("the daemon closed the connection");
  throw ChannelError("HTTP connection to the daemon failed: " + ec.message());
}

void HttpChannel::exchange_head(const Request& request, std::chrono::milliseconds timeout) {
  for (int attempt = 0;; ++attempt) {
    bool fresh = !net_.is_open();
    if (fresh) {
      buffer_.clear();
      net_.connect(endpoint_.host, endpoint_.port, timeout,
                   "http://" + endpoint_.authority() + endpoint_.target);
    }
    auto ec = net_.run(timeout, [&](auto handler) {
      http::async_write(net_.stream(), request, std::move(handler));
    });
    if (!ec) {
      parser_.emplace();
      parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
      ec = net_.run(timeout, [&](auto handler) {
        http::async_read_header(net_.stream(), buffer_, *parser_, std::move(handler));
      });
    }
    if (!ec) return;
    net_.close();
    if (fresh || attempt > 0 || !is_stale_connection(ec)) check(ec, timeout);
  }
}

void HttpChannel::send(const std::string& message) {
  if (closed_) throw ChannelError("the connection to the daemon is closed");
  if (streaming_) {
    // The previous reply already arrived; dropping the rest of its stream is cheaper than
    // waiting for the server to end it.
    net_.close();
    streaming_ = false;
  }
  exchange_head(make_request(http::verb::post, message), timeout_);
  handle_response_head();
}

void HttpChannel::handle_response_head() {
  auto& response = parser_->get();
  if (auto id = response["Mcp-Session-Id"]; !id.empty()) session_id_ = std::string(id);
  unsigned status = response.result_int();
  bool success = status >= 200 && status < 300;
  if (success && media_type(response[http::field::content_type]) == "text/event-stream") {
    streaming_ = true;
    sse_ = SseParser{};
    feed_sse();
    if (parser_->is_done()) finish_response();
    return;
  }
  read_whole_body(timeout_);
  std::string body = std::move(response.body());
  std::string reason(response.reason());
  finish_response();
  if (status == 401) {
    throw ChannelError("HTTP 401 from http://" + endpoint_.authority() + endpoint_.target + ": " +
                       (token_ ? "the daemon refused the token (check $FCPD_TOKEN or --token-file)"
                               : "the daemon needs a token: set FCPD_TOKEN or pass --token-file "
                                 "FILE"));
  }
  if (success || is_jsonrpc_message(body)) {
    if (!body.empty()) inbox_.push_back(std::move(body));
    return;
  }
  std::string url = "http://" + endpoint_.authority() + endpoint_.target;
  throw ChannelError("HTTP " + std::to_string(status) + " " + reason + " from " + url +
                     (body.empty() ? "" : ": " + excerpt(body)));
}

void HttpChannel::read_whole_body(std::chrono::milliseconds timeout) {
  if (parser_->is_done()) return;
  auto ec = net_.run(timeout, [&](auto handler) {
    http::async_read(net_.stream(), buffer_, *parser_, std::move(handler));
  });
  if (ec) net_.close();
  check(ec, timeout);
}

void HttpChannel::finish_response() {
  streaming_ = false;
  if (!parser_->keep_alive()) net_.close();
}

void HttpChannel::feed_sse() {
  auto& body = parser_->get().body();
  for (auto& event : sse_.feed(body)) {
    if (is_message_event(event) && !event.data.empty()) inbox_.push_back(std::move(event.data));
  }
  body.clear();  // the string body only appends at its end, so consumed bytes can go
}

bool HttpChannel::read_stream(std::chrono::milliseconds timeout) {
  auto ec = net_.run(timeout, [&](auto handler) {
    http::async_read_some(net_.stream(), buffer_, *parser_, std::move(handler));
  });
  if (ec) {
    streaming_ = false;
    net_.close();
    check(ec, timeout);
  }
  feed_sse();
  if (parser_->is_done()) finish_response();
  return streaming_;
}

std::string HttpChannel::receive(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (inbox_.empty()) {
    if (!streaming_) throw ChannelError("the daemon's HTTP response ended without the reply");
    auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) throw timeout_error(timeout);
    read_stream(left);
  }
  std::string message = std::move(inbox_.front());
  inbox_.pop_front();
  return message;
}

void HttpChannel::close() noexcept {
  if (closed_) return;
  closed_ = true;
  if (!session_id_.empty()) {
    try {
      if (streaming_) net_.close();
      streaming_ = false;
      auto timeout = std::min(timeout_, std::chrono::milliseconds(5000));
      exchange_head(make_request(http::verb::delete_, ""), timeout);
      read_whole_body(timeout);
    } catch (const std::exception&) {
      // Ending the session is a courtesy; the server expires it anyway.
    }
  }
  net_.close();
}

}  // namespace fcp::cli

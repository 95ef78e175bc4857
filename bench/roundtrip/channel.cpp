#include "bench/roundtrip/channel.hpp"

#include <array>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <vector>

namespace fcp::bench {
namespace {

namespace http = beast::http;

json::value parse_message(std::string_view text) {
  boost::system::error_code ec;
  json::value message = json::parse(text, ec);
  if (ec || !message.is_object()) throw BenchError("not a JSON-RPC message: " + clip(text));
  return message;
}

// True for the response to `id`; false for notifications and server requests; throws for a
// response to anything else (the calls are sequential, so that is a protocol error).
bool is_response_to(const json::value& message, std::int64_t id) {
  const auto& object = message.as_object();
  if (object.contains("method")) return false;
  const auto* got = object.if_contains("id");
  if (got != nullptr) {
    if (got->is_int64() && got->get_int64() == id) return true;
    if (got->is_uint64() && got->get_uint64() == static_cast<std::uint64_t>(id)) return true;
  }
  throw BenchError("expected the response to request " + std::to_string(id) +
                   ", got: " + clip(json::serialize(message)));
}

// The data of each event of a text/event-stream body.
std::vector<std::string> event_stream_data(std::string_view body) {
  std::vector<std::string> events;
  std::string data;
  while (!body.empty()) {
    auto end = body.find('\n');
    std::string_view line = body.substr(0, end);
    body.remove_prefix(end == std::string_view::npos ? body.size() : end + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
      if (!data.empty()) events.push_back(std::move(data));
      data.clear();
    } else if (line.starts_with("data:")) {
      line.remove_prefix(line.starts_with("data: ") ? 6 : 5);
      if (!data.empty()) data += '\n';
      data += line;
    }
  }
  if (!data.empty()) events.push_back(std::move(data));
  return events;
}

std::string describe(const boost::system::system_error& e) {
  if (e.code() == asio::error::eof || e.code() == beast::http::error::end_of_stream) {
    return "the daemon closed the connection without answering";
  }
  return e.code().message();
}

}  // namespace

// ---- LineChannel --------------------------------------------------------------------------

LineChannel::LineChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout)
    : watchdog_(executor, timeout, [this] { close(); }) {}

void LineChannel::fail(const std::exception& e, const char* doing) const {
  if (watchdog_.fired()) {
    throw BenchError("no progress within " + std::to_string(watchdog_.timeout().count()) + " ms " +
                     doing);
  }
  const auto* system = dynamic_cast<const boost::system::system_error*>(&e);
  throw BenchError(std::string(doing) + ": " + (system ? describe(*system) : e.what()));
}

asio::awaitable<json::value> LineChannel::request(std::string_view body, std::int64_t id) {
  std::string text(body);
  text += '\n';
  try {
    watchdog_.arm();
    co_await write_text(text);
    for (;;) {
      json::value message = parse_message(co_await read_line());
      if (is_response_to(message, id)) {
        watchdog_.disarm();
        co_return message;
      }
    }
  } catch (const boost::system::system_error& e) {
    fail(e, "waiting for a reply");
  }
}

asio::awaitable<void> LineChannel::notify(std::string_view body) {
  std::string text(body);
  text += '\n';
  try {
    watchdog_.arm();
    co_await write_text(text);
    watchdog_.disarm();
  } catch (const boost::system::system_error& e) {
    fail(e, "sending a notification");
  }
}

asio::awaitable<std::string> LineChannel::read_line() {
  const std::size_t n = co_await read_until_newline(buffer_);
  std::string line = buffer_.substr(0, n - 1);
  buffer_.erase(0, n);
  co_return line;
}

// ---- StdioChannel -------------------------------------------------------------------------

StdioChannel::StdioChannel(const asio::any_io_executor& executor, int to_daemon, int from_daemon,
                           std::chrono::milliseconds timeout)
    : LineChannel(executor, timeout),
      to_daemon_(executor, to_daemon),
      from_daemon_(executor, from_daemon) {}

StdioChannel::~StdioChannel() {
  close();
}

void StdioChannel::close() {
  boost::system::error_code ignored;
  to_daemon_.close(ignored);
  from_daemon_.close(ignored);
}

asio::awaitable<void> StdioChannel::write_text(const std::string& text) {
  co_await asio::async_write(to_daemon_, asio::buffer(text), asio::use_awaitable);
}

asio::awaitable<std::size_t> StdioChannel::read_until_newline(std::string& buffer) {
  co_return co_await asio::async_read_until(from_daemon_, asio::dynamic_buffer(buffer), '\n',
                                            asio::use_awaitable);
}

// ---- TcpChannel ---------------------------------------------------------------------------

TcpChannel::TcpChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout)
    : LineChannel(executor, timeout), socket_(executor) {}

TcpChannel::~TcpChannel() {
  close();
}

asio::awaitable<void> TcpChannel::connect(const asio::ip::tcp::endpoint& endpoint) {
  try {
    watchdog_.arm();
    co_await socket_.async_connect(endpoint, asio::use_awaitable);
    socket_.set_option(asio::ip::tcp::no_delay(true));
    watchdog_.disarm();
  } catch (const boost::system::system_error& e) {
    fail(e, "connecting over TCP");
  }
}

asio::awaitable<void> TcpChannel::close_gracefully() {
  try {
    watchdog_.arm();
    socket_.shutdown(asio::ip::tcp::socket::shutdown_send);
    std::array<char, 256> sink{};
    for (;;) {
      auto [ec, n] =
          co_await socket_.async_read_some(asio::buffer(sink), asio::as_tuple(asio::use_awaitable));
      if (ec == asio::error::eof) break;
      if (ec) throw boost::system::system_error(ec);
    }
    watchdog_.disarm();
  } catch (const boost::system::system_error& e) {
    fail(e, "closing the TCP connection");
  }
  close();
}

void TcpChannel::close() {
  boost::system::error_code ignored;
  socket_.close(ignored);
}

asio::awaitable<void> TcpChannel::write_text(const std::string& text) {
  co_await asio::async_write(socket_, asio::buffer(text), asio::use_awaitable);
}

asio::awaitable<std::size_t> TcpChannel::read_until_newline(std::string& buffer) {
  co_return co_await asio::async_read_until(socket_, asio::dynamic_buffer(buffer), '\n',
                                            asio::use_awaitable);
}

// ---- HttpChannel --------------------------------------------------------------------------

HttpChannel::HttpChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout)
    : socket_(executor), watchdog_(executor, timeout, [this] { close(); }) {}

HttpChannel::~HttpChannel() {
  close();
}

void HttpChannel::close() {
  boost::system::error_code ignored;
  socket_.close(ignored);
  buffer_.consume(buffer_.size());
  open_ = false;
}

asio::awaitable<void> HttpChannel::connect(const asio::ip::tcp::endpoint& endpoint,
                                           std::string target) {
  endpoint_ = endpoint;
  target_ = std::move(target);
  host_ = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  watchdog_.arm();
  co_await socket_.async_connect(endpoint_, asio::use_awaitable);
  socket_.set_option(asio::ip::tcp::no_delay(true));
  watchdog_.disarm();
  open_ = true;
}

asio::awaitable<HttpChannel::Reply> HttpChannel::exchange(std::string_view body) {
  http::request<http::string_body> request{http::verb::post, target_, 11};
  request.set(http::field::host, host_);
  request.set(http::field::content_type, "application/json");
  request.set(http::field::accept, "application/json, text/event-stream");
  request.keep_alive(true);
  if (!session_id_.empty()) request.set("Mcp-Session-Id", session_id_);
  if (!protocol_version_.empty()) request.set("MCP-Protocol-Version", protocol_version_);
  request.body() = std::string(body);
  request.prepare_payload();
  co_await http::async_write(socket_, request, asio::use_awaitable);
  http::response<http::string_body> response;
  co_await http::async_read(socket_, buffer_, response, asio::use_awaitable);
  co_return Reply{response.result_int(), std::string(response[http::field::content_type]),
                  std::string(response["Mcp-Session-Id"]), std::move(response.body()),
                  response.keep_alive()};
}

asio::awaitable<HttpChannel::Reply> HttpChannel::post(std::string_view body) {
  try {
    if (!open_) {
      ++reconnects_;
      co_await connect(endpoint_, target_);
    }
    watchdog_.arm();
    Reply reply = co_await exchange(body);
    watchdog_.disarm();
    if (!reply.keep_alive) close();
    co_return reply;
  } catch (const boost::system::system_error& e) {
    if (watchdog_.fired()) {
      throw BenchError("no progress within " + std::to_string(watchdog_.timeout().count()) +
                       " ms on an HTTP exchange");
    }
    throw BenchError("HTTP exchange: " + describe(e));
  }
}

asio::awaitable<json::value> HttpChannel::request(std::string_view body, std::int64_t id) {
  Reply reply = co_await post(body);
  if (reply.status != 200) {
    throw BenchError("HTTP " + std::to_string(reply.status) + " to a request: " + clip(reply.body));
  }
  if (session_id_.empty()) session_id_ = reply.session_id;
  if (reply.content_type.starts_with("text/event-stream")) {
    for (const auto& data : event_stream_data(reply.body)) {
      json::value message = parse_message(data);
      if (is_response_to(message, id)) co_return message;
    }
    throw BenchError("the event stream ended without the response: " + clip(reply.body));
  }
  json::value message = parse_message(reply.body);
  if (!is_response_to(message, id)) throw BenchError("no response in: " + clip(reply.body));
  co_return message;
}

asio::awaitable<void> HttpChannel::notify(std::string_view body) {
  Reply reply = co_await post(body);
  if (reply.status != 202 && reply.status != 200 && reply.status != 204) {
    throw BenchError("HTTP " + std::to_string(reply.status) +
                     " to a notification: " + clip(reply.body));
  }
}

}  // namespace fcp::bench

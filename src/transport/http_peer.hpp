// One HTTP connection of the Streamable HTTP transport: reads requests and routes them to MCP
// sessions (POST), event streams (GET) and session ends (DELETE).
#pragma once

#include <atomic>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/parser.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/connection.hpp"
#include "transport/http_link.hpp"
#include "transport/http_sessions.hpp"
#include "transport/live_set.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

class HttpPeer;

// State shared by an HttpServer and its connections; connections may outlive the server.
// Thread: any (its members are thread-safe or immutable).
struct HttpShared {
  HttpShared(mcp::ConnectionFactory& f, HttpOptions o)
      : factory(f),
        options(std::move(o)),
        sessions(options.max_sessions, options.session_id_prefix) {}
  mcp::ConnectionFactory& factory;
  const HttpOptions options;
  SessionTable sessions;
  LiveSet<HttpPeer> peers;
};

// Requests are handled one at a time (the next is read once the response is complete). A POST
// hands its body to the session's Connection with a Responder that posts back to this strand;
// the first Responder call picks the response: reply() → application/json, notify() → an SSE
// stream ending with the reply, no_reply() → 202. A POST without Mcp-Session-Id creates a
// Connection; its response is held until the reply so that the Mcp-Session-Id header can be
// added once the Connection is initialized (or the Connection closed and 400 returned if not; a
// stateless 2026-07-28 request is answered with the status the MCP layer gave its reply).
// Thread: public functions from any thread; the rest on strand(). Ownership: see HttpLink.
class HttpPeer final : public HttpLink, public EventSink {
 public:
  HttpPeer(boost::asio::ip::tcp::socket socket, std::shared_ptr<HttpShared> shared);

  using Clock = std::chrono::steady_clock;

  void start();
  // Closes the connection; a reason, when given, is logged.
  void shutdown(std::string reason = {});
  // Any thread. The client's address (unspecified if it was unknown at accept).
  const boost::asio::ip::address& address() const { return address_; }
  // Who a new session's requests come from: this peer, or behind a trusted proxy the client
  // X-Forwarded-For names (TrustedProxies::client_address).
  mcp::ConnectionInfo connection_info(std::optional<std::string> session_name) const;
  // Any thread. Since when the connection has waited for a request (a request whose header has
  // not arrived whole counts as none), or nullopt while it serves one or streams: the
  // connection a full listener closes first.
  std::optional<Clock::time_point> idle_since() const {
    const auto since = waiting_since_.load();
    if (since == kBusy) return std::nullopt;
    return Clock::time_point(Clock::duration(since));
  }
  // Responder side.
  void post_notify(std::uint64_t serial, std::string message);
  // `http_status`: the status the MCP layer chose for the reply (0: the transport's default).
  void post_finish(std::uint64_t serial, std::optional<std::string> reply,
                   unsigned http_status = 0);
  // The POST `serial` is cancelled by `cancel` if the client leaves before its answer.
  // Responder::open_stream of the POST `serial`: its response begins now as an event stream.
  void post_open_stream(std::uint64_t serial);
  void post_when_gone(std::uint64_t serial, std::function<void()> cancel);
  // EventSink: the GET stream of a session.
  void post_event(std::string message) override;
  void post_end() override;

 private:
  static constexpr Clock::rep kBusy = std::numeric_limits<Clock::rep>::min();

  std::shared_ptr<HttpPeer> self();
  void do_read();
  void on_header(const boost::system::error_code& ec);
  void on_read(const boost::system::error_code& ec);
  void handle_request();
  void handle_post();
  void handle_get();
  void handle_delete();
  std::shared_ptr<HttpSession> find_session();
  void on_notify(std::uint64_t serial, std::string message);
  void on_finish(std::uint64_t serial, std::optional<std::string> reply, unsigned http_status);
  void respond_new_session(std::optional<std::string> reply, unsigned http_status);
  HttpResponse buffered_response(std::optional<std::string> reply, unsigned http_status = 0);
  void release_session();
  void on_response_sent(bool keep_alive) override;
  // While a POST awaits its answer nothing reads the socket: this looks (without taking a byte)
  // every kProbeInterval whether the client closed it, and closes the peer if so.
  void probe_client();
  void on_closed() override;

  std::shared_ptr<HttpShared> shared_;
  std::string name_;
  boost::asio::ip::address address_;
  std::atomic<Clock::rep> waiting_since_{kBusy};
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  HttpRequest request_;
  std::optional<std::string> principal_;  // whose bearer token the request carries
  std::shared_ptr<HttpSession> session_;  // of the request or stream in progress
  std::uint64_t serial_ = 0;              // of the POST in progress; stale Responders are ignored
  bool awaiting_ = false;                 // the POST waits for its Responder
  std::function<void()> when_gone_;
  boost::asio::steady_timer probe_timer_;  // cancels the awaited POST's call (Responder::when_gone)
  bool new_session_ = false;
  bool buffering_ = false;  // hold notifications: the status and headers depend on the reply
  std::vector<std::string> buffered_;
  bool get_stream_ = false;
};

}  // namespace fcp::transport

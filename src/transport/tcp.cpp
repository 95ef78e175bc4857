#include "transport/tcp.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "transport/admission.hpp"
#include "transport/line_channel.hpp"
#include "transport/listener.hpp"
#include "transport/live_set.hpp"

namespace fcp::transport {

// One accepted socket. Beast-examples shape: every handler runs on the socket's strand, a
// pending read or write holds a shared_ptr to the peer, and the peer dies with its last one.
// One timer enforces the deadline of the state the connection is in (see next_deadline()).
class TcpPeer final : public LineChannel {
 public:
  using Clock = std::chrono::steady_clock;

  TcpPeer(boost::asio::ip::tcp::socket socket, boost::asio::io_context::executor_type loop,
          const Limits& limits, std::shared_ptr<LiveSet<TcpPeer>> peers)
      : LineChannel(socket.get_executor(), std::move(loop), limits),
        socket_(std::move(socket)),
        deadline_timer_(socket_.get_executor()),
        peers_(std::move(peers)),
        limits_(limits),
        read_buffer_(64 * 1024) {
    boost::system::error_code ec;
    const auto remote = socket_.remote_endpoint(ec);
    name_ = ec ? "unknown" : format_endpoint(remote);
    if (!ec) address_ = remote.address();
  }

  // Any thread.
  void start(mcp::ConnectionFactory& factory) {
    boost::asio::post(strand(), [self = self(), &factory] {
      boost::system::error_code ignored;
      self->socket_.set_option(boost::asio::ip::tcp::no_delay(true), ignored);
      self->open(factory, mcp::ConnectionInfo{"tcp", self->name_, std::nullopt, std::nullopt});
      spdlog::debug("tcp: {} connected", self->name_);
      self->last_activity_ = Clock::now();
      self->do_read();
      self->update_deadline();
    });
  }

  // Any thread.
  void shutdown(std::string reason = {}) {
    boost::asio::post(strand(), [self = self(), reason = std::move(reason)] {
      if (!reason.empty() && !self->closed_)
        spdlog::info("tcp: closing {}: {}", self->name_, reason);
      self->close_now();
    });
  }

  // Any thread. The client's address (unspecified if it was unknown at accept).
  const boost::asio::ip::address& address() const { return address_; }
  const std::string& name() const { return name_; }
  // Any thread. When the connection became idle (no call, no partial message, nothing to write),
  // or nullopt while it is not idle: the connection a full listener closes first.
  std::optional<Clock::time_point> idle_since() const {
    const auto since = idle_since_.load();
    if (since == kBusy) return std::nullopt;
    return Clock::time_point(Clock::duration(since));
  }

 private:
  static constexpr Clock::rep kBusy = std::numeric_limits<Clock::rep>::min();

  std::shared_ptr<TcpPeer> self() { return std::static_pointer_cast<TcpPeer>(shared_from_this()); }

  void do_read() {
    reading_ = true;
    socket_.async_read_some(boost::asio::buffer(read_buffer_),
                            [self = self()](const boost::system::error_code& ec, std::size_t n) {
                              self->on_read(ec, n);
                            });
  }

  void on_read(const boost::system::error_code& ec, std::size_t n) {
    reading_ = false;
    if (closed_) return;
    if (ec) {
      if (ec != boost::asio::error::eof) spdlog::debug("tcp: {} read: {}", name_, ec.message());
      return close_now();
    }
    idle_since_ = kBusy;  // before the calls start: a listener must not close it meanwhile
    last_activity_ = Clock::now();
    if (std::exchange(first_read_, false) && looks_like_http(read_buffer_.data(), n))
      return refuse_http();
    deliver(std::string_view(read_buffer_.data(), n));
    if (closed_) return;
    if (input_over_budget()) {
      spdlog::warn("tcp: closing {}: partial messages of all connections exceed {} bytes", name_,
                   limits_.max_total_partial_bytes);
      return close_now();
    }
    if (pending_input_bytes() == 0) {
      partial_since_.reset();
    } else if (!partial_since_) {
      partial_since_ = last_activity_;
    }
    read_on_after_calls();
    update_deadline();
  }

  // An HTTP request line ("POST /mcp HTTP/1.1") sent to the TCP port: a client configured with
  // the wrong endpoint. Nothing it sends can be a JSON-RPC message.
  static bool looks_like_http(const char* data, std::size_t n) {
    const std::string_view start(data, std::min<std::size_t>(n, 256));
    const auto space = start.find(' ');
    if (space == std::string_view::npos || space == 0 || space > 10) return false;
    const auto method = start.substr(0, space);
    if (!std::all_of(method.begin(), method.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
      return false;
    const auto line = start.substr(0, start.find('\n'));
    return line.find(" HTTP/") != std::string_view::npos;
  }

  // Answers in HTTP, so that the client shows the reason, and closes.
  void refuse_http() {
    spdlog::info("tcp: closing {}: an HTTP request on the TCP port (newline-delimited JSON-RPC)",
                 name_);
    static constexpr std::string_view kBody =
        "This port speaks MCP as newline-delimited JSON-RPC over TCP; use the HTTP endpoint "
        "/mcp.\n";
    response_ = fmt::format(
        "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n"
        "Content-Length: {}\r\n\r\n{}",
        kBody.size(), kBody);
    close_connection();
    boost::asio::async_write(
        socket_, boost::asio::buffer(response_),
        [self = self()](const boost::system::error_code&, std::size_t) { self->close_now(); });
  }

  // The deadline of the connection's state: a reply being written must make progress within
  // write_timeout; a call running has none (calls have their own limits); a partial message must
  // be complete within message_timeout of its first byte; an idle connection closes after
  // idle_timeout. Strand.
  std::optional<std::pair<Clock::time_point, const char*>> next_deadline() {
    if (!write_idle()) return std::pair{write_progress_ + limits_.write_timeout, "reply not read"};
    if (requests_in_flight() > 0) return std::nullopt;
    if (partial_since_)
      return std::pair{*partial_since_ + limits_.message_timeout, "message not completed in time"};
    return std::pair{last_activity_ + limits_.idle_timeout, "idle"};
  }

  void update_deadline() {
    if (closed_) return;
    const auto deadline = next_deadline();
    const bool idle = write_idle() && requests_in_flight() == 0 && !partial_since_;
    idle_since_ = idle ? last_activity_.time_since_epoch().count() : kBusy;
    if (!deadline) {
      if (armed_) deadline_timer_.cancel();
      armed_ = false;
      return;
    }
    if (armed_ && armed_for_ == deadline->first) return;
    armed_ = true;
    armed_for_ = deadline->first;
    deadline_timer_.expires_at(deadline->first);
    deadline_timer_.async_wait([self = self()](const boost::system::error_code& ec) {
      if (!ec) self->on_deadline();
    });
  }

  void on_deadline() {
    armed_ = false;
    if (closed_) return;
    const auto deadline = next_deadline();
    if (deadline && deadline->first <= Clock::now()) {
      spdlog::info("tcp: closing {}: {}", name_, deadline->second);
      return close_now();
    }
    update_deadline();
  }

  void close_now() {
    if (closed_) return;
    closed_ = true;
    idle_since_ = kBusy;
    spdlog::debug("tcp: {} disconnected", name_);
    deadline_timer_.cancel();
    close_connection();
    stop_writing();
    boost::system::error_code ignored;
    socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    peers_->remove(this);
  }

  void write_batch(const std::vector<std::string>& lines) override {
    write_progress_ = Clock::now();
    write_buffers_.clear();
    for (const auto& line : lines)
      write_buffers_.emplace_back(boost::asio::buffer(line));
    boost::asio::async_write(socket_, write_buffers_,
                             [self = self()](const boost::system::error_code& ec, std::size_t) {
                               self->on_write_done(ec);
                             });
    update_deadline();
  }
  void resume_reading() override {
    if (!closed_ && !reading_) do_read();
  }
  void on_write_error(const boost::system::error_code& ec) override {
    if (!closed_) spdlog::debug("tcp: {} write: {}", name_, ec.message());
    close_now();
  }
  void on_write_idle() override {
    last_activity_ = Clock::now();
    update_deadline();
  }
  void on_request_finished() override {
    last_activity_ = Clock::now();
    update_deadline();
  }
  void on_close_requested() override {
    spdlog::info("tcp: closing {}: not authenticated", name_);
    close_now();
  }

  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer deadline_timer_;
  std::shared_ptr<LiveSet<TcpPeer>> peers_;
  Limits limits_;
  std::vector<char> read_buffer_;
  std::vector<boost::asio::const_buffer> write_buffers_;
  std::string name_;
  boost::asio::ip::address address_;
  bool reading_ = false;
  bool closed_ = false;
  bool first_read_ = true;
  std::string response_;  // refuse_http()'s answer while it is written
  Clock::time_point last_activity_{};
  Clock::time_point write_progress_{};
  std::optional<Clock::time_point> partial_since_;
  bool armed_ = false;
  Clock::time_point armed_for_{};
  std::atomic<Clock::rep> idle_since_{kBusy};
};

TcpServer::TcpServer(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
                     boost::asio::ip::tcp::endpoint endpoint, Limits limits)
    : io_(io),
      factory_(factory),
      endpoint_(std::move(endpoint)),
      limits_(std::move(limits)),
      peers_(std::make_shared<LiveSet<TcpPeer>>()) {}

TcpServer::~TcpServer() {
  stop();
}

core::Result<void> TcpServer::start() {
  if (listener_) return core::make_error("tcp: already started");
  // The listener may outlive the server (pending accept), so it captures only what it owns.
  listener_ = std::make_shared<Listener>(io_, "tcp",
                                         [&factory = factory_, loop = io_.get_executor(),
                                          limits = limits_, peers = peers_](auto socket) {
                                           boost::system::error_code ec;
                                           const auto remote = socket.remote_endpoint(ec);
                                           if (ec) return;  // gone already
                                           if (!make_room(*peers, limits, remote.address(), "tcp"))
                                             return;  // the socket closes here
                                           auto peer = std::make_shared<TcpPeer>(
                                               std::move(socket), loop, limits, peers);
                                           peers->add(peer);
                                           peer->start(factory);
                                         });
  auto bound = listener_->listen(endpoint_);
  if (!bound) return bound.error();
  endpoint_ = *bound;
  return {};
}

void TcpServer::stop_accepting() {
  if (listener_) listener_->stop();
}

void TcpServer::stop() {
  if (listener_) listener_->stop();
  for (const auto& peer : peers_->snapshot())
    peer->shutdown();
}

}  // namespace fcp::transport

#include "transport/http.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <utility>

#include "transport/admission.hpp"
#include "transport/http_peer.hpp"
#include "transport/listener.hpp"

namespace fcp::transport {

// Closes sessions unused for options.session_idle_timeout, checking a few times per timeout.
// Thread: its own strand. Ownership: shared_ptr; the pending wait holds one.
class SessionReaper : public std::enable_shared_from_this<SessionReaper> {
 public:
  SessionReaper(boost::asio::io_context& io, std::shared_ptr<HttpShared> shared)
      : shared_(std::move(shared)), timer_(boost::asio::make_strand(io)) {}

  void start() {
    boost::asio::post(timer_.get_executor(), [self = shared_from_this()] { self->arm(); });
  }
  void stop() {
    boost::asio::post(timer_.get_executor(), [self = shared_from_this()] {
      self->stopped_ = true;
      self->timer_.cancel();
    });
  }

 private:
  void arm() {
    if (stopped_) return;
    using std::chrono::milliseconds;
    const auto idle = shared_->options.session_idle_timeout;
    timer_.expires_after(std::clamp<milliseconds>(idle / 4, milliseconds(10), milliseconds(60000)));
    timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
      if (ec || self->stopped_) return;
      self->sweep();
      self->arm();
    });
  }

  void sweep() {
    const auto cutoff = HttpSession::Clock::now() - shared_->options.session_idle_timeout;
    for (const auto& session : shared_->sessions.remove_expired(cutoff)) {
      spdlog::info("http: session {} expired", session->id());
      session->close();
    }
  }

  std::shared_ptr<HttpShared> shared_;
  boost::asio::steady_timer timer_;
  bool stopped_ = false;
};

HttpServer::HttpServer(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
                       boost::asio::ip::tcp::endpoint endpoint, HttpOptions options)
    : io_(io),
      endpoint_(std::move(endpoint)),
      shared_(std::make_shared<HttpShared>(factory, std::move(options))) {}

HttpServer::~HttpServer() {
  stop();
}

core::Result<void> HttpServer::start() {
  if (listener_) return core::make_error("http: already started");
  listener_ = std::make_shared<Listener>(io_, "http", [shared = shared_](auto socket) {
    boost::system::error_code ec;
    const auto remote = socket.remote_endpoint(ec);
    if (ec) return;  // gone already
    if (!make_room(shared->peers, shared->options.limits, remote.address(), "http"))
      return;  // the socket closes as it goes out of scope
    auto peer = std::make_shared<HttpPeer>(std::move(socket), shared);
    shared->peers.add(peer);
    peer->start();
  });
  auto bound = listener_->listen(endpoint_);
  if (!bound) return bound.error();
  endpoint_ = *bound;
  reaper_ = std::make_shared<SessionReaper>(io_, shared_);
  reaper_->start();
  return {};
}

void HttpServer::stop_accepting() {
  if (listener_) listener_->stop();
}

void HttpServer::stop() {
  if (listener_) listener_->stop();
  if (reaper_) reaper_->stop();
  for (const auto& peer : shared_->peers.snapshot())
    peer->shutdown();
  for (const auto& session : shared_->sessions.remove_all())
    session->close();
}

}  // namespace fcp::transport

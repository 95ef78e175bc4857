#include "domains/lofi/bridge/bridge.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/serialize.hpp>
#include <future>
#include <random>
#include <thread>

#include "core/thread_hooks.hpp"

namespace fcp::lofi::bridge {

namespace asio = boost::asio;
using boost::asio::ip::udp;
using Clock = std::chrono::steady_clock;

struct Bridge::Pending {
  Pending(std::string to, std::function<void(Exchange)> on_done, std::chrono::milliseconds wait,
          const asio::strand<asio::io_context::executor_type>& strand)
      : address(std::move(to)), done(std::move(on_done)), timeout(wait), timer(strand) {}
  std::string address;
  std::function<void(Exchange)> done;
  std::chrono::milliseconds timeout;
  asio::steady_timer timer;
  Clock::time_point sent_at = Clock::now();
};

struct Bridge::ReceiveBuffer {
  std::array<char, 65536> bytes{};
  udp::endpoint sender;
};

namespace {

constexpr int kBindRetries = 5;

std::string format_duration(std::chrono::milliseconds duration) {
  const auto ms = duration.count();
  if (ms < 1000) return fmt::format("{} ms", ms);
  if (ms % 1000 == 0) return fmt::format("{} s", ms / 1000);
  return fmt::format("{:g} s", static_cast<double>(ms) / 1000.0);
}

std::string random_prefix() {
  std::random_device device;
  std::uniform_int_distribution<std::uint32_t> digits;
  return fmt::format("{:08x}", digits(device));
}

Exchange failed(Outcome outcome, std::string message) {
  Exchange exchange;
  exchange.outcome = outcome;
  exchange.result = core::make_error(std::move(message));
  return exchange;
}

}  // namespace

core::Result<udp::endpoint> resolve_udp(asio::io_context& io, const std::string& host,
                                        std::uint16_t port, std::string_view role) {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  if (!ec) return udp::endpoint(address, port);
  udp::resolver resolver(io);
  auto results = resolver.resolve(udp::v4(), host, std::to_string(port), ec);
  if (ec || results.empty()) results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty()) {
    return core::make_error(fmt::format("cannot resolve {}\"{}\": {}",
                                        role.empty() ? "" : fmt::format("{} ", role), host,
                                        ec ? ec.message() : "no address"));
  }
  return results.begin()->endpoint();
}

Bridge::Bridge(PrivateTag, asio::io_context& io, BridgeOptions options, udp::endpoint target)
    : io_(io),
      options_(std::move(options)),
      target_(std::move(target)),
      strand_(asio::make_strand(io)),
      socket_(strand_),
      timeout_ms_(options_.timeout.count()),
      id_prefix_(random_prefix()) {}

Bridge::~Bridge() {
  // Nobody else can touch the state now: every handler holds only a weak reference.
  const std::string message =
      fmt::format("the connection to Max at {}:{} was closed", options_.host, options_.port);
  for (auto& [id, pending] : pending_) {
    asio::post(io_, [done = std::move(pending->done), message] {
      done(failed(Outcome::not_sent, message));
    });
  }
  spdlog::debug("lofi bridge to {}:{} (reply port {}) released", options_.host, options_.port,
                reply_port_);
}

core::Result<std::shared_ptr<Bridge>> Bridge::open(asio::io_context& io, BridgeOptions options) {
  auto target = resolve_udp(io, options.host, options.port, "the Max host");
  if (!target) return target.error();
  auto bridge = std::make_shared<Bridge>(PrivateTag{}, io, std::move(options), *target);
  if (auto bound = bridge->bind(); !bound) return bound.error();
  bridge->start_receive();
  spdlog::info("lofi bridge: sending to Max at {}:{}, listening for replies on port {}",
               bridge->options_.host, bridge->options_.port, bridge->reply_port_);
  return bridge;
}

core::Result<void> Bridge::bind() {
  const auto protocol = target_.protocol();
  asio::ip::address local;
  if (target_.address().is_loopback()) {
    local = target_.address().is_v4() ? asio::ip::address(asio::ip::address_v4::loopback())
                                      : asio::ip::address(asio::ip::address_v6::loopback());
  } else {
    local = target_.address().is_v4() ? asio::ip::address(asio::ip::address_v4::any())
                                      : asio::ip::address(asio::ip::address_v6::any());
  }
  boost::system::error_code ec;
  socket_.open(protocol, ec);
  if (!ec) socket_.bind(udp::endpoint(local, options_.reply_port), ec);
  // A bridge on this port that was just let go may still be closing on an io thread (its last
  // handler finishing): give it a moment before calling the port taken.
  for (int retry = 0; ec == asio::error::address_in_use && retry < kBindRetries; ++retry) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ec.clear();
    socket_.bind(udp::endpoint(local, options_.reply_port), ec);
  }
  if (ec == asio::error::address_in_use) {
    return core::make_error(
        fmt::format(
            "reply port {} is already in use on this machine (another fcpd, a LOFI MONSTER server, "
            "or another lofi connection?)",
            options_.reply_port),
        {fmt::format("connect reply:{}", options_.reply_port + 1)});
  }
  if (ec) {
    return core::make_error(fmt::format("cannot listen for Max replies on {}:{}: {}",
                                        local.to_string(), options_.reply_port, ec.message()));
  }
  reply_port_ = socket_.local_endpoint(ec).port();
  socket_.set_option(asio::socket_base::receive_buffer_size(1 << 20), ec);  // best effort
  return {};
}

std::chrono::milliseconds Bridge::timeout() const {
  return std::chrono::milliseconds(timeout_ms_.load());
}

void Bridge::set_timeout(std::chrono::milliseconds timeout) {
  timeout_ms_ = timeout.count();
}

template <class F>
void Bridge::update_health(F&& change) {
  std::lock_guard lock(health_mutex_);
  change(health_);
}

BridgeHealth Bridge::health() const {
  std::lock_guard lock(health_mutex_);
  return health_;
}

void Bridge::request(const std::string& verb, const boost::json::object& payload,
                     std::function<void(core::Result<Reply>)> done) {
  exchange(verb, payload,
           [done = std::move(done)](Exchange exchange) { done(std::move(exchange.result)); });
}

void Bridge::ping(std::function<void(core::Result<double>)> done) {
  const auto start = Clock::now();
  exchange("ping", {}, [done = std::move(done), start](const Exchange& exchange) {
    if (!exchange.result) return done(exchange.result.error());
    done(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  });
}

core::Result<Bridge::Pong> Bridge::ping_and_wait(std::chrono::milliseconds wait) {
  auto promise = std::make_shared<std::promise<core::Result<Reply>>>();
  auto future = promise->get_future();
  const auto start = Clock::now();
  auto deliver = [promise](core::Result<Reply> reply) { promise->set_value(std::move(reply)); };
  exchange_within("ping", {}, wait,
                  [deliver](Exchange exchange) { deliver(std::move(exchange.result)); });
  const auto limit = wait.count() > 0 ? wait : timeout();
  auto reply = [&]() -> core::Result<Reply> {
    const core::BlockingScope blocking;  // the reply arrives through the event loop
    // Bounded by the timeout here too, not only by the timer on the bridge's io_context: when
    // every thread running that io_context waits in here (concurrent probes on a daemon whose
    // event-loop threads are all busy), the timer cannot fire and an unbounded wait never ends.
    if (future.wait_for(limit + std::chrono::milliseconds(100)) != std::future_status::ready)
      return core::make_error(timeout_message("/lofi/ping", limit));
    return future.get();
  }();
  if (!reply) return reply.error();
  return Pong{std::move(*reply),
              std::chrono::duration<double, std::milli>(Clock::now() - start).count()};
}

void Bridge::exchange(const std::string& verb, const boost::json::object& payload,
                      std::function<void(Exchange)> done) {
  exchange_within(verb, payload, {}, std::move(done));
}

void Bridge::exchange_within(const std::string& verb, const boost::json::object& payload,
                             std::chrono::milliseconds wait, std::function<void(Exchange)> done) {
  std::string address = "/lofi/" + verb;
  if (closed_) {
    return post_done(std::move(done), failed(Outcome::not_sent, closed_message()));
  }
  std::string id = next_request_id();
  auto packet = request_packet(verb, payload, id);
  if (!packet) {
    Exchange refused;
    refused.result = packet.error();
    return post_done(std::move(done), std::move(refused));
  }
  asio::post(strand_, [weak = weak_from_this(), id = std::move(id), address = std::move(address),
                       packet = std::make_shared<std::string>(std::move(*packet)),
                       done = std::move(done), closed = closed_message(), wait]() mutable {
    auto self = weak.lock();
    if (!self) return done(failed(Outcome::not_sent, closed));
    self->start_request(std::move(id), std::move(address), packet,
                        wait.count() > 0 ? wait : self->timeout(), std::move(done));
  });
}

void Bridge::post_done(std::function<void(Exchange)> done, Exchange exchange) {
  asio::post(strand_, [done = std::move(done), exchange = std::move(exchange)]() mutable {
    done(std::move(exchange));
  });
}

std::string Bridge::closed_message() const {
  return fmt::format("the connection to Max at {}:{} is closed", options_.host, options_.port);
}

std::string Bridge::next_request_id() {
  return fmt::format("{}-{}", id_prefix_, next_id_.fetch_add(1));
}

void Bridge::start_request(std::string id, std::string address,
                           const std::shared_ptr<std::string>& packet,
                           std::chrono::milliseconds wait, std::function<void(Exchange)> done) {
  if (closed_) {
    done(failed(Outcome::not_sent, closed_message()));
    return;
  }
  spdlog::debug("lofi → {} {}", address, id);
  auto pending = std::make_unique<Pending>(address, std::move(done), wait, strand_);
  pending->timer.expires_after(pending->timeout);
  pending->timer.async_wait([weak = weak_from_this(), id](boost::system::error_code ec) {
    if (auto self = weak.lock(); self && !ec) self->on_timeout(id);
  });
  correlator_.add(id);
  pending_.emplace(id, std::move(pending));
  update_health([this](BridgeHealth& health) {
    ++health.requests;
    health.pending = pending_.size();
  });
  socket_.async_send_to(
      asio::buffer(*packet), target_,
      [weak = weak_from_this(), id, packet](boost::system::error_code ec, std::size_t) {
        auto self = weak.lock();
        if (!ec || !self) return;
        self->correlator_.abandon(id);
        self->finish(id, failed(Outcome::not_sent, fmt::format("could not send to Max at {}:{}: {}",
                                                               self->options_.host,
                                                               self->options_.port, ec.message())));
      });
}

std::string Bridge::timeout_message(const std::string& address,
                                    std::chrono::milliseconds timeout) const {
  if (target_.address().is_loopback()) {
    return fmt::format(
        "Max did not answer {} within {} — is the lofi daemon patch open in Max, listening on "
        "udpreceive {} and sending to 127.0.0.1:{}? (lofi_session connect to change ports)",
        address, format_duration(timeout), options_.port, reply_port_);
  }
  return fmt::format(
      "Max did not answer {} within {} — is the lofi daemon patch open in Max on {}, listening "
      "on udpreceive {} and sending to this machine's port {}? (lofi_session connect to change "
      "ports)",
      address, format_duration(timeout), options_.host, options_.port, reply_port_);
}

void Bridge::on_timeout(const std::string& id) {
  auto it = pending_.find(id);
  if (it == pending_.end() || !correlator_.time_out(id)) return;
  std::string message = timeout_message(it->second->address, it->second->timeout);
  spdlog::warn("lofi: {} (request {})", message, id);
  update_health([&message](BridgeHealth& health) {
    health.answering = false;
    ++health.timeouts;
    health.last_error = message;
  });
  finish(id, failed(Outcome::timed_out, std::move(message)));
}

void Bridge::finish(const std::string& id, Exchange exchange) {
  auto it = pending_.find(id);
  if (it == pending_.end()) return;
  auto pending = std::move(it->second);
  pending_.erase(it);
  pending->timer.cancel();
  const double rtt =
      std::chrono::duration<double, std::milli>(Clock::now() - pending->sent_at).count();
  const bool replied =
      exchange.outcome == Outcome::answered || exchange.outcome == Outcome::refused;
  update_health([&](BridgeHealth& health) {
    health.pending = pending_.size();
    if (replied) {
      health.answering = true;
      health.last_rtt_ms = rtt;
      ++health.replies;
    }
    if (exchange.outcome == Outcome::refused || exchange.outcome == Outcome::not_sent) {
      health.last_error = exchange.result.error().message;
    }
  });
  // Posted, so that the handler that got here (holding the bridge) has let go by the time the
  // caller hears back: a caller that then drops the bridge really frees the reply port.
  asio::post(strand_, [done = std::move(pending->done), exchange = std::move(exchange)]() mutable {
    done(std::move(exchange));
  });
}

void Bridge::start_receive() {
  receive_loop(weak_from_this(), std::make_shared<ReceiveBuffer>());
}

void Bridge::receive_loop(std::weak_ptr<Bridge> weak, std::shared_ptr<ReceiveBuffer> buffer) {
  auto self = weak.lock();
  if (!self || self->closed_) return;
  auto& bytes = buffer->bytes;
  auto& sender = buffer->sender;
  self->socket_.async_receive_from(
      asio::buffer(bytes), sender,
      [weak = std::move(weak), buffer = std::move(buffer)](boost::system::error_code ec,
                                                           std::size_t size) mutable {
        auto bridge = weak.lock();
        if (!bridge || ec == asio::error::operation_aborted || bridge->closed_) return;
        if (!ec) {
          bridge->on_datagram(std::string_view(buffer->bytes.data(), size));
        } else if (ec != asio::error::connection_refused) {
          spdlog::error("lofi bridge: receiving on port {} failed: {}", bridge->reply_port_,
                        ec.message());
          return;
        }
        receive_loop(std::move(weak), std::move(buffer));
      });
}

void Bridge::on_datagram(std::string_view datagram) {
  auto messages = decode_osc(datagram);
  if (!messages) {
    spdlog::warn("lofi: dropped a {}-byte datagram that is not OSC: {}", datagram.size(),
                 messages.error().message);
    update_health([&](BridgeHealth& health) {
      ++health.malformed_packets;
      health.last_error = "a datagram from Max was not OSC: " + messages.error().message;
    });
    return;
  }
  for (const auto& message : *messages) {
    auto reply = parse_reply(message);
    if (!reply) {
      spdlog::warn("lofi: dropped a message that is not a LOFI reply: {}", reply.error().message);
      update_health([](BridgeHealth& health) { ++health.malformed_packets; });
      continue;
    }
    on_reply(*reply);
  }
}

void Bridge::on_reply(const Reply& reply) {
  const auto outcome = correlator_.match(reply.request_id);
  switch (outcome.match) {
    case Correlator::Match::matched: {
      auto it = pending_.find(outcome.request_id);
      if (it == pending_.end()) return;  // already failed (send error) and abandoned
      spdlog::debug("lofi ← {} {}", it->second->address, outcome.request_id);
      if (reply.ok) {
        Exchange answered;
        answered.outcome = Outcome::answered;
        answered.result = reply;
        return finish(outcome.request_id, std::move(answered));
      }
      std::string message =
          reply.message.empty()
              ? fmt::format("Max refused {} (its reply gave no message)", it->second->address)
              : reply.message;
      return finish(outcome.request_id, failed(Outcome::refused, std::move(message)));
    }
    case Correlator::Match::late:
      spdlog::warn("lofi: late reply to request {} after its timeout — dropped", reply.request_id);
      return update_health([](BridgeHealth& health) { ++health.late_replies; });
    case Correlator::Match::duplicate:
      spdlog::info("lofi: duplicate reply to request {} — dropped", reply.request_id);
      return update_health([](BridgeHealth& health) { ++health.duplicate_replies; });
    case Correlator::Match::ambiguous:
      spdlog::warn(
          "lofi: a reply without requestId arrived while {} requests were pending; cannot tell "
          "which it answers — dropped: {}",
          correlator_.pending(), boost::json::serialize(reply.body));
      return update_health([](BridgeHealth& health) { ++health.unmatched_replies; });
    case Correlator::Match::unmatched:
      spdlog::warn("lofi: a reply matching no pending request (requestId \"{}\") — dropped: {}",
                   reply.request_id, boost::json::serialize(reply.body));
      return update_health([](BridgeHealth& health) { ++health.unmatched_replies; });
  }
}

void Bridge::fail_all_pending(const std::string& message) {
  for (const auto& id : correlator_.pending_ids()) {
    correlator_.abandon(id);
    finish(id, failed(Outcome::not_sent, message));
  }
}

void Bridge::join(const std::shared_ptr<void>& owner) {
  std::lock_guard lock(sessions_mutex_);
  std::erase_if(sessions_, [](const auto& weak) { return weak.expired(); });
  for (const auto& weak : sessions_) {
    if (weak.lock() == owner) return;
  }
  sessions_.push_back(owner);
}

void Bridge::leave(const void* owner) {
  std::lock_guard lock(sessions_mutex_);
  std::erase_if(sessions_, [owner](const auto& weak) {
    auto live = weak.lock();
    return !live || live.get() == owner;
  });
  if (auto driver = driver_.lock(); driver && driver.get() == owner) {
    driver_.reset();
    driven_device_.clear();
  }
}

std::size_t Bridge::sessions() const {
  std::lock_guard lock(sessions_mutex_);
  return static_cast<std::size_t>(std::count_if(sessions_.begin(), sessions_.end(),
                                                [](const auto& weak) { return !weak.expired(); }));
}

core::Result<void> Bridge::claim(const std::shared_ptr<void>& owner, const std::string& device,
                                 bool takeover) {
  std::lock_guard lock(sessions_mutex_);
  auto driver = driver_.lock();
  if (driver && driver != owner && !takeover) {
    return core::make_error(fmt::format(
        "Max at {}:{} is driven by another session (device \"{}\"); re-initialising it would "
        "take that device away from it",
        options_.host, options_.port, driven_device_));
  }
  driver_ = owner;
  driven_device_ = device;
  return {};
}

bool Bridge::drives(const void* owner) const {
  std::lock_guard lock(sessions_mutex_);
  auto driver = driver_.lock();
  return driver && driver.get() == owner;
}

std::string Bridge::driven_device() const {
  std::lock_guard lock(sessions_mutex_);
  return driver_.expired() ? std::string() : driven_device_;
}

void Bridge::close() {
  if (closed_.exchange(true)) return;
  asio::post(strand_, [self = shared_from_this()] {
    boost::system::error_code ec;
    self->socket_.close(ec);
    self->fail_all_pending(fmt::format("the connection to Max at {}:{} was closed",
                                       self->options_.host, self->options_.port));
    spdlog::info("lofi bridge to {}:{} closed (reply port {} released)", self->options_.host,
                 self->options_.port, self->reply_port_);
  });
}

}  // namespace fcp::lofi::bridge

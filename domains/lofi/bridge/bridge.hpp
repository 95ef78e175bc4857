// The bridge to the Max daemon: requests over OSC/UDP, correlated replies, timeouts, health,
// and delivery of an op's external effects with compensation.
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/object.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/effects.hpp"
#include "core/result.hpp"
#include "domains/lofi/bridge/correlator.hpp"
#include "domains/lofi/bridge/protocol.hpp"

namespace fcp::lofi::bridge {

struct BridgeOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 7400;        // Max listens here
  std::uint16_t reply_port = 7401;  // we listen here (0: any free port, see Bridge::reply_port)
  std::chrono::milliseconds timeout{5000};
};

struct BridgeHealth {
  bool answering = false;  // the last request that ended got a reply (ok or error)
  std::optional<double> last_rtt_ms;
  std::size_t pending = 0;
  std::size_t timeouts = 0;
  std::size_t late_replies = 0;
  std::string last_error;
  // Beyond the brief: every dropped datagram is counted somewhere.
  std::size_t requests = 0;           // requests sent
  std::size_t replies = 0;            // replies matched to a request
  std::size_t duplicate_replies = 0;  // a second reply to an answered request
  std::size_t unmatched_replies = 0;  // unknown id, or no id with zero or several pending
  std::size_t malformed_packets = 0;  // not OSC, or OSC but not a LOFI reply
};

// How a request ended, for callers that must tell "Max said no" from "Max said nothing".
enum class Outcome {
  answered,   // Max replied ok: result holds the Reply
  refused,    // Max replied with an error: result holds its message
  timed_out,  // no reply within the timeout (Max may still have acted on it)
  not_sent,   // refused before sending (too large, bad verb, bridge closed) or the send failed
};
struct Exchange {
  Outcome outcome = Outcome::not_sent;
  core::Result<Reply> result;
};

// One UDP socket bound to reply_port (shared by every session using these options), sending
// to host:port from that same socket.
// Thread: every public method may be called from any thread; state lives on one strand;
// completion callbacks run on that strand (an io_context thread) and must not block.
// Lifetime: held by shared_ptr; handlers hold only weak references (or a strong one for the
// microseconds a handler runs), so the socket closes and the reply port is free again as soon as
// the last holder lets go, or on close(). Requests still pending then fail with "closed": hold
// the bridge until your requests complete. A delivery in progress holds the bridge until done.
// `host` (an address, or a name resolved synchronously, IPv4 preferred) and `port` as a UDP
// endpoint. The error names the host, after `role` ("the Max host") when given.
core::Result<boost::asio::ip::udp::endpoint> resolve_udp(boost::asio::io_context& io,
                                                         const std::string& host,
                                                         std::uint16_t port,
                                                         std::string_view role = {});

class Bridge : public core::EffectExecutor, public std::enable_shared_from_this<Bridge> {
 public:
  // Binds reply_port (on loopback when host is loopback, else on every interface) and starts
  // receiving. `host` may be a name: it is resolved here, synchronously (IPv4 preferred).
  // Errors name the port and what to do when it is taken.
  static core::Result<std::shared_ptr<Bridge>> open(boost::asio::io_context& io,
                                                    BridgeOptions options);
  ~Bridge() override;
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  // The options as opened. The effective timeout, which set_timeout (and so BridgeHub::get)
  // may change later, is timeout().
  const BridgeOptions& options() const { return options_; }
  std::chrono::milliseconds timeout() const;
  // Applies to requests started afterwards.
  void set_timeout(std::chrono::milliseconds timeout);
  // The bound reply port (the real one when options().reply_port was 0).
  std::uint16_t reply_port() const { return reply_port_; }

  // Sends /lofi/<verb> with `payload` plus a fresh requestId; `done` gets the reply or an error
  // (timeout: a message naming the address, the ports and what to check; a Max error reply:
  // its message; too large: refused before sending). Never blocks; done() exactly once.
  void request(const std::string& verb, const boost::json::object& payload,
               std::function<void(core::Result<Reply>)> done);
  // The same, also saying how the request ended.
  void exchange(const std::string& verb, const boost::json::object& payload,
                std::function<void(Exchange)> done);
  // /lofi/ping; completes with the round-trip time in milliseconds.
  void ping(std::function<void(core::Result<double>)> done);
  // /lofi/ping, waited for on the calling thread (at most the timeout), for answers that must be
  // synchronous (a query, the connect probe). The wait is announced with core::BlockingScope so
  // the daemon's event loop, which delivers the reply, keeps running meanwhile. Never call it
  // from the only thread running the bridge's io_context.
  struct Pong {
    Reply reply;
    double milliseconds = 0;
  };
  // `wait`: how long to wait at most (zero: the bridge's timeout).
  core::Result<Pong> ping_and_wait(std::chrono::milliseconds wait = {});

  // EffectExecutor: Effect.address is "/lofi/<verb>", Effect.payload the JSON object text ("" is
  // {}). Delivers in order, each awaiting its reply. On the first failure it sends the undo
  // effects of every confirmed effect, newest first (each effect's own undo list in order) —
  // and, when the failure was a timeout, the undo of the timed-out effect first, since Max may
  // have acted on it. Compensation awaits each reply so order holds, but once one of them times
  // out the rest are sent without waiting (so it never waits more than one timeout). The
  // failure is reported with its original message, plus a note when compensation failed.
  void deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
               std::function<void(core::Result<void>)> done) override;

  // Delivers effects that do not depend on each other's replies to be sent (a sync: Max runs
  // requests in arrival order) with up to `window` requests in flight, in order. Stops sending
  // at the first failure and reports it once every request sent has ended; no compensation
  // (a sync rebuilds the device from /lofi/init, so a repeat starts afresh).
  void deliver_windowed(std::vector<core::Effect> effects, std::size_t window,
                        core::DeliveryProgress progress,
                        std::function<void(core::Result<void>)> done);

  // The Max daemon has ONE current device, which /lofi/init re-targets: the sessions linked to
  // this Max share it, and one of them at a time drives it. Sessions are known by an owner
  // object they hold (their link); one that is gone counts no more.
  void join(const std::shared_ptr<void>& owner);
  void leave(const void* owner);
  // Live sessions joined.
  std::size_t sessions() const;
  // Makes `owner` the driver of `device`. Refused (naming the device and what to do) while
  // another live session drives, unless `takeover`.
  core::Result<void> claim(const std::shared_ptr<void>& owner, const std::string& device,
                           bool takeover);
  bool drives(const void* owner) const;
  // The device the driving session works on, "" when no live session drives.
  std::string driven_device() const;

  BridgeHealth health() const;
  // Closes the socket; pending requests fail with "closed"; later requests fail at once.
  // Idempotent.
  void close();

 private:
  struct PrivateTag {};
  struct Pending;

 public:
  Bridge(PrivateTag, boost::asio::io_context& io, BridgeOptions options,
         boost::asio::ip::udp::endpoint target);

 private:
  struct ReceiveBuffer;

  core::Result<void> bind();
  void start_receive();
  static void receive_loop(std::weak_ptr<Bridge> weak, std::shared_ptr<ReceiveBuffer> buffer);
  void on_datagram(std::string_view datagram);
  void on_reply(const Reply& reply);
  void exchange_within(const std::string& verb, const boost::json::object& payload,
                       std::chrono::milliseconds wait, std::function<void(Exchange)> done);
  void start_request(std::string id, std::string address,
                     const std::shared_ptr<std::string>& packet, std::chrono::milliseconds wait,
                     std::function<void(Exchange)> done);
  void on_timeout(const std::string& id);
  void finish(const std::string& id, Exchange exchange);
  void fail_all_pending(const std::string& message);
  std::string next_request_id();
  std::string closed_message() const;
  std::string timeout_message(const std::string& address, std::chrono::milliseconds timeout) const;
  void post_done(std::function<void(Exchange)> done, Exchange exchange);
  template <class F>
  void update_health(F&& change);

  boost::asio::io_context& io_;
  BridgeOptions options_;
  boost::asio::ip::udp::endpoint target_;
  std::uint16_t reply_port_ = 0;
  boost::asio::strand<boost::asio::io_context::executor_type> strand_;
  boost::asio::ip::udp::socket socket_;
  std::atomic<std::int64_t> timeout_ms_;
  std::atomic<bool> closed_{false};
  std::atomic<std::uint64_t> next_id_{1};
  std::string id_prefix_;

  // Owned by strand_.
  Correlator correlator_;
  std::unordered_map<std::string, std::unique_ptr<Pending>> pending_;

  mutable std::mutex health_mutex_;
  BridgeHealth health_;

  mutable std::mutex sessions_mutex_;
  std::vector<std::weak_ptr<void>> sessions_;
  std::weak_ptr<void> driver_;
  std::string driven_device_;
};

// Hands out one Bridge per (host, port, reply_port), so sessions share the reply socket.
// The hub does not keep bridges alive: when no session holds one, its socket closes and the
// next get() opens a new one. The timeout is per bridge, last wins: get() sets the bridge's
// timeout to options.timeout (affecting later requests of every session sharing it).
// Thread: get() may be called from any thread.
class BridgeHub {
 public:
  explicit BridgeHub(boost::asio::io_context& io);
  // Errors: the reply port is taken (by another bridge of this hub with other Max ports, or by
  // another program), the host cannot be resolved.
  core::Result<std::shared_ptr<Bridge>> get(const BridgeOptions& options);

 private:
  using Key = std::tuple<std::string, std::uint16_t, std::uint16_t>;
  boost::asio::io_context& io_;
  std::mutex mutex_;
  std::map<Key, std::weak_ptr<Bridge>> bridges_;
};

}  // namespace fcp::lofi::bridge

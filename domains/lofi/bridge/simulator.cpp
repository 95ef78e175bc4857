#include "domains/lofi/bridge/simulator.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/ip/udp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <mutex>
#include <optional>
#include <random>

#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/bridge/osc.hpp"
#include "domains/lofi/bridge/protocol.hpp"

namespace fcp::lofi::bridge {

namespace asio = boost::asio;
namespace json = boost::json;
using boost::asio::ip::udp;

namespace {

constexpr std::string_view kGarbage = "\xff\xfenot OSC at all\x01";

// The JSON text a daemon message carries: its one string argument ("" when it has none).
std::string payload_text(const OscMessage& message) {
  for (const auto& argument : message.arguments) {
    if (const auto* text = std::get_if<std::string>(&argument)) return *text;
  }
  return "";
}

}  // namespace

struct Simulator::Impl : std::enable_shared_from_this<Simulator::Impl> {
  Impl(asio::io_context& io, SimulatorOptions given)
      : strand(asio::make_strand(io)), socket(strand), options(std::move(given)) {}

  void receive();
  void on_datagram(std::string_view datagram);
  void handle(const OscMessage& message);
  // The reply datagrams for one message under the current fault (empty: stay silent).
  std::vector<std::string> replies_for(const OscMessage& message, const std::string& text,
                                       std::chrono::milliseconds& delay);
  void send(std::vector<std::string> datagrams, std::chrono::milliseconds delay);

  asio::strand<asio::io_context::executor_type> strand;
  udp::socket socket;
  std::optional<udp::endpoint> reply_to;  // nullopt: reply to the sender
  udp::endpoint sender;
  std::array<char, 65536> buffer{};
  std::uint16_t port = 0;
  bool closed = false;  // strand

  mutable std::mutex mutex;  // guards options' fault fields, log and model
  SimulatorOptions options;
  std::vector<std::string> log;
  SimulatorModel model;
  std::minstd_rand random{20240521};
};

void Simulator::Impl::receive() {
  socket.async_receive_from(
      asio::buffer(buffer), sender,
      [self = shared_from_this()](boost::system::error_code ec, std::size_t size) {
        if (self->closed || ec == asio::error::operation_aborted) return;
        if (!ec) self->on_datagram(std::string_view(self->buffer.data(), size));
        self->receive();
      });
}

void Simulator::Impl::on_datagram(std::string_view datagram) {
  auto messages = decode_osc(datagram);
  if (!messages) {
    spdlog::warn("simulated Max: ignored a datagram that is not OSC: {}", messages.error().message);
    return;
  }
  for (const auto& message : *messages)
    handle(message);
}

void Simulator::Impl::handle(const OscMessage& message) {
  const std::string text = payload_text(message);
  std::function<void(const std::string&, const std::string&)> observer;
  std::chrono::milliseconds delay{0};
  std::vector<std::string> datagrams;
  {
    std::lock_guard lock(mutex);
    log.push_back(message.address + " " + text);
    observer = options.on_message;
    datagrams = replies_for(message, text, delay);
  }
  if (observer) observer(message.address, text);
  send(std::move(datagrams), delay);
}

std::vector<std::string> Simulator::Impl::replies_for(const OscMessage& message,
                                                      const std::string& text,
                                                      std::chrono::milliseconds& delay) {
  if (options.fault == Fault::silent) return {};
  boost::system::error_code ec;
  json::value parsed = text.empty() ? json::value(json::object{}) : json::parse(text, ec);
  json::object reply;
  json::value request_id;
  if (ec || !parsed.is_object()) {
    reply = {{"status", "error"}, {"message", "the payload is not a JSON object"}};
  } else {
    if (const auto* id = parsed.as_object().if_contains("requestId")) request_id = *id;
    if (options.fault == Fault::error) {
      reply = {{"status", "error"}, {"message", "simulated Max error"}};
    } else if (!options.fail_on.empty() && message.address == options.fail_on) {
      reply = {{"status", "error"},
               {"message", fmt::format("simulated failure of {}", message.address)}};
    } else {
      reply = model.handle(message.address, parsed.as_object());
    }
  }
  OscMessage out;
  auto rule = AddressRule::osc;
  if (options.fault == Fault::no_id) {
    out.address = json::serialize(reply);
    rule = AddressRule::any;
  } else {
    if (!request_id.is_null()) reply["requestId"] = request_id;
    out.address = std::string(kReplyAddress);
    out.arguments.emplace_back(json::serialize(reply));
  }
  auto encoded = encode_osc(out, rule);
  if (!encoded) {
    spdlog::error("simulated Max: cannot encode a reply: {}", encoded.error().message);
    return {};
  }
  std::vector<std::string> datagrams;
  if (options.fault == Fault::garbage) datagrams.emplace_back(kGarbage);
  datagrams.push_back(*encoded);
  if (options.fault == Fault::duplicate) datagrams.push_back(*encoded);
  delay = options.delay;
  if (options.jitter.count() > 0) {
    delay += std::chrono::milliseconds(
        std::uniform_int_distribution<std::int64_t>(0, options.jitter.count())(random));
  }
  return datagrams;
}

void Simulator::Impl::send(std::vector<std::string> datagrams, std::chrono::milliseconds delay) {
  if (datagrams.empty()) return;
  const udp::endpoint target = reply_to.value_or(sender);
  auto send_all = [self = shared_from_this(), target,
                   datagrams = std::make_shared<std::vector<std::string>>(std::move(datagrams))] {
    if (self->closed) return;
    for (const auto& datagram : *datagrams) {
      self->socket.async_send_to(asio::buffer(datagram), target,
                                 [datagrams](boost::system::error_code ec, std::size_t) {
                                   if (ec)
                                     spdlog::warn("simulated Max: send failed: {}", ec.message());
                                 });
    }
  };
  if (delay.count() <= 0) return send_all();
  auto timer = std::make_shared<asio::steady_timer>(strand, delay);
  timer->async_wait([timer, send_all](boost::system::error_code ec) {
    if (!ec) send_all();
  });
}

core::Result<std::unique_ptr<Simulator>> Simulator::start(asio::io_context& io,
                                                          SimulatorOptions options) {
  auto listen = resolve_udp(io, options.listen_host, options.port);
  if (!listen) return listen.error();
  std::optional<udp::endpoint> reply_to;
  if (options.reply_port != 0) {
    auto target = resolve_udp(io, options.reply_host, options.reply_port);
    if (!target) return target.error();
    reply_to = *target;
  }
  auto impl = std::make_shared<Impl>(io, std::move(options));
  impl->reply_to = reply_to;
  boost::system::error_code ec;
  impl->socket.open(listen->protocol(), ec);
  if (!ec) impl->socket.bind(*listen, ec);
  if (ec) {
    return core::make_error(fmt::format("the Max simulator cannot listen on {}:{}: {}",
                                        listen->address().to_string(), listen->port(),
                                        ec.message()));
  }
  impl->port = impl->socket.local_endpoint(ec).port();
  impl->receive();
  return std::unique_ptr<Simulator>(new Simulator(std::move(impl)));
}

Simulator::~Simulator() {
  stop();
}

std::uint16_t Simulator::port() const {
  return impl_->port;
}

std::vector<std::string> Simulator::log() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->log;
}

void Simulator::clear_log() {
  std::lock_guard lock(impl_->mutex);
  impl_->log.clear();
}

void Simulator::set_fault(Fault fault, std::chrono::milliseconds delay) {
  std::lock_guard lock(impl_->mutex);
  impl_->options.fault = fault;
  impl_->options.delay = delay;
}

void Simulator::set_fail_on(std::string address) {
  std::lock_guard lock(impl_->mutex);
  impl_->options.fail_on = std::move(address);
}

SimulatorModel Simulator::model() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->model;
}

void Simulator::stop() {
  asio::post(impl_->strand, [impl = impl_] {
    if (impl->closed) return;
    impl->closed = true;
    boost::system::error_code ec;
    impl->socket.close(ec);
  });
}

}  // namespace fcp::lofi::bridge

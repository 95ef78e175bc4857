// Bridge::deliver: an op's effects, in order, with compensation in Max on the first failure.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/json/parse.hpp>
#include <optional>

#include "domains/lofi/bridge/bridge.hpp"

namespace fcp::lofi::bridge {

namespace {

constexpr std::string_view kLofiPrefix = "/lofi/";

struct ParsedEffect {
  std::string verb;
  boost::json::object payload;
};

core::Result<ParsedEffect> parse_effect(const core::Effect& effect) {
  if (!effect.address.starts_with(kLofiPrefix) || effect.address.size() == kLofiPrefix.size()) {
    return core::make_error(
        fmt::format("effect address \"{}\" is not /lofi/<verb>", effect.address));
  }
  ParsedEffect parsed;
  parsed.verb = effect.address.substr(kLofiPrefix.size());
  if (effect.payload.empty()) return parsed;
  boost::system::error_code ec;
  auto json = boost::json::parse(effect.payload, ec);
  if (ec || !json.is_object()) {
    return core::make_error(
        fmt::format("the payload of effect {} is not a JSON object", effect.address));
  }
  parsed.payload = std::move(json.as_object());
  return parsed;
}

// One delivery: a chain of exchanges, each started from the previous one's completion (so on the
// bridge's strand). Keeps itself alive through the callbacks it hands to the bridge.
class EffectDelivery : public std::enable_shared_from_this<EffectDelivery> {
 public:
  EffectDelivery(std::shared_ptr<Bridge> bridge, std::vector<core::Effect> effects,
                 core::DeliveryProgress progress, std::function<void(core::Result<void>)> done)
      : bridge_(std::move(bridge)),
        effects_(std::move(effects)),
        progress_(std::move(progress)),
        done_(std::move(done)) {}

  void deliver_next() {
    if (index_ == effects_.size()) return done_(core::Result<void>{});
    auto parsed = parse_effect(effects_[index_]);
    if (!parsed) return compensate(parsed.error(), false);
    bridge_->exchange(
        parsed->verb, parsed->payload, [self = shared_from_this()](const Exchange& exchange) {
          if (exchange.outcome == Outcome::answered) {
            ++self->index_;
            if (self->progress_) self->progress_(self->index_, self->effects_.size());
            return self->deliver_next();
          }
          self->compensate(exchange.result.error(), exchange.outcome == Outcome::timed_out);
        });
  }

 private:
  void compensate(core::Error failure, bool timed_out) {
    failure_ = std::move(failure);
    // A timed-out effect may have happened in Max: undo it too (harmless if it did not).
    if (timed_out) append_undo(effects_[index_]);
    for (std::size_t i = index_; i-- > 0;)
      append_undo(effects_[i]);
    if (!undo_.empty()) {
      spdlog::info("lofi: {} failed ({}); sending {} compensating message(s) to Max",
                   effects_[index_].address, failure_.message, undo_.size());
    }
    // Max just stopped answering: do not wait another timeout per undo message (the caller
    // hears about the failure within the configured timeout); send them in order, unawaited.
    if (timed_out) return send_rest_unawaited();
    undo_next();
  }

  void append_undo(const core::Effect& effect) {
    undo_.insert(undo_.end(), effect.undo.begin(), effect.undo.end());
  }

  void undo_next() {
    while (undo_index_ < undo_.size()) {
      auto parsed = parse_effect(undo_[undo_index_]);
      if (parsed) {
        return bridge_->exchange(
            parsed->verb, parsed->payload,
            [self = shared_from_this()](const Exchange& exchange) { self->on_undo(exchange); });
      }
      spdlog::warn("lofi: cannot send compensating message: {}", parsed.error().message);
      ++unconfirmed_;
      ++undo_index_;
    }
    finish();
  }

  void on_undo(const Exchange& exchange) {
    const auto& address = undo_[undo_index_].address;
    ++undo_index_;
    if (exchange.outcome == Outcome::answered) return undo_next();
    ++unconfirmed_;
    spdlog::warn("lofi: compensating {} failed: {}", address, exchange.result.error().message);
    if (exchange.outcome == Outcome::timed_out) return send_rest_unawaited();
    undo_next();
  }

  // Max stopped answering: send the remaining undo messages in order without waiting.
  void send_rest_unawaited() {
    for (; undo_index_ < undo_.size(); ++undo_index_) {
      ++unconfirmed_;
      auto parsed = parse_effect(undo_[undo_index_]);
      if (!parsed) continue;
      bridge_->exchange(parsed->verb, parsed->payload,
                        [address = undo_[undo_index_].address](const Exchange& exchange) {
                          if (exchange.outcome != Outcome::answered) {
                            spdlog::warn("lofi: compensating {} failed: {}", address,
                                         exchange.result.error().message);
                          }
                        });
    }
    finish();
  }

  void finish() {
    if (unconfirmed_ > 0) {
      failure_.message += fmt::format(
          " (undoing the earlier messages in Max was not confirmed for {} of {}; Max may no "
          "longer match the model — lofi_session sync pushes the model to Max again)",
          unconfirmed_, undo_.size());
    }
    done_(std::move(failure_));
  }

  std::shared_ptr<Bridge> bridge_;
  std::vector<core::Effect> effects_;
  core::DeliveryProgress progress_;
  std::function<void(core::Result<void>)> done_;
  std::size_t index_ = 0;
  core::Error failure_;
  std::vector<core::Effect> undo_;
  std::size_t undo_index_ = 0;
  std::size_t unconfirmed_ = 0;
};

// A delivery with up to `window` requests in flight (on the bridge's strand, like
// EffectDelivery). The first failure stops the sending; it is reported once every request sent
// has ended.
class WindowedDelivery : public std::enable_shared_from_this<WindowedDelivery> {
 public:
  WindowedDelivery(std::shared_ptr<Bridge> bridge, std::vector<core::Effect> effects,
                   std::size_t window, core::DeliveryProgress progress,
                   std::function<void(core::Result<void>)> done)
      : bridge_(std::move(bridge)),
        effects_(std::move(effects)),
        window_(std::max<std::size_t>(window, 1)),
        progress_(std::move(progress)),
        done_(std::move(done)) {}

  void fill() {
    while (!failure_ && in_flight_ < window_ && next_ < effects_.size()) {
      auto parsed = parse_effect(effects_[next_]);
      if (!parsed) {
        failure_ = parsed.error();
        break;
      }
      ++next_;
      ++in_flight_;
      bridge_->exchange(
          parsed->verb, parsed->payload,
          [self = shared_from_this()](const Exchange& exchange) { self->on_reply(exchange); });
    }
    if (in_flight_ > 0) return;
    if (failure_) {
      failure_->message +=
          fmt::format(" ({} of {} messages confirmed before it)", confirmed_, effects_.size());
      return done_(std::move(*failure_));
    }
    if (next_ == effects_.size()) done_(core::Result<void>{});
  }

 private:
  void on_reply(const Exchange& exchange) {
    --in_flight_;
    if (exchange.outcome == Outcome::answered) {
      ++confirmed_;
      if (progress_) progress_(confirmed_, effects_.size());
    } else if (!failure_) {
      failure_ = exchange.result.error();
    }
    fill();
  }

  std::shared_ptr<Bridge> bridge_;
  std::vector<core::Effect> effects_;
  std::size_t window_;
  core::DeliveryProgress progress_;
  std::function<void(core::Result<void>)> done_;
  std::size_t next_ = 0;
  std::size_t in_flight_ = 0;
  std::size_t confirmed_ = 0;
  std::optional<core::Error> failure_;
};

}  // namespace

void Bridge::deliver_windowed(std::vector<core::Effect> effects, std::size_t window,
                              core::DeliveryProgress progress,
                              std::function<void(core::Result<void>)> done) {
  auto delivery = std::make_shared<WindowedDelivery>(shared_from_this(), std::move(effects), window,
                                                     std::move(progress), std::move(done));
  boost::asio::post(strand_, [delivery] { delivery->fill(); });
}

void Bridge::deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
                     std::function<void(core::Result<void>)> done) {
  auto delivery = std::make_shared<EffectDelivery>(shared_from_this(), std::move(effects),
                                                   std::move(progress), std::move(done));
  boost::asio::post(strand_, [delivery] { delivery->deliver_next(); });
}

}  // namespace fcp::lofi::bridge

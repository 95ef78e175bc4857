// The session's Max link: delivery, online/offline, driving Max's device, ping fingerprints.
#include "domains/lofi/max_link.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/json.hpp>

#include "core/response.hpp"
#include "domains/lofi/bridge/protocol.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

int layer_rank(const json::object& layer) {
  const json::value* name = layer.if_contains("name");
  if (name == nullptr || !name->is_string()) return 50;
  return layer_z(name->get_string());
}

// Max's answer to a request for a device it does not hold ("no device: send /lofi/init first"
// from the simulator, "no device yet: …" from the daemon patch).
bool lacks_device(const std::string& message) {
  return message.find("no device") != std::string::npos &&
         message.find("/lofi/init") != std::string::npos;
}

}  // namespace

std::vector<core::Effect> merge_ui_layers(std::vector<core::Effect> effects) {
  std::vector<core::Effect> out;
  std::size_t i = 0;
  while (i < effects.size()) {
    if (effects[i].address != "/lofi/ui") {
      out.push_back(std::move(effects[i++]));
      continue;
    }
    // A run of UI messages: collect their layers and their undo messages.
    std::vector<json::object> layers;
    std::vector<core::Effect> undo;
    // A Live parameter named by a ui op is mapped right after its layer: the maps go after the
    // one /lofi/ui, so that the layers of a call stay one message.
    std::vector<core::Effect> maps;
    while (i < effects.size() &&
           (effects[i].address == "/lofi/ui" || effects[i].address == "/lofi/map")) {
      if (effects[i].address == "/lofi/map") {
        maps.push_back(std::move(effects[i++]));
        continue;
      }
      boost::system::error_code ec;
      json::value payload = json::parse(effects[i].payload, ec);
      if (!ec && payload.is_object()) {
        if (const auto* list = payload.as_object().if_contains("layers");
            list && list->is_array()) {
          for (const auto& layer : list->as_array()) {
            if (layer.is_object()) layers.push_back(layer.as_object());
          }
        }
      }
      for (auto& u : effects[i].undo)
        undo.push_back(std::move(u));
      ++i;
    }
    std::stable_sort(layers.begin(), layers.end(),
                     [](const auto& a, const auto& b) { return layer_rank(a) < layer_rank(b); });
    // Split into parts that fit Max's symbol limit (with room for the request id).
    std::vector<json::array> parts(1);
    std::size_t size = 0;
    for (auto& layer : layers) {
      const std::size_t length = json::serialize(layer).size() + 1;
      if (!parts.back().empty() && size + length > bridge::kMaxSymbol - 256) {
        parts.emplace_back();
        size = 0;
      }
      size += length;
      parts.back().push_back(std::move(layer));
    }
    for (std::size_t p = 0; p < parts.size(); ++p) {
      json::object payload{{"layers", std::move(parts[p])}};
      if (parts.size() > 1) {
        payload["part"] = p + 1;
        payload["parts"] = parts.size();
      }
      out.push_back(core::Effect{"/lofi/ui", json::serialize(payload), {}});
    }
    out.back().undo = std::move(undo);  // the last part carries the run's undo messages
    for (auto& map : maps)
      out.push_back(std::move(map));
  }
  return out;
}

Fingerprint device_fingerprint(const Device& device) {
  std::vector<std::string> ids;
  ids.reserve(device.objects().size());
  for (const auto& [id, object] : device.objects())
    ids.push_back(id);
  return {device.info().name, ids.size(), bridge::ids_hash(std::move(ids))};
}

std::optional<Fingerprint> pong_fingerprint(const json::object& reply) {
  const auto* hash = reply.if_contains("hash");
  const auto* objects = reply.if_contains("objects");
  const auto* name = reply.if_contains("device");
  if (hash == nullptr || !hash->is_string() || objects == nullptr || !objects->is_number())
    return std::nullopt;
  Fingerprint out;
  if (name != nullptr && name->is_string()) out.device = name->as_string();
  boost::system::error_code ec;
  out.objects = objects->to_number<std::size_t>(ec);
  out.hash = hash->as_string();
  return out;
}

std::string round_trip_text(double milliseconds) {
  if (milliseconds < 0.1) return "<0.1 ms";
  if (milliseconds < 9.95) return fmt::format("{:.1f} ms", milliseconds);  // "10.0" reads as 10
  return fmt::format("{:.0f} ms", milliseconds);
}

std::optional<std::string> mismatch(const Fingerprint& model, const Fingerprint& max) {
  if (model == max) return std::nullopt;
  const std::string held = max.device.empty()
                               ? std::string("no device")
                               : fmt::format("\"{}\" with {} object{}", max.device, max.objects,
                                             max.objects == 1 ? "" : "s");
  // Max holds no device after a restart, or when this one was made offline and never sent.
  const std::string why =
      max.device.empty()           ? "Max restarted, or this device was never sent to it"
      : max.device != model.device ? "another session re-initialised it, or Max restarted"
      : max.objects != model.objects
          ? "objects were added or removed outside this session, or Max restarted"
          : "its object ids differ from the model's";
  return fmt::format("Max holds {}, this device is \"{}\" with {} object{} ({})", held,
                     model.device, model.objects, model.objects == 1 ? "" : "s", why);
}

void MaxLink::deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
                      std::function<void(core::Result<void>)> done) {
  auto link = bridge();
  if (!link || !link->drives(this)) {  // offline: the model changes; `sync` pushes it later
    count_unsynced();
    done({});
    return;
  }
  bool sync = false;
  {
    std::lock_guard lock(mutex_);
    sync = std::exchange(sync_next_, false);
  }
  auto merged = merge_ui_layers(std::move(effects));
  if (sync) {
    link->deliver_windowed(std::move(merged), kSyncWindow, std::move(progress), std::move(done));
    return;
  }
  const std::size_t timeouts = link->health().timeouts;
  link->deliver(std::move(merged), std::move(progress),
                [weak = weak_from_this(), link, timeouts,
                 done = std::move(done)](core::Result<void> outcome) {
                  auto self = weak.lock();
                  if (!outcome && lacks_device(outcome.error().message)) {
                    core::Error error = outcome.error();
                    error.message +=
                        " — Max holds no device (it restarted, or this device was never sent to "
                        "it); lofi_session sync pushes it";
                    error.hints.emplace_back("lofi_session sync");
                    outcome = std::move(error);
                  } else if (!outcome && self && link->health().timeouts > timeouts) {
                    core::Error error = outcome.error();
                    self->unlink("Max stopped answering: " + error.message);
                    error.message +=
                        " — this session is now offline (max:offline): later ops change the model "
                        "only; lofi_session connect pushes the device once Max answers";
                    outcome = std::move(error);
                  }
                  done(std::move(outcome));
                });
}

void MaxLink::link(const std::shared_ptr<bridge::Bridge>& bridge) {
  std::shared_ptr<bridge::Bridge> old;
  {
    std::lock_guard lock(mutex_);
    old = std::exchange(bridge_, bridge);
    options_ = bridge->options();
    options_->timeout = bridge->timeout();
    offline_reason_.clear();
  }
  if (old && old != bridge) old->leave(this);
  bridge->join(shared_from_this());
}

void MaxLink::unlink(std::string reason) {
  std::shared_ptr<bridge::Bridge> old;
  {
    std::lock_guard lock(mutex_);
    old = std::exchange(bridge_, nullptr);
    offline_reason_ = std::move(reason);
    was_driving_ = false;
  }
  if (old) old->leave(this);
}

core::Result<void> MaxLink::drive(const std::string& device, bool takeover) {
  auto link = bridge();
  if (!link) return core::make_error("offline: not linked to Max");
  auto claimed = link->claim(shared_from_this(), device, takeover);
  std::lock_guard lock(mutex_);
  was_driving_ = static_cast<bool>(claimed);
  return claimed;
}

std::shared_ptr<bridge::Bridge> MaxLink::bridge() const {
  std::lock_guard lock(mutex_);
  return bridge_;
}

bool MaxLink::online() const {
  auto link = bridge();
  return link && link->drives(this);
}

std::optional<bridge::BridgeOptions> MaxLink::remembered() const {
  std::lock_guard lock(mutex_);
  return options_;
}

void MaxLink::remember(const bridge::BridgeOptions& options, std::string reason) {
  unlink(std::move(reason));
  std::lock_guard lock(mutex_);
  options_ = options;
}

std::optional<std::string> MaxLink::check_driver() {
  auto link = bridge();
  {
    std::lock_guard lock(mutex_);
    if (!link || !was_driving_ || link->drives(this)) return std::nullopt;
    was_driving_ = false;
  }
  const auto& options = link->options();
  return fmt::format(
      "max: offline — another document took over Max at {}:{} (it drives \"{}\" now); this one "
      "edits the model only (lofi_session sync takeover:true takes Max back)",
      options.host, options.port, link->driven_device());
}

void MaxLink::count_unsynced() {
  std::lock_guard lock(mutex_);
  ++unsynced_;
}

std::size_t MaxLink::unsynced() const {
  std::lock_guard lock(mutex_);
  return unsynced_;
}

void MaxLink::mark_synced() {
  std::lock_guard lock(mutex_);
  unsynced_ = 0;
}

void MaxLink::expect_sync() {
  std::lock_guard lock(mutex_);
  sync_next_ = true;
}

std::vector<std::string> MaxLink::status_lines(const Device* device,
                                               std::chrono::milliseconds wait) {
  std::vector<std::string> lines;
  auto link = bridge();
  const auto remembered_options = remembered();
  // With no device open there is nothing unsynced, and nothing to sync after a connect.
  const std::string offline_tail =
      device == nullptr
          ? std::string("no device open")
          : fmt::format("{} change{} not in Max", unsynced(), unsynced() == 1 ? "" : "s");
  const std::string then_sync = device == nullptr ? "" : " pushes the device";
  if (!link) {
    std::string line = "max: offline (" + offline_tail;
    if (remembered_options) {
      line += fmt::format("; remembered Max at {}:{}, replies on {}", remembered_options->host,
                          remembered_options->port, remembered_options->reply_port);
    }
    line += "; lofi_session connect" + then_sync + ")";
    lines.push_back(line);
    std::lock_guard lock(mutex_);
    if (!offline_reason_.empty()) lines.push_back("  " + offline_reason_);
    return lines;
  }
  const auto& options = link->options();
  auto pong = link->ping_and_wait(wait);
  if (!pong) {
    unlink(fmt::format("Max at {}:{} did not answer a ping within {} ms", options.host,
                       options.port, wait.count()));
    lines.push_back(fmt::format(
        "max: offline — Max at {}:{} did not answer a ping within {} ms ({}; lofi_session "
        "connect{} once it answers)",
        options.host, options.port, wait.count(), offline_tail, then_sync));
    return lines;
  }
  const auto health = link->health();
  const bool driving = link->drives(this);
  std::string line =
      fmt::format("max: {} {}:{} (replies on {}), answering in {}, {} pending",
                  driving ? "connected to" : "linked to", options.host, options.port,
                  link->reply_port(), round_trip_text(pong->milliseconds), health.pending);
  lines.push_back(line);
  const std::size_t sessions = link->sessions();
  const std::string driven = link->driven_device();
  if (device == nullptr) {
    lines.push_back(fmt::format("max: shared by {} session{} linked to this Max; {}", sessions,
                                sessions == 1 ? "" : "s",
                                driven.empty() ? std::string("no session drives a device")
                                               : fmt::format("one drives \"{}\"", driven)));
    if (const auto max = pong_fingerprint(pong->reply.body)) {
      lines.push_back(max->device.empty() ? std::string("max: holds no device")
                                          : fmt::format("max: holds \"{}\" ({} objects, hash {})",
                                                        max->device, max->objects, max->hash));
    }
    return lines;
  }
  if (driving) {
    lines.push_back(
        fmt::format("max: shared by {} session{} linked to this Max; this one drives \"{}\"",
                    sessions, sessions == 1 ? "" : "s", driven));
    const auto max = pong_fingerprint(pong->reply.body);
    if (max) {
      if (auto differs = mismatch(device_fingerprint(*device), *max)) {
        lines.push_back(*differs);
        lines.emplace_back("  try: lofi_session sync");
      } else {
        lines.push_back(
            fmt::format("max: holds this device ({} objects, hash {})", max->objects, max->hash));
      }
    }
  } else {
    lines.push_back(fmt::format(
        "max: offline for this session — shared by {} sessions and {}; {} (lofi_session sync "
        "takeover:true makes this device Max's)",
        sessions,
        driven.empty() ? std::string("no session drives it")
                       : fmt::format("another one drives \"{}\"", driven),
        offline_tail));
  }
  return lines;
}

std::unique_ptr<core::SessionState> LofiSessionState::successor() const {
  auto next = std::make_unique<LofiSessionState>();
  if (auto options = link->remembered()) next->link->remember(*options, std::string());
  next->predecessor = link;
  next->predecessor_adopted = adopted.load();
  return next;
}

}  // namespace fcp::lofi

#include "domains/lofi/document.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <set>

#include "core/response.hpp"
#include "domains/lofi/bridge/protocol.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/lofi_verbs.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

int layer_rank(const json::object& layer) {
  const json::value* name = layer.if_contains("name");
  if (name == nullptr || !name->is_string()) return 50;
  const std::string_view text = name->get_string();
  int value = 0;
  std::size_t digits = 0;
  while (digits < text.size() && digits < 6 && text[digits] >= '0' && text[digits] <= '9') {
    value = value * 10 + (text[digits] - '0');
    ++digits;
  }
  return digits == 0 ? 50 : value;
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

void MaxLink::deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
                      std::function<void(core::Result<void>)> done) {
  auto link = bridge();
  if (!link) {  // offline: the model changes; `sync` pushes it later
    {
      std::lock_guard lock(mutex_);
      ++unsynced_;
    }
    done({});
    return;
  }
  link->deliver(merge_ui_layers(std::move(effects)), std::move(progress), std::move(done));
}

void MaxLink::set_bridge(std::shared_ptr<bridge::Bridge> bridge) {
  std::lock_guard lock(mutex_);
  bridge_ = std::move(bridge);
}

std::shared_ptr<bridge::Bridge> MaxLink::bridge() const {
  std::lock_guard lock(mutex_);
  return bridge_;
}

std::size_t MaxLink::unsynced() const {
  std::lock_guard lock(mutex_);
  return unsynced_;
}

void MaxLink::mark_synced() {
  std::lock_guard lock(mutex_);
  unsynced_ = 0;
}

LofiDocument::LofiDocument(Device device) : device_(std::move(device)) {}

core::Result<core::OpOutcome> LofiDocument::execute(const core::ParsedOp& op,
                                                    core::CallContext& ctx) {
  DeviceTransaction edit(device_);
  const auto handler = lofi_verb_table().handler(op.verb);
  if (handler == nullptr) return core::make_error("verb \"" + op.verb + "\" is not implemented");
  LofiOp context{device_, edit, ctx, op, {}};
  if (auto done = handler(context); !done) return done.error();
  for (auto& effect : edit_effects(device_, edit.changes(), true))
    ctx.effects.emit(std::move(effect));
  core::OpOutcome outcome;
  outcome.lines = std::move(context.lines);
  outcome.event = edit.commit(op.raw);
  return outcome;
}

void LofiDocument::revert(const core::Event& event, core::EffectSink& effects) {
  core::apply_event<DeviceChanges>(device_, event, false);
  for (auto& effect : edit_effects(device_, static_cast<const DeviceEdit&>(event).changes(), false))
    effects.emit(std::move(effect));
}

void LofiDocument::replay(const core::Event& event, core::EffectSink& effects) {
  core::apply_event<DeviceChanges>(device_, event, true);
  for (auto& effect : edit_effects(device_, static_cast<const DeviceEdit&>(event).changes(), true))
    effects.emit(std::move(effect));
}

void LofiDocument::opened(core::EffectSink& effects) {
  for (auto& effect : build_messages(device_))
    effects.emit(std::move(effect));
}

std::size_t LofiDocument::entity_count() const {
  return device_.objects().size() + device_.wires().size() + device_.mappings().size();
}

std::string LofiDocument::digest() const {
  std::size_t ui = 0;
  for (const auto& [id, object] : device_.objects())
    ui += object.ui ? 1 : 0;
  return "[" + std::to_string(device_.objects().size() - ui) + "o " + std::to_string(ui) + "ui " +
         std::to_string(device_.wires().size()) + "w " + std::to_string(device_.mappings().size()) +
         "m " + (link_.online() ? std::string("max:online") : std::string("max:offline")) + "]";
}

std::string LofiDocument::summary() const {
  return core::plural(device_.objects().size(), "object") + ", " +
         core::plural(device_.wires().size(), "wire") + ", " +
         core::plural(device_.mappings().size(), "mapping");
}

core::Result<std::string> LofiDocument::serialize(const std::filesystem::path& path) const {
  return write_device(device_, path);
}

std::vector<std::string> LofiDocument::status_lines() const {
  std::vector<std::string> lines;
  lines.push_back("device: " + device_.info().name + " " +
                  std::to_string(static_cast<int>(device_.info().width)) + "x" +
                  std::to_string(static_cast<int>(device_.info().height)));
  if (auto bridge = link_.bridge()) {
    const auto health = bridge->health();
    const auto& options = bridge->options();
    std::string line = "max: connected to " + options.host + ":" + std::to_string(options.port) +
                       " (replies on " + std::to_string(bridge->reply_port()) + "), " +
                       (health.answering ? "answering" : "not answering");
    if (health.last_rtt_ms)
      line += ", last round trip " + std::to_string(*health.last_rtt_ms) + " ms";
    line += ", " + std::to_string(health.pending) + " pending";
    lines.push_back(line);
  } else {
    lines.push_back("max: offline (" + std::to_string(link_.unsynced()) +
                    " changes not in Max; lofi_session connect, then sync)");
  }
  return lines;
}

std::vector<std::string> LofiDocument::warnings(std::span<const core::EventPtr> batch) const {
  std::vector<std::string> out;
  std::set<std::string> touched;
  for (const auto& event : batch) {
    const auto* edit = dynamic_cast<const DeviceEdit*>(event.get());
    if (edit == nullptr) continue;
    for (const auto& change : edit->changes()) {
      if (const auto* object = std::get_if<ObjectChange>(&change); object && object->after)
        touched.insert(object->id);
    }
  }
  for (const auto& id : touched) {
    const MaxObject* object = device_.object(id);
    if (object == nullptr) continue;
    if (!object->ui && device_.wires_of(id).empty() && device_.objects().size() > 1)
      out.push_back(id + ": not wired");
    if (object->ui && object->size &&
        (object->x < 0 || object->y < 0 || object->x + (*object->size)[0] > device_.info().width ||
         object->y + (*object->size)[1] > device_.info().height))
      out.push_back(id + ": outside the device's " +
                    std::to_string(static_cast<int>(device_.info().width)) + "x" +
                    std::to_string(static_cast<int>(device_.info().height)) + " bounds");
    if (!known_class(object->cls))
      out.push_back(id + ": \"" + object->cls +
                    "\" is no class of the object table: Max must find it (an abstraction or "
                    "external in its search path)");
    if (out.size() >= 10) break;
  }
  return out;
}

}  // namespace fcp::lofi

#include "domains/lofi/document.hpp"

#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <set>
#include <variant>

#include "core/call_scope.hpp"
#include "core/response.hpp"
#include "domains/lofi/bridge/protocol.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/lofi_verbs.hpp"

namespace fcp::lofi {

LofiDocument::LofiDocument(Device device) : device_(std::move(device)) {}

core::Result<core::OpOutcome> LofiDocument::execute(const core::ParsedOp& op,
                                                    core::CallContext& ctx) {
  DeviceTransaction edit(device_);
  const auto handler = lofi_verb_table().handler(op.verb);
  if (handler == nullptr) return core::make_error("verb \"" + op.verb + "\" is not implemented");
  LofiOp context{device_, edit, ctx, op, {}};
  if (auto taken = link_->check_driver()) context.lines.push_back(core::warning_line(*taken));
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
         "m " + (link_->online() ? std::string("max:online") : std::string("max:offline")) + "]";
}

std::string LofiDocument::summary() const {
  return core::plural(device_.objects().size(), "object") + ", " +
         core::plural(device_.wires().size(), "wire") + ", " +
         core::plural(device_.mappings().size(), "mapping");
}

core::Result<std::string> LofiDocument::serialize(const std::filesystem::path& path) const {
  auto bytes = write_device(device_, path);
  // The JSON writer ends early inside a call that must stop: its text is incomplete then.
  if (auto stop = core::stop_error("writing the device", "nothing was written")) return *stop;
  return bytes;
}

std::vector<std::string> LofiDocument::status_lines() const {
  std::vector<std::string> lines;
  lines.push_back("device: " + device_size_text(device_.info(), saved_window(device_)));
  for (auto& line : link_->status_lines(&device_, status_wait_))
    lines.push_back(std::move(line));
  return lines;
}

std::vector<std::string> LofiDocument::warnings(std::span<const core::EventPtr> batch,
                                                core::Applied applied) const {
  std::vector<std::string> out;
  std::set<std::string> touched;
  for (const auto& event : batch) {
    const auto* edit = dynamic_cast<const DeviceEdit*>(event.get());
    if (edit == nullptr) continue;
    for (const auto& change : edit->changes()) {
      // An object there after the call: made or changed by a batch or redo, or brought back
      // (or changed back) by an undo.
      if (const auto* object = std::get_if<ObjectChange>(&change);
          object && (applied == core::Applied::forward ? object->after : object->before))
        touched.insert(object->id);
      // A new devicewidth or window size can leave any control outside: all are checked.
      if (std::holds_alternative<InfoChange>(change)) {
        for (const auto& [id, object] : device_.objects()) {
          if (object.ui) touched.insert(id);
        }
      }
    }
  }
  for (const auto& id : touched) {
    const MaxObject* object = device_.object(id);
    if (object == nullptr) continue;
    if (!object->ui && device_.wires_of(id).empty() && device_.objects().size() > 1)
      out.push_back(id + ": not wired");
    // Live shows a device devicewidth wide when it is set (a control past it gets the warning
    // below), else as wide as the window; as high as the window.
    const DeviceInfo& info = device_.info();
    const double shown_width = info.devicewidth > 0 ? info.devicewidth : info.width;
    if (object->ui && object->size &&
        (object->x < 0 || object->y < 0 || object->y + (*object->size)[1] > info.height ||
         (info.devicewidth <= 0 && object->x + (*object->size)[0] > info.width)))
      out.push_back(id + ": outside the device's " + std::to_string(static_cast<int>(shown_width)) +
                    "x" + std::to_string(static_cast<int>(info.height)) + " bounds" +
                    (info.devicewidth > 0 ? " (devicewidth by window height)" : ""));
    if (object->ui && object->size && device_.info().devicewidth > 0 &&
        object->x + (*object->size)[0] > device_.info().devicewidth) {
      const int right = static_cast<int>(std::ceil(object->x + (*object->size)[0]));
      out.push_back(id + ": reaches x=" + std::to_string(right) + ", past the devicewidth " +
                    std::to_string(static_cast<int>(device_.info().devicewidth)) +
                    " Live shows (modify device devicewidth:" + std::to_string(right) +
                    ", or devicewidth:0 to fit the presentation)");
    }
    if (!known_class(object->cls))
      out.push_back(id + ": \"" + object->cls +
                    "\" is no class of the object table: Max must find it (an abstraction or "
                    "external in its search path)");
    if (out.size() >= 10) break;
  }
  return out;
}

}  // namespace fcp::lofi

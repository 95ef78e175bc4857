// lofi_query: map stats describe list wires find ping (status, history, diff: the engine's).
#include <boost/json.hpp>
#include <cctype>
#include <sstream>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/device_io.hpp"
#include "domains/lofi/document.hpp"
#include "domains/lofi/lofi_verbs.hpp"
#include "domains/lofi/max_link.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/selection.hpp"
#include "domains/lofi/verb_support.hpp"
#include "domains/lofi/wiring.hpp"

namespace fcp::lofi {
namespace {

constexpr std::size_t kMaxListed = 500;  // objects in one `map` or `list` answer

std::string fmt(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string object_line(const Device& device, const MaxObject& o) {
  std::string line = "  " + o.id + " " + o.cls;
  if (!o.args.empty()) line += " " + o.args;
  line += " @(" + fmt(o.x) + "," + fmt(o.y) + ")";
  if (o.ui && o.size) line += " ui " + fmt((*o.size)[0]) + "x" + fmt((*o.size)[1]);
  const auto wires = device.wires_of(o.id);
  if (!wires.empty()) line += " · " + core::plural(wires.size(), "wire");
  return line;
}

// "2 in, 1 out" with where the counts come from.
std::string ports_line(const Device& device, const MaxObject& o) {
  const ObjectPorts ports = ports_of(device, o);
  if (!ports.known) return unknown_ports_text(o.cls).substr(6);  // without "ports "
  std::string line =
      std::to_string(ports.ports.inlets) + " in, " + std::to_string(ports.ports.outlets) + " out";
  std::string signals;
  for (std::size_t i = 0; i < ports.ports.outlettype.size(); ++i) {
    if (maxpat::is_signal_type(ports.ports.outlettype[i]))
      signals += (signals.empty() ? "" : ",") + std::to_string(i);
  }
  if (!signals.empty()) line += " (signal out:" + signals + ")";
  if (ports.from_file) line += ", from its box in the file";
  return line;
}

std::string wire_text(const Wire& w) {
  return w.source + ":" + std::to_string(w.outlet) + " -> " + w.destination + ":" +
         std::to_string(w.inlet);
}

// An object as map, list and describe show it (object_line's facts, typed).
core::QueryItem object_item(const Device& device, const MaxObject& o) {
  core::QueryItem item{o.id, o.id, o.cls};
  item.fields = {{"args", o.args}, {"x", o.x}, {"y", o.y}, {"ui", o.ui}};
  if (o.ui) item.fields.emplace_back("layer", o.layer);
  if (o.ui && o.size) {
    item.fields.emplace_back("width", (*o.size)[0]);
    item.fields.emplace_back("height", (*o.size)[1]);
  }
  item.fields.emplace_back("wires", static_cast<std::int64_t>(device.wires_of(o.id).size()));
  return item;
}

core::QueryItem wire_item(const Wire& w) {
  return core::QueryItem{wire_text(w),
                         "",
                         "wire",
                         {{"source", w.source},
                          {"outlet", static_cast<std::int64_t>(w.outlet)},
                          {"destination", w.destination},
                          {"inlet", static_cast<std::int64_t>(w.inlet)}}};
}

// The device's counts, as stats shows them.
core::QueryData device_data(const Device& device) {
  std::size_t ui = 0;
  for (const auto& [id, o] : device.objects())
    ui += o.ui ? 1 : 0;
  core::QueryData data;
  data.counts = {{"objects", static_cast<std::int64_t>(device.objects().size() - ui)},
                 {"ui_layers", static_cast<std::int64_t>(ui)},
                 {"wires", static_cast<std::int64_t>(device.wires().size())},
                 {"mappings", static_cast<std::int64_t>(device.mappings().size())},
                 {"scripts", static_cast<std::int64_t>(device.scripts().size())}};
  return data;
}

}  // namespace

core::Result<std::string> ping_max(const std::shared_ptr<bridge::Bridge>& bridge,
                                   const Device* device) {
  if (!bridge)
    return core::make_error("offline: not connected to Max",
                            {"lofi_session connect", "lofi_session connect port:7400 reply:7401"});
  // A query answers synchronously: wait (bounded by the bridge's timeout) on this thread.
  auto pong = bridge->ping_and_wait();
  const auto& options = bridge->options();
  if (!pong) return pong.error();
  std::ostringstream out;
  out << "pong from Max at " << options.host << ":" << options.port << " (replies on "
      << options.reply_port << ") in " << round_trip_text(pong->milliseconds);
  if (const auto held = pong_fingerprint(pong->reply.body)) {
    out << "\n  Max holds "
        << (held->device.empty()
                ? std::string("no device")
                : "\"" + held->device + "\" with " + core::plural(held->objects, "object") +
                      " (hash " + held->hash + ")");
    if (device != nullptr) {
      const auto differs = mismatch(device_fingerprint(*device), *held);
      out << "\n  "
          << (differs ? *differs + " (lofi_session sync pushes this device)"
                      : std::string("that is this device, as the model has it"));
    }
  } else if (!pong->reply.body.empty()) {
    out << "\n  " << boost::json::serialize(pong->reply.body);
  }
  const auto health = bridge->health();
  out << "\n  pending " << health.pending << ", timeouts " << health.timeouts << ", late replies "
      << health.late_replies;
  return out.str();
}

namespace {

// list [@SELECTOR…]: the objects the selectors choose (core's engine, as the verbs), in z-order.
core::Result<core::QueryAnswer> list_objects(const Device& device, std::string_view args,
                                             const core::EventLog& log) {
  const std::string written = "list " + std::string(args);
  auto op = core::parse_op(written);
  if (!op) return op.error();
  if (!op->positionals.empty() || !op->params.empty()) {
    const std::string word =
        op->positionals.empty() ? op->params.front().key : op->positionals.front();
    return core::make_error("list takes selectors, not \"" + word + "\"",
                            {"list", "list @class:" + word, "find " + word});
  }
  auto selection = select_objects(device, op->selectors, log, written);
  if (!selection) return selection.error();
  core::QueryData data = device_data(device);
  if (selection->ids.empty()) {
    if (op->selectors.empty()) return core::QueryAnswer{"no objects", std::move(data)};
    std::string answer = selection->nothing_matched;
    answer.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(answer.front())));
    return core::QueryAnswer{std::move(answer), std::move(data)};
  }
  std::string out;
  for (std::size_t shown = 0; shown < selection->ids.size(); ++shown) {
    if (shown == kMaxListed) {
      out += "  … " + std::to_string(selection->ids.size() - shown) +
             " more (list @class:CLS narrows it)\n";
      break;
    }
    const MaxObject& o = *device.object(selection->ids[shown]);
    out += object_line(device, o) + "\n";
    data.items.push_back(object_item(device, o));
  }
  data.total = selection->ids.size();
  out.pop_back();
  return core::QueryAnswer{std::move(out), std::move(data)};
}

// describe device: the settings its saved patcher holds.
core::Result<core::QueryAnswer> describe_device(const Device& device) {
  const DeviceInfo& info = device.info();
  std::string out = "device " + info.name + " (" + info.type +
                    (info.type == "aaaa"   ? ", audio effect"
                     : info.type == "mmmm" ? ", MIDI effect"
                     : info.type == "iiii" ? ", instrument"
                                           : "") +
                    ")";
  const auto fields = saved_device_fields(device);
  const auto field = [&](const char* key) {
    auto it = fields.find(key);
    return it == fields.end() ? std::string("absent") : it->second;
  };
  out += "\n  openinpresentation: " + field("openinpresentation") +
         " (1: opens in presentation, which Live shows)";
  out += "\n  devicewidth: " + field("devicewidth") +
         " (the width Live gives the device; 0: its presentation's width)";
  out += "\n  rect: " + field("rect") + " (the patcher window)";
  std::size_t ui = 0;
  for (const auto& [id, o] : device.objects())
    ui += o.ui ? 1 : 0;
  out += "\n  objects: " + std::to_string(device.objects().size() - ui) +
         ", ui layers: " + std::to_string(ui) +
         ", wires: " + std::to_string(device.wires().size()) +
         ", mappings: " + std::to_string(device.mappings().size());
  core::QueryData data = device_data(device);
  data.add({std::string(kDeviceWord), info.name, "device", {{"type", info.type}}});
  return core::QueryAnswer{std::move(out), std::move(data)};
}

}  // namespace

std::optional<core::Result<core::QueryAnswer>> run_lofi_query(const Device& device,
                                                              const MaxLink& link,
                                                              std::string_view verb,
                                                              std::string_view args,
                                                              const core::EventLog& log) {
  using Answer = core::Result<core::QueryAnswer>;
  const std::string word(verb);
  std::string arg(args);
  while (!arg.empty() && arg.back() == ' ')
    arg.pop_back();
  if (word == "ping") {
    auto pong = ping_max(link.bridge(), &device);
    if (!pong) return Answer(pong.error());
    return Answer(core::QueryAnswer{std::move(*pong)});
  }
  if (word == "stats") {
    std::size_t ui = 0;
    for (const auto& [id, o] : device.objects())
      ui += o.ui ? 1 : 0;
    return Answer(core::QueryAnswer{
        "device: " + device_size_text(device.info(), saved_window(device)) + "\nobjects: " +
            std::to_string(device.objects().size() - ui) + "\nui layers: " + std::to_string(ui) +
            "\nwires: " + std::to_string(device.wires().size()) +
            "\nmappings: " + std::to_string(device.mappings().size()) +
            "\nscripts: " + std::to_string(device.scripts().size()),
        device_data(device)});
  }
  if (word == "list") return list_objects(device, arg, log);
  if (word == "map") {
    std::string out =
        "device " + device_size_text(device.info(), saved_window(device)) + " (z-order):\n";
    // Items: the objects, wires and mappings the text shows, in its order.
    core::QueryData data = device_data(device);
    const auto objects = device.in_order();
    std::size_t shown = 0;
    for (const MaxObject* o : objects) {
      out += object_line(device, *o) + "\n";
      data.items.push_back(object_item(device, *o));
      if (++shown >= kMaxListed) {
        if (objects.size() > shown) out += "  … more (list @class:CLS narrows it)\n";
        break;
      }
    }
    if (shown == 0) out += "  (empty)\n";
    for (const auto& w : device.wires()) {
      out += "  ~ " + wire_text(w) + "\n";
      data.items.push_back(wire_item(w));
    }
    for (const auto& [parameter, m] : device.mappings()) {
      out += "  map " + parameter + " -> " + m.object + "." + m.property + "\n";
      data.items.push_back(core::QueryItem{
          parameter, parameter, "mapping", {{"object", m.object}, {"property", m.property}}});
    }
    data.total = objects.size() + device.wires().size() + device.mappings().size();
    out.pop_back();
    return Answer(core::QueryAnswer{std::move(out), std::move(data)});
  }
  if (word == "describe" && arg == kDeviceWord) return describe_device(device);
  if (word == "describe" || word == "wires") {
    const MaxObject* o = device.object(arg);
    if (o == nullptr) {
      std::vector<std::string> names;
      for (const auto& [id, object] : device.objects())
        names.push_back(id);
      const std::string written = word + " " + core::quote_token(arg);
      return Answer(
          core::unknown_reference({"object", written, "the device is empty"}, arg, names));
    }
    std::string out;
    if (word == "describe") {
      out = o->id + " (" + o->cls + ")\n  " + (text_is_content(o->cls) ? "text: " : "args: ") +
            (o->args.empty() ? "none" : o->args);
      out += "\n  ports: " + ports_line(device, *o);
      // Where it is (its place: the presentation_rect of a UI layer, else the patching_rect)
      // and every attribute, as the saved box says them.
      if (o->ui) out += "\n  ui layer: " + o->layer + " (its place is its presentation_rect)";
      for (const auto& [attr, value] : saved_attributes(device, *o))
        out += "\n  " + attr + ": " + value;
      if (auto it = device.scripts().find(o->id); it != device.scripts().end())
        out += "\n  script: " + it->second;
      for (const auto& [parameter, m] : device.mappings()) {
        if (m.object == o->id) out += "\n  mapped: " + parameter + " (" + m.property + ")";
      }
      out += "\n";
    }
    const auto wires = device.wires_of(o->id);
    out += word == "describe" ? "  wires:" : "wires of " + o->id + ":";
    if (wires.empty()) out += " none";
    for (const auto& w : wires)
      out += "\n    " + wire_text(w);
    if (word == "wires") return Answer(core::QueryAnswer{std::move(out)});
    core::QueryData data = device_data(device);
    data.add(object_item(device, *o));
    return Answer(core::QueryAnswer{std::move(out), std::move(data)});
  }
  if (word == "find") {
    // `find "Average CPU"` looks for the words inside the quotes.
    if (arg.size() >= 2 && arg.front() == '"' && arg.back() == '"')
      arg = arg.substr(1, arg.size() - 2);
    std::string out;
    for (const MaxObject* o : device.in_order()) {
      const std::string hay = core::to_lower(o->id + " " + o->cls + " " + o->args);
      if (hay.find(core::to_lower(arg)) != std::string::npos) out += object_line(device, *o) + "\n";
    }
    if (out.empty()) return Answer(core::QueryAnswer{"no objects matching \"" + arg + "\""});
    out.pop_back();
    return Answer(core::QueryAnswer{std::move(out)});
  }
  return std::nullopt;
}

std::optional<core::Result<core::QueryAnswer>> LofiDocument::query(
    std::string_view verb, std::string_view args, const core::CallContext& ctx) const {
  return run_lofi_query(device_, *link_, verb, args, ctx.log);
}

}  // namespace fcp::lofi

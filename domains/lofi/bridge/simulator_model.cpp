#include "domains/lofi/bridge/simulator_model.hpp"

#include <fmt/format.h>

#include <cmath>

#include "domains/lofi/bridge/protocol.hpp"
#include "domains/lofi/bridge/simulator_ports.hpp"

namespace fcp::lofi::bridge {

namespace json = boost::json;

namespace {

core::Result<std::string> text_field(const json::object& payload, std::string_view key) {
  const auto* value = payload.if_contains(key);
  if (value == nullptr || !value->is_string() || value->get_string().empty()) {
    return core::make_error(fmt::format("\"{}\" must be a non-empty string", key));
  }
  return std::string(value->get_string());
}

core::Result<double> number_field(const json::object& payload, std::string_view key,
                                  std::optional<double> fallback = std::nullopt) {
  const auto* value = payload.if_contains(key);
  if (value == nullptr && fallback) return *fallback;
  if (value == nullptr || !value->is_number()) {
    return core::make_error(fmt::format("\"{}\" must be a number", key));
  }
  return value->to_number<double>();
}

core::Result<std::int64_t> index_field(const json::object& payload, std::string_view key) {
  auto number = number_field(payload, key);
  if (!number || *number < 0 || std::floor(*number) != *number || *number > kMaxPortIndex) {
    return core::make_error(
        fmt::format("\"{}\" must be an integer from 0 to {}", key, kMaxPortIndex));
  }
  return static_cast<std::int64_t>(*number);
}

json::array array_field(const json::object& payload, std::string_view key) {
  const auto* value = payload.if_contains(key);
  return value != nullptr && value->is_array() ? value->get_array() : json::array{};
}

json::object ok(const json::object& fields = {}) {
  json::object reply{{"status", "ok"}};
  for (const auto& [key, value] : fields)
    reply[key] = value;
  return reply;
}

// What an opened device's box brings (/lofi/create, a /lofi/ui layer): its class of box, saved
// attributes and subpatcher; a p or bpatcher has the ports of the inlet and outlet boxes inside.
void take_saved_box(const json::object& fields, SimObject& object) {
  if (const auto* maxclass = fields.if_contains("maxclass"); maxclass && maxclass->is_string())
    object.box_class = maxclass->get_string();
  if (const auto* box = fields.if_contains("box"); box && box->is_object())
    object.box = box->get_object();
  const bool subpatcher =
      object.max_class == "p" || object.max_class == "patcher" || object.max_class == "bpatcher";
  const auto* patcher = fields.if_contains("patcher");
  const auto* boxes = patcher != nullptr && patcher->is_object()
                          ? patcher->get_object().if_contains("boxes")
                          : nullptr;
  if (boxes == nullptr || !boxes->is_array()) {
    if (subpatcher && object.max_class != "bpatcher") object.inlets = object.outlets = 0;
    return;
  }
  object.boxes_inside = boxes->get_array().size();
  if (!subpatcher) return;
  int inlets = 0, outlets = 0;
  for (const auto& inner : boxes->get_array()) {
    const auto* maxclass = inner.is_object() ? inner.get_object().if_contains("maxclass") : nullptr;
    if (maxclass == nullptr || !maxclass->is_string()) continue;
    inlets += maxclass->get_string() == "inlet" ? 1 : 0;
    outlets += maxclass->get_string() == "outlet" ? 1 : 0;
  }
  object.inlets = inlets;
  object.outlets = outlets;
}

std::optional<MaxPorts> ports_of(const SimObject& object) {
  if (object.inlets && object.outlets)
    return MaxPorts{object.max_class, *object.inlets, *object.outlets};
  return find_max_ports(object.max_class);
}

std::string describe(const SimWire& wire) {
  return fmt::format("{} outlet {} -> {} inlet {}", wire.source, wire.outlet, wire.dest,
                     wire.inlet);
}

}  // namespace

const std::map<std::string, SimulatorModel::Handler, std::less<>>& SimulatorModel::handlers() {
  static const std::map<std::string, Handler, std::less<>> table{
      {"/lofi/init", &SimulatorModel::init},     {"/lofi/create", &SimulatorModel::create},
      {"/lofi/remove", &SimulatorModel::remove}, {"/lofi/wire", &SimulatorModel::wire},
      {"/lofi/unwire", &SimulatorModel::unwire}, {"/lofi/ui", &SimulatorModel::ui},
      {"/lofi/inject", &SimulatorModel::inject}, {"/lofi/map", &SimulatorModel::map},
      {"/lofi/unmap", &SimulatorModel::unmap},   {"/lofi/set", &SimulatorModel::set},
      {"/lofi/move", &SimulatorModel::move},     {"/lofi/ping", &SimulatorModel::ping},
      {"/lofi/device", &SimulatorModel::device},
  };
  return table;
}

json::object SimulatorModel::handle(std::string_view address, const json::object& payload) {
  const auto& table = handlers();
  auto it = table.find(address);
  core::Result<json::object> result = core::make_error(fmt::format("unknown address {}", address));
  if (it != table.end()) {
    if (!device_ && address != "/lofi/init" && address != "/lofi/ping") {
      result = core::make_error("no device: send /lofi/init first");
    } else {
      result = (this->*(it->second))(payload);
    }
  }
  if (result) return std::move(*result);
  return json::object{{"status", "error"}, {"message", result.error().message}};
}

core::Result<SimObject*> SimulatorModel::find(const json::object& payload, std::string_view key) {
  auto id = text_field(payload, key);
  if (!id) return id.error();
  auto it = objects_.find(*id);
  if (it == objects_.end()) return core::make_error(fmt::format("unknown id \"{}\"", *id));
  return &it->second;
}

core::Result<json::object> SimulatorModel::init(const json::object& payload) {
  auto name = text_field(payload, "deviceName");
  if (!name) return name.error();
  device_ = *name;
  objects_.clear();
  wires_.clear();
  mappings_.clear();
  settings_.clear();
  for (const char* key : {"width", "height", "openinpresentation", "devicewidth"}) {
    if (const auto* value = payload.if_contains(key)) settings_[key] = *value;
  }
  return ok({{"device", *name}});
}

core::Result<json::object> SimulatorModel::device(const json::object& payload) {
  for (const char* key : {"width", "height", "openinpresentation", "devicewidth"}) {
    const auto* value = payload.if_contains(key);
    if (value == nullptr) continue;
    if (!value->is_number()) return core::make_error(fmt::format("\"{}\" must be a number", key));
    settings_[key] = *value;
  }
  return ok({{"device", *device_}});
}

core::Result<json::object> SimulatorModel::create(const json::object& payload) {
  auto id = text_field(payload, "id");
  if (!id) return id.error();
  auto max_class = text_field(payload, "class");
  if (!max_class) return max_class.error();
  auto x = number_field(payload, "x", 0.0);
  if (!x) return x.error();
  auto y = number_field(payload, "y", 0.0);
  if (!y) return y.error();
  if (objects_.contains(*id)) return core::make_error(fmt::format("id \"{}\" already exists", *id));
  SimObject object;
  object.max_class = *max_class;
  object.x = *x;
  object.y = *y;
  object.args = array_field(payload, "args");
  if (const auto* text = payload.if_contains("text"); text && text->is_string())
    object.text = text->get_string();
  take_saved_box(payload, object);
  objects_.emplace(*id, std::move(object));
  return ok({{"id", *id}});
}

core::Result<json::object> SimulatorModel::remove(const json::object& payload) {
  auto object = find(payload, "id");
  if (!object) return object.error();
  const std::string id(payload.at("id").get_string());
  std::erase_if(wires_, [&id](const SimWire& w) { return w.source == id || w.dest == id; });
  std::erase_if(mappings_, [&id](const auto& entry) { return entry.second.object_id == id; });
  objects_.erase(id);
  return ok({{"id", id}});
}

core::Result<SimWire> SimulatorModel::read_wire(const json::object& payload) const {
  SimWire wire;
  for (auto [key, id] : {std::pair{"sourceId", &wire.source}, std::pair{"destId", &wire.dest}}) {
    auto text = text_field(payload, key);
    if (!text) return text.error();
    if (!objects_.contains(*text)) return core::make_error(fmt::format("unknown id \"{}\"", *text));
    *id = *text;
  }
  auto outlet = index_field(payload, "outlet");
  if (!outlet) return outlet.error();
  auto inlet = index_field(payload, "inlet");
  if (!inlet) return inlet.error();
  wire.outlet = *outlet;
  wire.inlet = *inlet;
  const SimObject& source = objects_.at(wire.source);
  if (auto ports = ports_of(source); ports && wire.outlet >= ports->outlets) {
    return core::make_error(fmt::format("{} \"{}\" has {} outlet(s); there is no outlet {}",
                                        source.max_class, wire.source, ports->outlets,
                                        wire.outlet));
  }
  const SimObject& dest = objects_.at(wire.dest);
  if (auto ports = ports_of(dest); ports && wire.inlet >= ports->inlets) {
    return core::make_error(fmt::format("{} \"{}\" has {} inlet(s); there is no inlet {}",
                                        dest.max_class, wire.dest, ports->inlets, wire.inlet));
  }
  return wire;
}

core::Result<json::object> SimulatorModel::wire(const json::object& payload) {
  auto wire = read_wire(payload);
  if (!wire) return wire.error();
  if (!wires_.insert(*wire).second) {
    return core::make_error(fmt::format("{} is already wired", describe(*wire)));
  }
  return ok();
}

core::Result<json::object> SimulatorModel::unwire(const json::object& payload) {
  auto wire = read_wire(payload);
  if (!wire) return wire.error();
  if (wires_.erase(*wire) == 0) {
    return core::make_error(fmt::format("{} is not wired", describe(*wire)));
  }
  return ok();
}

core::Result<json::object> SimulatorModel::ui(const json::object& payload) {
  const auto* layers = payload.if_contains("layers");
  if (layers == nullptr || !layers->is_array()) {
    return core::make_error("\"layers\" must be an array");
  }
  std::map<std::string, SimObject> made;
  for (const auto& layer : layers->get_array()) {
    if (!layer.is_object()) return core::make_error("every layer must be an object");
    const auto& fields = layer.get_object();
    auto name = text_field(fields, "name");
    if (!name) return name.error();
    auto max_class = text_field(fields, "class");
    if (!max_class) return max_class.error();
    if (objects_.contains(*name) || made.contains(*name)) {
      return core::make_error(fmt::format("id \"{}\" already exists", *name));
    }
    SimObject object;
    object.max_class = *max_class;
    object.presentation = true;
    for (auto [key, target] : {std::pair{"x", &object.x}, std::pair{"y", &object.y}}) {
      auto number = number_field(fields, key);
      if (!number)
        return core::make_error(fmt::format("layer \"{}\": {}", *name, number.error().message));
      *target = *number;
    }
    for (auto [key, target] :
         {std::pair{"width", &object.width}, std::pair{"height", &object.height}}) {
      auto number = number_field(fields, key);
      if (!number)
        return core::make_error(fmt::format("layer \"{}\": {}", *name, number.error().message));
      *target = *number;
    }
    object.args = array_field(fields, "args");
    if (const auto* text = fields.if_contains("text"); text && text->is_string())
      object.text = text->get_string();
    if (const auto* attrs = fields.if_contains("attrs"); attrs && attrs->is_object()) {
      object.attrs = attrs->get_object();
    }
    take_saved_box(fields, object);
    made.emplace(*name, std::move(object));
  }
  const auto created = static_cast<std::int64_t>(made.size());
  objects_.merge(made);
  return ok({{"created", created}});
}

core::Result<json::object> SimulatorModel::inject(const json::object& payload) {
  auto object = find(payload, "targetId");
  if (!object) return object.error();
  auto path = text_field(payload, "filePath");
  if (!path) return path.error();
  const bool absolute = path->front() == '/' || (path->size() > 2 && (*path)[1] == ':');
  if (!absolute) return core::make_error(fmt::format("filePath \"{}\" is not absolute", *path));
  (*object)->script = *path;
  return ok({{"targetId", payload.at("targetId")}, {"file", *path}});
}

core::Result<json::object> SimulatorModel::map(const json::object& payload) {
  auto parameter = text_field(payload, "parameter");
  if (!parameter) return parameter.error();
  auto object = find(payload, "objectId");
  if (!object) return object.error();
  if (mappings_.contains(*parameter)) {
    return core::make_error(fmt::format("parameter \"{}\" is already mapped", *parameter));
  }
  const auto* property = payload.if_contains("property");
  const auto* shortname = payload.if_contains("shortname");
  mappings_[*parameter] =
      SimMapping{std::string(payload.at("objectId").get_string()),
                 property && property->is_string() ? std::string(property->get_string()) : "value",
                 shortname && shortname->is_string() ? std::string(shortname->get_string()) : ""};
  return ok({{"parameter", *parameter}});
}

core::Result<json::object> SimulatorModel::unmap(const json::object& payload) {
  auto parameter = text_field(payload, "parameter");
  if (!parameter) return parameter.error();
  if (mappings_.erase(*parameter) == 0) {
    return core::make_error(fmt::format("parameter \"{}\" is not mapped", *parameter));
  }
  return ok({{"parameter", *parameter}});
}

core::Result<json::object> SimulatorModel::set(const json::object& payload) {
  auto object = find(payload, "id");
  if (!object) return object.error();
  if (const auto* attrs = payload.if_contains("attrs"); attrs && attrs->is_object()) {
    for (const auto& [key, value] : attrs->get_object())
      (*object)->attrs[key] = value;
  } else if (auto attr = text_field(payload, "attr"); attr && payload.contains("value")) {
    (*object)->attrs[*attr] = payload.at("value");
  } else if (attr && payload.contains("unset")) {
    (*object)->attrs.erase(*attr);
  } else {
    return core::make_error(
        "/lofi/set needs \"attrs\":{…}, or \"attr\" and \"value\" or \"unset\":true");
  }
  return ok({{"id", payload.at("id")}});
}

core::Result<json::object> SimulatorModel::move(const json::object& payload) {
  auto object = find(payload, "id");
  if (!object) return object.error();
  auto x = number_field(payload, "x");
  if (!x) return x.error();
  auto y = number_field(payload, "y");
  if (!y) return y.error();
  (*object)->x = *x;
  (*object)->y = *y;
  return ok({{"id", payload.at("id")}});
}

core::Result<json::object> SimulatorModel::ping(const json::object&) {
  json::value device = nullptr;
  if (device_) device = *device_;
  std::vector<std::string> ids;
  for (const auto& entry : objects_)
    ids.push_back(entry.first);
  return ok({{"pong", true},
             {"device", device},
             {"objects", static_cast<std::int64_t>(objects_.size())},
             {"hash", ids_hash(std::move(ids))}});
}

}  // namespace fcp::lofi::bridge

#include "domains/lofi/wiring.hpp"

#include <algorithm>
#include <boost/json/value.hpp>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/maxpat/attributes.hpp"

namespace fcp::lofi {
namespace {

// "wow (cycle~)": an object as errors name it.
std::string named(const MaxObject& object) {
  return object.id + " (" + object.cls + ")";
}

// "wire a -> b" with out:/in: when they are not 0.
std::string wire_op(const std::string& source, int outlet, const std::string& destination,
                    int inlet) {
  std::string op = "wire " + source + " -> " + destination;
  if (outlet != 0) op += " out:" + std::to_string(outlet);
  if (inlet != 0) op += " in:" + std::to_string(inlet);
  return op;
}

// "`wire a -> b -> c`": the ops that put `between` into the wire source:outlet ->
// destination:inlet, once it exists.
std::string wires_through(const std::string& between, const MaxObject& source, int outlet,
                          const MaxObject& destination, int inlet) {
  if (outlet == 0 && inlet == 0)
    return "`wire " + source.id + " -> " + between + " -> " + destination.id + "`";
  return "`" + wire_op(source.id, outlet, between, 0) + "` and `" +
         wire_op(between, 0, destination.id, inlet) + "`";
}

core::Error signal_into_messages(const Device& device, const MaxObject& source, int outlet,
                                 const MaxObject& destination, int inlet) {
  std::string message = named(source) + " out:" + std::to_string(outlet) + " sends a signal, and " +
                        named(destination) + " in:" + std::to_string(inlet) + " takes no signal";
  const std::string_view version = maxpat::signal_version(destination.cls);
  if (!version.empty()) {
    message += ": " + destination.cls + " works on numbers, " + std::string(version) +
               " on signals; make " + destination.id + " a " + std::string(version) +
               ", then wire it";
    return core::make_error(message,
                            {"modify " + destination.id + " class:" + core::quote_token(version)});
  }
  const std::string value = unused_id(device, source.id + "_value");
  message += "; a snapshot~ between turns the signal into a number every 20 ms: add it, then " +
             wires_through(value, source, outlet, destination, inlet);
  return core::make_error(message, {"add snapshot~ " + value + " args:20"});
}

core::Error delay_line_elsewhere(const Device& device, const MaxObject& source, int outlet,
                                 const MaxObject& destination, int inlet, std::string_view op) {
  const std::string line = named(source) + " out:" + std::to_string(outlet) +
                           " is a delay line, which only a tapout~ reads";
  if (destination.cls == "tapout~") {
    std::vector<std::string> hints;
    if (std::string fixed = core::replace_param_token(op, "in", ""); !op.empty() && fixed != op)
      hints.push_back(std::move(fixed));
    return core::make_error(line + ", in its left inlet (in:0); " + destination.id +
                                " in:" + std::to_string(inlet) + " cannot take it",
                            std::move(hints));
  }
  const std::string tap = unused_id(device, source.id + "_tap");
  return core::make_error(line + " (its args are the delay times in ms); " + named(destination) +
                              " cannot take it: add a tapout~, then " +
                              wires_through(tap, source, outlet, destination, inlet),
                          {"add tapout~ " + tap});
}

// "unwire a -> b out:1 in:2": the op that removes `wire`.
std::string unwire_op(const Wire& wire) {
  std::string op = "unwire " + wire.source + " -> " + wire.destination;
  if (wire.outlet != 0) op += " out:" + std::to_string(wire.outlet);
  if (wire.inlet != 0) op += " in:" + std::to_string(wire.inlet);
  return op;
}

}  // namespace

ObjectPorts ports_of(const Device& device, const MaxObject& object) {
  if (const maxpat::Box* box = kept_box(device, object);
      box != nullptr && box->numinlets() >= 0 && box->numoutlets() >= 0) {
    ObjectPorts out{{box->numinlets(), box->numoutlets(), {}}, true, true};
    if (const auto* types = box->json.if_contains("outlettype"); types && types->is_array()) {
      for (const auto& type : types->get_array())
        out.ports.outlettype.emplace_back(type.is_string() ? type.get_string() : "");
    }
    out.ports.outlettype.resize(static_cast<std::size_t>(out.ports.outlets));
    return out;
  }
  const maxpat::ObjectInfo* info = maxpat::find_object(object.cls);
  ObjectPorts out{maxpat::ports_for(object.cls, info != nullptr && info->ui ? "" : object.args),
                  info != nullptr, false};
  // A new p is made with an empty subpatcher; other contents (a script, gen code, a file) set
  // their own ports.
  if (info != nullptr && info->rule == maxpat::PortRule::contents && object.cls != "p" &&
      object.cls != "patcher")
    out.known = false;
  return out;
}

core::Result<void> check_wire(const Device& device, const MaxObject& source, int outlet,
                              const MaxObject& destination, int inlet, std::string_view op) {
  const ObjectPorts from = ports_of(device, source);
  const ObjectPorts to = ports_of(device, destination);
  if (from.known && outlet >= from.ports.outlets)
    return core::make_error(named(source) + " has " +
                            core::plural(static_cast<std::size_t>(from.ports.outlets), "outlet") +
                            "; out:" + std::to_string(outlet) +
                            " does not exist (outlets count from 0)");
  if (to.known && inlet >= to.ports.inlets)
    return core::make_error(named(destination) + " has " +
                            core::plural(static_cast<std::size_t>(to.ports.inlets), "inlet") +
                            "; in:" + std::to_string(inlet) +
                            " does not exist (inlets count from 0)");
  if (!from.known) return {};
  const std::string& type = from.ports.outlettype[static_cast<std::size_t>(outlet)];
  if (type == "tapconnect" && (destination.cls != "tapout~" || inlet != 0))
    return delay_line_elsewhere(device, source, outlet, destination, inlet, op);
  if (maxpat::is_signal_type(type) &&
      maxpat::signal_inlet(destination.cls, inlet) == maxpat::SignalInlet::messages_only)
    return signal_into_messages(device, source, outlet, destination, inlet);
  return {};
}

std::string unknown_ports_text(std::string_view cls) {
  if (cls == "js" || cls == "v8" || cls == "jsui" || cls == "v8ui")
    return "ports set by its script";
  if (maxpat::find_object(cls) != nullptr) return "ports set by its contents";
  return "ports not known (no class of the object table; its wires are not checked)";
}

std::string unused_id(const Device& device, const std::string& base) {
  std::string id = base;
  for (int n = 2; device.object(id) != nullptr; ++n)
    id = base + "_" + std::to_string(n);
  return id;
}

core::Result<void> check_class(const Device& device, const std::string& cls, bool external,
                               std::string_view op) {
  if (external || maxpat::find_object(cls) != nullptr) return {};
  std::vector<std::string> used;  // classes of the device the table lacks (its abstractions)
  for (const auto& [id, object] : device.objects()) {
    if (object.cls == cls) return {};
    if (maxpat::find_object(object.cls) == nullptr &&
        std::find(used.begin(), used.end(), object.cls) == used.end())
      used.push_back(object.cls);
  }
  std::vector<std::string> close;
  for (const std::string& name : core::closest_matches(cls, used, 1)) {
    if (core::edit_distance(core::to_lower(cls), core::to_lower(name)) <= 2) close.push_back(name);
  }
  for (std::string& name : maxpat::close_classes(cls, 3 - close.size()))
    close.push_back(std::move(name));
  if (close.empty()) return {};
  std::string message = "\"" + cls + "\" is not a Max class the object table has; close:";
  for (std::size_t i = 0; i < close.size(); ++i)
    message += (i == 0 ? " " : ", ") + close[i];
  message += " (an abstraction or external of that name: external:true)";
  std::vector<std::string> hints;
  if (std::string fixed = core::replace_reference(op, cls, core::quote_token(close.front()));
      !fixed.empty())
    hints.push_back(std::move(fixed));
  return core::make_error(message, std::move(hints));
}

core::Result<void> check_new_identity(const Device& device, const MaxObject& original,
                                      const MaxObject& object, bool external, std::string_view op) {
  if (object.cls == original.cls && object.args == original.args) return {};
  if (object.cls != original.cls) {
    if (auto known = check_class(device, object.cls, external, op); !known) return known.error();
    std::string foreign;
    for (const auto& [key, value] : object.attrs) {
      const std::string name = key.starts_with("_parameter_") ? key.substr(1) : key;
      const maxpat::AttributeSpec* spec = maxpat::find_attribute(name);
      if (spec != nullptr && !maxpat::class_has_attribute(object.cls, *spec))
        foreign += (foreign.empty() ? "" : ", ") + name;
    }
    if (!foreign.empty())
      return core::make_error(object.id + " has attributes a " + object.cls + " does not have (" +
                              foreign + "): remove it and add a new one instead");
    const maxpat::AttributeSpec* longname = maxpat::find_attribute("parameter_longname");
    if (const Mapping* mapping = mapping_of(device.mappings(), object.id);
        mapping != nullptr && !maxpat::class_has_attribute(object.cls, *longname))
      return core::make_error(object.id + " is the Live parameter " +
                                  core::quote_token(mapping->parameter) + ", which a " +
                                  object.cls + " cannot be; unmap it first",
                              {"unmap " + core::quote_token(mapping->parameter)});
  }
  for (const Wire& wire : device.wires_of(object.id)) {
    const MaxObject& source = wire.source == object.id ? object : *device.object(wire.source);
    const MaxObject& destination =
        wire.destination == object.id ? object : *device.object(wire.destination);
    auto legal = check_wire(device, source, wire.outlet, destination, wire.inlet, "");
    if (legal) continue;
    return core::make_error(
        object.id + " as " + object.cls + (object.args.empty() ? "" : " " + object.args) +
            " would break its wire " + wire.source + ":" + std::to_string(wire.outlet) + " -> " +
            wire.destination + ":" + std::to_string(wire.inlet) +
            " (unwire it first): " + legal.error().message,
        {unwire_op(wire)});
  }
  return {};
}

}  // namespace fcp::lofi

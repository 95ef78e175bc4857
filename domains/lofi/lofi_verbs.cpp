#include "domains/lofi/lofi_verbs.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "core/selector.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/selection.hpp"

namespace fcp::lofi {
namespace {

std::optional<double> number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty() ||
      !std::isfinite(value) || std::abs(value) > 1e6)
    return std::nullopt;
  return value;
}

core::Result<std::pair<double, double>> pair_param(const LofiOp& ctx, std::string_view key,
                                                   char separator) {
  const std::string* text = ctx.op.param(key);
  if (text == nullptr) return core::make_error("missing " + std::string(key) + ":");
  const auto at = text->find(separator);
  if (at != std::string::npos) {
    auto a = number(std::string_view(*text).substr(0, at));
    auto b = number(std::string_view(*text).substr(at + 1));
    if (a && b) return std::pair{*a, *b};
  }
  return core::make_error("invalid " + std::string(key) + ":" + *text + " — use " +
                          std::string(key) + (separator == ',' ? ":X,Y" : ":WxH"));
}

core::Result<const MaxObject*> resolve(const LofiOp& ctx, std::string_view id) {
  if (const MaxObject* object = ctx.device.object(std::string(id))) return object;
  core::NameIndex<std::string> names;
  for (const auto& [key, object] : ctx.device.objects())
    names.add(key, key);
  auto found = names.resolve(id, {"object", ctx.op.raw, "the device is empty"});
  if (!found) return found.error();
  return ctx.device.object(*found);
}

// The objects an op names: its ids, united with what its selectors choose together (core's
// engine, see selection.hpp). Deduplicated: named ones first, then the selection in z-order.
struct Targets {
  std::vector<std::string> ids;
  std::string nothing_matched;  // the selectors matched nothing (named ids still count)
};

core::Result<Targets> targets(const LofiOp& ctx) {
  Targets out;
  std::set<std::string> seen;
  for (const auto& word : ctx.op.positionals) {
    auto object = resolve(ctx, word);
    if (!object) return object.error();
    if (seen.insert((*object)->id).second) out.ids.push_back((*object)->id);
  }
  if (ctx.op.selectors.empty()) return out;
  auto selection = select_objects(ctx.device, ctx.op.selectors, ctx.call.log, ctx.op.raw);
  if (!selection) return selection.error();
  for (auto& id : selection->ids) {
    if (seen.insert(id).second) out.ids.push_back(std::move(id));
  }
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

// Adds the `?` line when the selectors matched nothing; true when nothing is left to change.
bool nothing_to_change(LofiOp& ctx, const Targets& chosen) {
  if (chosen.nothing_matched.empty()) return chosen.ids.empty();
  ctx.lines.push_back(chosen.ids.empty()
                          ? core::nothing_matched_warning(chosen.nothing_matched, ctx.op.verb)
                          : core::warning_line(chosen.nothing_matched));
  return chosen.ids.empty();
}

std::string xy(double x, double y) {
  auto fmt = [](double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s;
  };
  return fmt(x) + "," + fmt(y);
}

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.')
      return false;
  }
  return true;
}

// The parameter_longname `object` is given ("_parameter_longname" is Max's message for it).
const std::string* longname_of(const MaxObject& object) {
  for (const char* key : {"parameter_longname", "_parameter_longname"}) {
    if (auto it = object.attrs.find(key); it != object.attrs.end()) return &it->second;
  }
  return nullptr;
}

// Max keeps one name per Live parameter, its parameter_longname: a mapped object may not be
// given another one (the file could say only one of them).
core::Result<void> keeps_its_parameter_name(const LofiOp& ctx, const MaxObject& object) {
  const Mapping* mapping = mapping_of(ctx.edit.device().mappings(), object.id);
  const std::string* longname = longname_of(object);
  if (mapping == nullptr || longname == nullptr || *longname == mapping->parameter) return {};
  return core::make_error(object.id + " is the Live parameter " +
                              core::quote_token(mapping->parameter) +
                              " (map): its parameter_longname is that name",
                          {"unmap " + core::quote_token(mapping->parameter),
                           "map " + core::quote_token(*longname) + " " + object.id});
}

// The object of `mapping` stops being that Live parameter: the parameter's names leave its
// attributes, so that the saved file no longer names it.
void stop_being_parameter(LofiOp& ctx, const Mapping& mapping) {
  const MaxObject* object = ctx.device.object(mapping.object);
  const std::string* longname = object != nullptr ? longname_of(*object) : nullptr;
  if (longname == nullptr || *longname != mapping.parameter) return;
  MaxObject unnamed = *object;
  unnamed.attrs.erase("parameter_longname");
  unnamed.attrs.erase("_parameter_longname");
  if (auto it = unnamed.attrs.find("parameter_shortname");
      it != unnamed.attrs.end() && it->second == live_shortname(mapping.parameter))
    unnamed.attrs.erase(it);
  ctx.edit.put_object(unnamed);
}

}  // namespace

core::Result<void> verb_add(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("add requires CLASS and ID", {"add cycle~ osc1 at:40,40 args:440",
                                                          "add live.dial cutoff at:100,40"});
  const std::string& cls = ctx.op.positionals[0];
  const std::string& id = ctx.op.positionals[1];
  if (!valid_id(id))
    return core::make_error("invalid id \"" + id +
                            "\" — letters, digits, _ - . (it becomes the "
                            "object's scripting name)");
  if (ctx.device.object(id) != nullptr)
    return core::make_error("an object \"" + id + "\" already exists",
                            {"add " + cls + " " + id + "_2"});
  MaxObject object;
  object.id = id;
  object.cls = cls;
  object.args = ctx.op.param_or("args", "");
  if (ctx.op.has_param("at")) {
    auto at = pair_param(ctx, "at", ',');
    if (!at) return at.error();
    std::tie(object.x, object.y) = *at;
  } else {
    object.x = 40;
    object.y = 40 + 40.0 * static_cast<double>(ctx.device.objects().size());
  }
  if (ctx.op.has_param("size")) {
    auto size = pair_param(ctx, "size", 'x');
    if (!size) return size.error();
    object.size = std::array<double, 2>{size->first, size->second};
  }
  ctx.edit.put_object(object);
  const auto ports = maxpat::ports_for(cls, object.args);
  ctx.lines.push_back(core::created(cls + " " + id + " @(" + xy(object.x, object.y) + ") " +
                                    std::to_string(ports.inlets) + " in / " +
                                    std::to_string(ports.outlets) + " out" +
                                    (object.args.empty() ? "" : " args:" + object.args)));
  return {};
}

namespace {

core::Result<Wire> checked_wire(const LofiOp& ctx, const MaxObject& source, int outlet,
                                const MaxObject& destination, int inlet) {
  const auto out_ports = maxpat::ports_for(source.cls, source.args);
  const auto in_ports = maxpat::ports_for(destination.cls, destination.args);
  if (outlet >= out_ports.outlets && maxpat::find_object(source.cls) != nullptr)
    return core::make_error(source.id + " (" + source.cls + ") has " +
                            core::plural(static_cast<std::size_t>(out_ports.outlets), "outlet") +
                            "; out:" + std::to_string(outlet) +
                            " does not exist (outlets count from 0)");
  if (inlet >= in_ports.inlets && maxpat::find_object(destination.cls) != nullptr)
    return core::make_error(destination.id + " (" + destination.cls + ") has " +
                            core::plural(static_cast<std::size_t>(in_ports.inlets), "inlet") +
                            "; in:" + std::to_string(inlet) +
                            " does not exist (inlets count from 0)");
  (void)ctx;
  return Wire{source.id, outlet, destination.id, inlet};
}

core::Result<void> wire_or_unwire(LofiOp& ctx, bool add) {
  const auto& p = ctx.op.positionals;
  const std::string verb = add ? "wire" : "unwire";
  if (p.size() < 3 || p.size() % 2 == 0)
    return core::make_error(verb + " requires SRC -> DST [out:N] [in:N]",
                            {verb + " osc1 -> gain [out:0] [in:0]", "wire osc1 -> filter -> out"});
  for (std::size_t i = 1; i < p.size(); i += 2) {
    if (!core::is_arrow(p[i]))
      return core::make_error(verb + ": expected -> between objects, got \"" + p[i] +
                              "\" (outlets and inlets are out:N in:N)");
  }
  const auto outlet = static_cast<int>(ctx.op.integer("out").value_or(0));
  const auto inlet = static_cast<int>(ctx.op.integer("in").value_or(0));
  for (std::size_t i = 0; i + 2 < p.size(); i += 2) {
    auto source = resolve(ctx, p[i]);
    if (!source) return source.error();
    auto destination = resolve(ctx, p[i + 2]);
    if (!destination) return destination.error();
    auto wire = checked_wire(ctx, **source, outlet, **destination, inlet);
    if (!wire) return wire.error();
    const std::string shown = wire->source + ":" + std::to_string(wire->outlet) + " -> " +
                              wire->destination + ":" + std::to_string(wire->inlet);
    if (add) {
      if (ctx.edit.device().has_wire(*wire)) return core::make_error("already wired: " + shown);
      ctx.edit.add_wire(*wire);
      ctx.lines.push_back(core::connection_changed(shown));
    } else {
      if (!ctx.edit.device().has_wire(*wire)) {
        // The wires that do join the two objects, each as the op that removes it.
        std::vector<std::string> hints;
        for (const auto& other : ctx.edit.device().wires_of(wire->source)) {
          if (other.source != wire->source || other.destination != wire->destination) continue;
          hints.push_back("unwire " + other.source + " -> " + other.destination + " out:" +
                          std::to_string(other.outlet) + " in:" + std::to_string(other.inlet));
        }
        return core::make_error(
            "no wire " + shown +
                (hints.empty() ? "; " + wire->source + " and " + wire->destination +
                                     " are not wired (lofi_query wires " + wire->source + ")"
                               : std::string()),
            std::move(hints));
      }
      ctx.edit.erase_wire(*wire);
      ctx.lines.push_back(core::deleted("wire " + shown));
    }
  }
  return {};
}

}  // namespace

core::Result<void> verb_wire(LofiOp& ctx) {
  return wire_or_unwire(ctx, true);
}

core::Result<void> verb_unwire(LofiOp& ctx) {
  return wire_or_unwire(ctx, false);
}

core::Result<void> verb_remove(LofiOp& ctx) {
  if (ctx.op.positionals.empty() && ctx.op.selectors.empty())
    return core::make_error("remove requires IDs or selectors", {"remove osc1", "remove @unwired"});
  auto chosen = targets(ctx);
  if (!chosen) return chosen.error();
  if (nothing_to_change(ctx, *chosen)) return {};
  for (const auto& id : chosen->ids) {
    const std::size_t wires = ctx.edit.device().wires_of(id).size();
    ctx.edit.erase_object(id);
    ctx.lines.push_back(
        core::deleted(id + (wires ? " (and " + core::plural(wires, "wire") + ")" : "")));
  }
  return {};
}

core::Result<void> verb_ui(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("ui requires NAME and CLASS",
                            {"ui 30_rate_dial live.dial at:20,20 size:44x48",
                             "ui 00_bg panel at:0,0 size:600x170 bgcolor:\"0.1 0.1 0.1 1\""});
  const std::string& name = ctx.op.positionals[0];
  if (!valid_id(name)) return core::make_error("invalid layer name \"" + name + "\"");
  auto at = pair_param(ctx, "at", ',');
  if (!at) return at.error();
  auto size = pair_param(ctx, "size", 'x');
  if (!size) return size.error();
  MaxObject object;
  if (const MaxObject* existing = ctx.device.object(name)) object = *existing;
  object.id = name;
  object.layer = name;
  object.cls = ctx.op.positionals[1];
  object.ui = true;
  object.x = at->first;
  object.y = at->second;
  object.size = std::array<double, 2>{size->first, size->second};
  object.args = ctx.op.param_or("args", object.args);
  for (const auto& param : ctx.op.params) {
    if (param.key == "at" || param.key == "size" || param.key == "args") continue;
    if (auto problem = maxpat::attribute_value_problem(param.key, param.value); !problem.empty())
      return core::make_error(problem);
    object.attrs[param.key] = param.value;
  }
  const bool replaced = ctx.device.object(name) != nullptr;
  if (auto kept = keeps_its_parameter_name(ctx, object); !kept) return kept.error();
  ctx.edit.put_object(object);
  const std::string text = "ui " + name + " " + object.cls + " @(" + xy(object.x, object.y) + " " +
                           xy(size->first, size->second) + ")";
  ctx.lines.push_back(replaced ? core::property_changed(text) : core::created(text));
  return {};
}

core::Result<void> verb_inject(LofiOp& ctx) {
  const std::string* path = ctx.op.param("path");
  if (ctx.op.positionals.size() != 1 || path == nullptr)
    return core::make_error("inject requires ID and path:FILE.js",
                            {"inject script path:scripts/lfo.js"});
  auto object = resolve(ctx, ctx.op.positionals[0]);
  if (!object) return object.error();
  if ((*object)->cls != "js" && (*object)->cls != "v8" && (*object)->cls != "jsui" &&
      (*object)->cls != "v8ui")
    return core::make_error((*object)->id + " is a " + (*object)->cls +
                            "; inject loads code into js/v8 objects");
  if (!path->ends_with(".js") && !path->ends_with(".mjs"))
    return core::make_error("inject takes a .js file (code is never sent over UDP)");
  auto resolved = ctx.call.paths.for_reading(*path);
  if (!resolved) return resolved.error();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(*resolved, ec))
    return core::make_error("no such script: " + *path);
  ctx.edit.put_script((*object)->id, resolved->string());
  ctx.lines.push_back(core::property_changed("inject " + (*object)->id + " " + resolved->string()));
  return {};
}

core::Result<void> verb_map(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("map requires PARAMETER and ID", {"map Cutoff cutoff_dial prop:value"});
  auto object = resolve(ctx, ctx.op.positionals[1]);
  if (!object) return object.error();
  Mapping mapping{ctx.op.positionals[0], (*object)->id, ctx.op.param_or("prop", "value")};
  const Mapping* current = mapping_of(ctx.device.mappings(), mapping.object);
  if (current != nullptr && current->parameter != mapping.parameter)
    return core::make_error(mapping.object + " is already the parameter " +
                                core::quote_token(current->parameter) +
                                " (an object has one parameter name); unmap it first",
                            {"unmap " + core::quote_token(current->parameter)});
  const auto previous = ctx.device.mappings().find(mapping.parameter);
  const bool replaced = previous != ctx.device.mappings().end();
  if (replaced && previous->second.object != mapping.object)
    stop_being_parameter(ctx, previous->second);
  // The object's own names become the parameter's, as Max's map sets them.
  if (const std::string* longname = longname_of(**object);
      longname != nullptr && *longname != mapping.parameter) {
    MaxObject named = **object;
    named.attrs.erase("_parameter_longname");
    named.attrs["parameter_longname"] = mapping.parameter;
    if (named.attrs.contains("parameter_shortname"))
      named.attrs["parameter_shortname"] = live_shortname(mapping.parameter);
    ctx.edit.put_object(named);
  }
  ctx.edit.put_mapping(mapping);
  const std::string text =
      "map " + mapping.parameter + " -> " + mapping.object + "." + mapping.property;
  ctx.lines.push_back(replaced ? core::property_changed(text) : core::created(text));
  if (mapping.property != "value")
    ctx.lines.push_back(core::warning_line(
        "prop:" + mapping.property +
        " is not kept in the saved file: Max saves a Live parameter as its object's value, so "
        "the mapping reopens as " +
        mapping.object + ".value"));
  return {};
}

core::Result<void> verb_unmap(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 1) return core::make_error("unmap requires PARAMETER");
  if (!ctx.device.mappings().contains(ctx.op.positionals[0]))
    return core::make_error("no mapping \"" + ctx.op.positionals[0] + "\"");
  // Before the mapping goes, so that Max's unmap, which restores the object's earlier name,
  // comes last.
  stop_being_parameter(ctx, ctx.device.mappings().at(ctx.op.positionals[0]));
  ctx.edit.erase_mapping(ctx.op.positionals[0]);
  ctx.lines.push_back(core::deleted("map " + ctx.op.positionals[0]));
  return {};
}

core::Result<void> verb_move(LofiOp& ctx) {
  auto chosen = targets(ctx);
  if (!chosen) return chosen.error();
  if (chosen->ids.empty() && chosen->nothing_matched.empty())
    return core::make_error("move requires IDs", {"move osc1 to:100,40"});
  if (nothing_to_change(ctx, *chosen)) return {};
  for (const auto& id : chosen->ids) {
    MaxObject object = *ctx.edit.device().object(id);
    if (ctx.op.has_param("to")) {
      auto to = pair_param(ctx, "to", ',');
      if (!to) return to.error();
      std::tie(object.x, object.y) = *to;
    } else if (ctx.op.has_param("by")) {
      auto by = pair_param(ctx, "by", ',');
      if (!by) return by.error();
      object.x += by->first;
      object.y += by->second;
    } else {
      return core::make_error("move requires to:X,Y or by:DX,DY");
    }
    ctx.edit.put_object(object);
    ctx.lines.push_back(core::bulk("moved " + id + " to (" + xy(object.x, object.y) + ")"));
  }
  return {};
}

core::Result<void> verb_modify(LofiOp& ctx) {
  auto chosen = targets(ctx);
  if (!chosen) return chosen.error();
  if ((chosen->ids.empty() && chosen->nothing_matched.empty()) || ctx.op.params.empty())
    return core::make_error(ctx.op.verb + " requires IDs and attr:value pairs",
                            {ctx.op.verb + " cutoff_dial parameter_longname:Cutoff"});
  if (nothing_to_change(ctx, *chosen)) return {};
  for (const auto& id : chosen->ids) {
    MaxObject object = *ctx.edit.device().object(id);
    for (const auto& param : ctx.op.params) {
      if (param.key == "args") {
        object.args = param.value;
      } else if (param.value.size() > 32767) {
        return core::make_error("value of " + param.key + " is longer than Max's symbol limit");
      } else if (auto problem = maxpat::attribute_value_problem(param.key, param.value);
                 !problem.empty()) {
        return core::make_error(problem);
      } else {
        object.attrs[param.key] = param.value;
      }
    }
    if (auto kept = keeps_its_parameter_name(ctx, object); !kept) return kept.error();
    ctx.edit.put_object(object);
  }
  ctx.lines.push_back(
      core::property_changed(ctx.op.verb + " " + core::plural(chosen->ids.size(), "object")));
  return {};
}

namespace {

// The id for the n-th copy: a trailing number counts on, else _n.
std::string numbered(const std::string& id, std::size_t n) {
  std::size_t digits = id.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(id[digits - 1])))
    --digits;
  if (digits < id.size() && id.size() - digits < 6)
    return id.substr(0, digits) + std::to_string(std::stoul(id.substr(digits)) + n - 1);
  return id + "_" + std::to_string(n);
}

core::Result<void> copy_or_repeat(LofiOp& ctx, bool repeat) {
  if (ctx.op.positionals.size() != 1)
    return core::make_error(
        repeat ? "repeat requires ID and count:N" : "copy requires ID and as:NEW",
        {repeat ? "repeat dial1 count:7 by:50,0" : "copy osc1 as:osc2 by:0,60"});
  auto original = resolve(ctx, ctx.op.positionals[0]);
  if (!original) return original.error();
  std::size_t count = 1;
  if (repeat) count = static_cast<std::size_t>(ctx.op.integer("count").value_or(1));
  double dx = (*original)->size ? (*original)->size->at(0) + 10 : 60, dy = 0;
  if (!repeat) std::tie(dx, dy) = std::pair{0.0, 60.0};
  if (ctx.op.has_param("by")) {
    auto by = pair_param(ctx, "by", ',');
    if (!by) return by.error();
    std::tie(dx, dy) = *by;
  }
  for (std::size_t i = 1; i <= count; ++i) {
    MaxObject copy = **original;
    copy.id = repeat ? numbered((*original)->id, i + 1) : ctx.op.param_or("as", "");
    if (copy.id.empty()) return core::make_error("copy requires as:NEW_ID");
    if (!valid_id(copy.id)) return core::make_error("invalid id \"" + copy.id + "\"");
    if (ctx.edit.device().object(copy.id) != nullptr)
      return core::make_error("an object \"" + copy.id + "\" already exists");
    copy.order = 0;
    copy.box.clear();
    if (copy.ui) copy.layer = copy.id;
    copy.x += dx * static_cast<double>(i);
    copy.y += dy * static_cast<double>(i);
    ctx.edit.put_object(copy);
    ctx.lines.push_back(core::created(copy.cls + " " + copy.id + " @(" + xy(copy.x, copy.y) + ")"));
  }
  return {};
}

}  // namespace

core::Result<void> verb_copy(LofiOp& ctx) {
  return copy_or_repeat(ctx, false);
}

core::Result<void> verb_repeat(LofiOp& ctx) {
  return copy_or_repeat(ctx, true);
}

core::Result<void> verb_resize(LofiOp& ctx) {
  auto size = pair_param(ctx, "to", 'x');
  if (!size) return size.error();
  ctx.edit.update_info([&](DeviceInfo& info) {
    info.width = size->first;
    info.height = size->second;
  });
  ctx.lines.push_back(core::property_changed("device size " + xy(size->first, size->second)));
  return {};
}

std::vector<core::VerbSpec> lofi_queries() {
  using core::VerbSpec;
  return {
      VerbSpec{"map", "", "", "the device: objects in z-order with wires"},
      VerbSpec{"stats", "", "", "counts"},
      VerbSpec{"describe", "ID", "", "one object: class, args, position, ports, wires, attributes"},
      VerbSpec{"list", "[@SELECTOR…]", "",
               "objects in z-order; the same selector type unites, different types intersect"},
      VerbSpec{"wires", "ID", "", "an object's wires"},
      VerbSpec{"find", "TEXT", "", "objects whose id, class or args contain TEXT"}.text_argument(),
      VerbSpec{"ping", "", "", "is Max answering? ports, round trip, pending requests"}};
}

}  // namespace fcp::lofi

// The verbs that make, place, wire and script objects: add remove move copy repeat wire unwire
// inject (attribute_verbs.cpp has modify ui map unmap resize).
#include "domains/lofi/lofi_verbs.hpp"

#include <algorithm>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/verb_support.hpp"
#include "domains/lofi/wiring.hpp"

namespace fcp::lofi {

core::Result<void> verb_add(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("add requires CLASS and ID", {"add cycle~ osc1 at:40,40 args:440",
                                                          "add live.dial cutoff at:100,40"});
  const std::string& cls = ctx.op.positionals[0];
  const std::string& id = ctx.op.positionals[1];
  if (id == kDeviceWord)
    return core::make_error(
        "\"device\" names the device itself (modify device …); give the "
        "object another id",
        {core::replace_reference(ctx.op.raw, id, cls.substr(0, cls.find_first_of("~.")) + "1")});
  if (!valid_id(id))
    return core::make_error("invalid id \"" + id +
                            "\" — letters, digits, _ - . (it becomes the "
                            "object's scripting name)");
  if (ctx.device.object(id) != nullptr)
    return core::make_error("an object \"" + id + "\" already exists",
                            {"add " + cls + " " + id + "_2"});
  if (auto known = check_class(ctx.device, cls, flag(ctx, "external"), ctx.op.raw); !known)
    return known.error();
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
  const ObjectPorts ports = ports_of(ctx.edit.device(), object);
  ctx.lines.push_back(
      core::created(cls + " " + id + " @(" + xy(object.x, object.y) + ") " +
                    (ports.known ? std::to_string(ports.ports.inlets) + " in / " +
                                       std::to_string(ports.ports.outlets) + " out"
                                 : unknown_ports_text(cls)) +
                    (object.args.empty() ? "" : " args:" + core::quote_token(object.args))));
  // A comment made without size: is as wide as its text; one given a size too narrow is said.
  if (auto narrow = narrow_comment(ctx.edit.device(), object, [&](int width) {
        std::string rect = xy(object.x, object.y) + "," + xy(width, (*object.size)[1]);
        std::replace(rect.begin(), rect.end(), ',', ' ');
        return "modify " + id + " patching_rect:\"" + rect + "\"";
      }))
    ctx.lines.push_back(*narrow);
  return {};
}

namespace {

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
    // Only new wires are checked: one the device has (from its file) stays removable.
    const Wire made{(*source)->id, outlet, (*destination)->id, inlet};
    if (add && !ctx.edit.device().has_wire(made)) {
      if (auto legal =
              check_wire(ctx.edit.device(), **source, outlet, **destination, inlet, ctx.op.raw);
          !legal)
        return legal.error();
    }
    const Wire* wire = &made;
    const std::string shown = wire->source + ":" + std::to_string(wire->outlet) + " -> " +
                              wire->destination + ":" + std::to_string(wire->inlet);
    if (add) {
      // A repeated call (an agent retrying) is safe: the wire is there, nothing is added.
      if (ctx.edit.device().has_wire(*wire)) {
        ctx.lines.push_back(core::warning_line("wire " + shown + " exists already; nothing added"));
        continue;
      }
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
    // A UI layer's place is its presentation rectangle; an object's, its patching_rect.
    ctx.lines.push_back(core::bulk("moved " + id + " to (" + xy(object.x, object.y) + ")" +
                                   (object.ui ? " in presentation" : "")));
  }
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
  if (auto fits = core::check_creation(ctx.call, count, "objects"); !fits) return fits.error();
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
    // A UI layer's patching_rect moves with it, so that copies do not cover each other there.
    if (auto rect = copy.attrs.find("patching_rect"); rect != copy.attrs.end()) {
      const auto numbers = maxpat::split_atoms(rect->second);
      if (numbers.size() == 4) {
        const double x = std::stod(numbers[0]) + dx * static_cast<double>(i);
        const double y = std::stod(numbers[1]) + dy * static_cast<double>(i);
        rect->second = maxpat::canonical_attribute_text(
            "patching_rect", xy(x, y) + "," + numbers[2] + "," + numbers[3]);
      }
    }
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

std::vector<core::VerbSpec> lofi_queries() {
  using core::VerbSpec;
  return {
      VerbSpec{"map", "", "", "the device: objects in z-order with wires"}.with_structured_answer(),
      VerbSpec{"stats", "", "", "counts"}.with_structured_answer(),
      VerbSpec{"describe", "ID|device", "",
               "one object as its saved box says it: class, args (a message's or comment's "
               "text), ports (an opened box's from its file), rects, every attribute, its Live "
               "parameter, wires; `describe device`: presentation, devicewidth, window"}
          .with_structured_answer(),
      VerbSpec{"list", "[@SELECTOR…]", "",
               "objects in z-order; the same selector type unites, different types intersect"}
          .with_structured_answer(),
      VerbSpec{"wires", "ID", "", "an object's wires"},
      VerbSpec{"find", "TEXT", "",
               "objects whose id, class, args or text (message, comment) contain TEXT"}
          .text_argument(),
      VerbSpec{"ping", "", "", "is Max answering? ports, round trip, pending requests"}};
}

}  // namespace fcp::lofi

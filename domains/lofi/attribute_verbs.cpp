// The verbs that set what Max keeps about objects: modify (box attributes, Live parameters; the
// device's settings are device_verbs.cpp's), ui (UI layers), map and unmap (Live parameters).
// Each reply says what the saved file (and Max) now holds that it did not before.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/maxpat/attribute_values.hpp"
#include "domains/lofi/maxpat/attributes.hpp"
#include "domains/lofi/maxpat/objects.hpp"
#include "domains/lofi/verb_support.hpp"
#include "domains/lofi/wiring.hpp"

namespace fcp::lofi {
namespace {

using maxpat::AttributeOwners;
using maxpat::AttributeSpec;

constexpr std::size_t kMaxLines = 10;  // objects a modify reply names one by one

// The parameter_longname `object` is given ("_parameter_longname" is Max's message for it).
const std::string* longname_of(const MaxObject& object) {
  for (const char* key : {"parameter_longname", "_parameter_longname"}) {
    if (auto it = object.attrs.find(key); it != object.attrs.end()) return &it->second;
  }
  return nullptr;
}

// Max keeps one name per Live parameter, its object's parameter_longname: a mapped object given
// another one renames its parameter (range, unit and initial value stay, they are the object's).
// Its parameter_shortname follows when it was the name Live derived from the old one and the op
// does not set it. Returns the reply line ("" when nothing was renamed); call before put_object.
core::Result<std::string> rename_parameter(LofiOp& ctx, MaxObject& object) {
  const Mapping* mapping = mapping_of(ctx.edit.device().mappings(), object.id);
  const std::string* longname = longname_of(object);
  if (mapping == nullptr || longname == nullptr || *longname == mapping->parameter)
    return std::string();
  const std::string name = *longname;
  const std::string old_name = mapping->parameter;
  if (auto other = ctx.edit.device().mappings().find(name);
      other != ctx.edit.device().mappings().end())
    return core::make_error(core::quote_token(name) + " is already the Live parameter of " +
                                other->second.object + " (a parameter has one object)",
                            {"unmap " + core::quote_token(name)});
  if (!ctx.op.has_param("parameter_shortname") && !ctx.op.has_param("_parameter_shortname")) {
    // The short name the file holds now (the object's own, or the one Live derived).
    const auto saved = saved_attributes(ctx.edit.device(), *ctx.edit.device().object(object.id));
    if (auto it = saved.find("parameter_shortname");
        it != saved.end() && it->second == live_shortname(old_name))
      object.attrs["parameter_shortname"] = live_shortname(name);
  }
  Mapping renamed = *mapping;
  renamed.parameter = name;
  ctx.edit.erase_mapping(old_name);
  ctx.edit.put_mapping(renamed);
  return "renamed the Live parameter " + core::quote_token(old_name) + " to " +
         core::quote_token(name);
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
  // What Max writes for any parameter (its type and unit style at their defaults) goes with the
  // names when the object has no other parameter attribute left.
  const auto defaults = maxpat::parameter_defaults(unnamed.cls);
  const bool only_defaults =
      std::all_of(unnamed.attrs.begin(), unnamed.attrs.end(), [&defaults](const auto& entry) {
        if (!maxpat::is_parameter_attribute(entry.first)) return true;
        return std::find(defaults.begin(), defaults.end(),
                         std::pair<std::string_view, std::string_view>(
                             entry.first, entry.second)) != defaults.end();
      });
  if (only_defaults) {
    for (const auto& entry : defaults)
      unnamed.attrs.erase(std::string(entry.first));
  }
  ctx.edit.put_object(unnamed);
}

// "; map Rate -> rate.value" when object `id` became a Live parameter in this op (a saved
// parameter_longname with parameter_enable 1 maps it, as the reopened file would), else "".
// `was` is the mapping it had before the op.
std::string mapping_made(const LofiOp& ctx, const std::string& id, const Mapping* was) {
  const Mapping* now = mapping_of(ctx.edit.device().mappings(), id);
  if (now == nullptr || (was != nullptr && *was == *now)) return {};
  return "; map " + core::quote_token(now->parameter) + " -> " + now->object + "." + now->property +
         " (a Live parameter)";
}

// The mapping of object `id` now (nullopt: none), to compare after the op.
std::optional<Mapping> optional_mapping(const LofiOp& ctx, const std::string& id) {
  const Mapping* mapping = mapping_of(ctx.edit.device().mappings(), id);
  return mapping != nullptr ? std::optional<Mapping>(*mapping) : std::nullopt;
}

// What the saved box of object `id` says now ({} when it is gone).
std::map<std::string, std::string> saved_now(const LofiOp& ctx, const std::string& id) {
  const MaxObject* object = ctx.edit.device().object(id);
  return object != nullptr ? saved_attributes(ctx.edit.device(), *object)
                           : std::map<std::string, std::string>{};
}

bool declared_key(const LofiOp& ctx, std::string_view key) {
  const core::VerbSpec* spec = lofi_verb_table().find(ctx.op.verb);
  return spec != nullptr && spec->find_key(key) != nullptr;
}

// The name the file keeps attribute `name` of a `cls` box under: Max saves a panel's solid fill
// (bgfillcolor, bgfillcolor_color) as its bgcolor — real files hold "bgcolor": [r, g, b, a]
// with saved_attribute_attributes naming bgfillcolor (Ableton's CPU_Reporter.amxd).
std::string saved_name(const std::string& cls, const std::string& name) {
  if (cls == "panel" && (name == "bgfillcolor" || name == "bgfillcolor_color")) return "bgcolor";
  return name;
}

// The detail line for an op that set a panel's fill by Max's other name; nullopt otherwise.
std::optional<std::string> fill_note(const LofiOp& ctx, const MaxObject& object) {
  if (object.cls != "panel") return std::nullopt;
  for (const char* key : {"bgfillcolor", "bgfillcolor_color"}) {
    if (ctx.op.has_param(key))
      return core::detail_line(std::string(key) +
                               " is a panel's solid fill: Max saves it as bgcolor");
  }
  return std::nullopt;
}

// What the op gave that `object` had already (see already_given): class: and args: as they
// are, then the attributes by the name Max saves them under.
std::string given_already(const LofiOp& ctx, const MaxObject& original, const MaxObject& object,
                          const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& after) {
  std::string out;
  if (ctx.op.has_param("class") && object.cls == original.cls)
    out = "class:" + core::quote_token(object.cls);
  if (ctx.op.has_param("args") && object.args == original.args)
    out += (out.empty() ? "" : " ") + std::string("args:") + core::quote_token(object.args);
  std::vector<std::pair<std::string, std::string>> given;
  for (const auto& param : ctx.op.params) {
    if (declared_key(ctx, param.key)) continue;
    given.emplace_back(
        saved_name(object.cls,
                   param.key.starts_with("_parameter_") ? param.key.substr(1) : param.key),
        param.value);
  }
  const std::string attributes = already_given(before, after, given);
  if (!attributes.empty()) out += (out.empty() ? "" : " ") + attributes;
  return out;
}

// The op with the token of `key` replaced (`replacement` "" drops it).
std::string op_with(const LofiOp& ctx, std::string_view key, std::string_view replacement) {
  return core::replace_param_token(ctx.op.raw, key, replacement);
}

// `key` is no attribute of `object`'s class: what it is, the class's close names, and the op
// with the closest one (or without the key).
core::Error not_an_attribute(const LofiOp& ctx, const MaxObject& object, const std::string& key) {
  const std::string written = core::param_token_value(ctx.op.raw, key);
  const std::string name = key.starts_with("_parameter_") ? key.substr(1) : key;
  const AttributeSpec* spec = maxpat::find_attribute(name);
  if (spec != nullptr && spec->owners == AttributeOwners::device)
    return core::make_error(name + " is a setting of the device, not of " + object.id,
                            {"modify device " + name + ":" + written});
  std::string message = object.id + " (" + object.cls + ") has no attribute \"" + name + "\"";
  if (spec != nullptr) message += ": " + name + " belongs to " + maxpat::owners_text(spec->owners);
  const auto close = core::closest_matches(name, maxpat::attributes_of(object.cls), 3);
  std::vector<std::string> hints;
  for (std::size_t i = 0; i < close.size(); ++i) {
    message += (i == 0 ? "; close: " : ", ") + close[i];
    if (hints.empty() && core::edit_distance(core::to_lower(name), close[i]) <= 2)
      hints.push_back(op_with(ctx, key, close[i] + ":" + written));
  }
  // Without the key the op still works when it sets something else.
  if (hints.empty() && ctx.op.params.size() > 1) hints.push_back(op_with(ctx, key, ""));
  return core::make_error(message, std::move(hints));
}

// "ui ID CLASS at:X,Y size:WxH": the op that makes `object` a UI layer where it is.
std::string ui_op(const MaxObject& object) {
  const auto size = object.size.value_or(std::array<double, 2>{50, 22});
  return "ui " + object.id + " " + object.cls + " at:" + xy(object.x, object.y) +
         " size:" + wxh(size[0], size[1]);
}

// presentation, presentation_rect and patching_rect say where an object is, which the model
// keeps as its place: a UI layer's is its presentation rectangle, any other object's its
// patching_rect (a UI layer's patching_rect is an attribute). True when `key` is one of those
// places; `result` then says whether it was set or why not.
bool set_place(MaxObject& object, const std::string& key, const std::string& text,
               core::Result<void>& result) {
  const auto not_in_presentation = [&] {
    return core::make_error(object.id +
                                " is not in presentation: ui makes an object a UI layer, "
                                "with its presentation_rect",
                            {ui_op(object)});
  };
  if (key == "presentation") {
    if (!object.ui && text == "1") result = not_in_presentation();
    if (object.ui && text == "0")
      result = core::make_error(object.id +
                                " is a UI layer (in presentation), where the tools "
                                "keep UI layers; remove it and add it again to have "
                                "it in the patching view only");
    return true;  // else it is so already
  }
  if (key == "presentation_rect" && !object.ui) {
    result = not_in_presentation();
    return true;
  }
  if (key != (object.ui ? "presentation_rect" : "patching_rect")) return false;
  const boost::json::value rect = maxpat::attribute_value(key, text);
  const auto& numbers = rect.as_array();
  object.x = numbers[0].to_number<double>();
  object.y = numbers[1].to_number<double>();
  object.size =
      std::array<double, 2>{numbers[2].to_number<double>(), numbers[3].to_number<double>()};
  return true;
}

// Sets attribute `key` (`_parameter_…` is Max's scripting spelling) of `object` to `value` as
// Max saves it, after checking that the class has it and that Max takes the value.
core::Result<void> set_attribute(const LofiOp& ctx, MaxObject& object, const std::string& key,
                                 const std::string& value) {
  const std::string name = key.starts_with("_parameter_") ? key.substr(1) : key;
  if (name == "text" && text_is_content(object.cls))
    return core::make_error("the text of a " + object.cls + " is its content, its args",
                            {op_with(ctx, key, "args:" + core::quote_token(value))});
  const AttributeSpec* spec = maxpat::find_attribute(name);
  if (spec == nullptr || !maxpat::class_has_attribute(object.cls, *spec))
    return not_an_attribute(ctx, object, key);
  // Outside a panel Max saves bgfillcolor as a pattern (type, color, color1, color2, angle, …),
  // which the model does not keep: a solid colour is bgcolor.
  if (name == "bgfillcolor" && object.cls != "panel")
    return core::make_error(
        object.id + " (" + object.cls +
            "): bgfillcolor here is a colour pattern the tools do not write; a solid colour is "
            "bgcolor",
        {op_with(ctx, key, "bgcolor:" + core::quote_token(value))});
  if (auto problem = maxpat::attribute_value_problem(name, value); !problem.empty()) {
    const std::string fix = maxpat::attribute_value_fix(name, value);
    std::vector<std::string> hints;
    if (!fix.empty()) hints.push_back(op_with(ctx, key, name + ":" + core::quote_token(fix)));
    return core::make_error(problem, std::move(hints));
  }
  if (value.size() > 32767)
    return core::make_error("value of " + name + " is longer than Max's symbol limit");
  if (name == "varname")
    return core::make_error("the varname of " + object.id + " is its id, which ops use; copy " +
                                object.id + " as:NEW makes it under another name",
                            {"copy " + object.id + " as:" + object.id + "_2"});
  if (name == "filename")
    return core::make_error(
        "a script is loaded with inject (its file is then " + object.id + "'s filename)",
        {"inject " + object.id + " path:" + core::quote_token(value)});
  const std::string text = maxpat::canonical_attribute_text(name, value);
  core::Result<void> placed;
  if (set_place(object, name, text, placed)) return placed;
  object.attrs.erase("_" + name);
  object.attrs[saved_name(object.cls, name)] = text;
  return {};
}

// Whether a box saved with `saved` has Live parameter attributes (a valueof) already: a new
// live.dial box is enabled (parameter_enable 1) but has none until one is set or mapped.
bool has_parameter_attributes(const std::map<std::string, std::string>& saved) {
  return std::any_of(saved.begin(), saved.end(),
                     [](const auto& entry) { return maxpat::is_parameter_attribute(entry.first); });
}

// What Max writes in a parameter's valueof even at the defaults (maxpat::parameter_defaults),
// where the op did not set it: as the box has it (a mapping saved them), else, for a new Live
// parameter (`fresh`: the box has no parameter attribute yet), the default.
void add_parameter_defaults(const std::map<std::string, std::string>& saved, bool fresh,
                            MaxObject& object) {
  for (const auto& [name, code] : maxpat::parameter_defaults(object.cls)) {
    const std::string key(name);
    if (object.attrs.contains(key) || object.attrs.contains("_" + key)) continue;
    if (auto it = saved.find(key); it != saved.end())
      object.attrs[key] = it->second;
    else if (fresh)
      object.attrs[key] = std::string(code);
  }
}

// Sets every attribute of the op on `object` (a copy of `original`), with what Max needs
// besides: parameter_enable 1 for the first parameter attribute of an object that is no Live
// parameter yet, with the parameter attributes Max writes even at their defaults
// (parameter_type, parameter_unitstyle: maxpat::parameter_defaults), and
// parameter_initial_enable 1 with parameter_initial (unless the op sets them). A box that is a
// parameter already keeps what its file says.
core::Result<void> set_attributes(const LofiOp& ctx, const MaxObject& original, MaxObject& object) {
  bool parameter = false;
  for (const auto& param : ctx.op.params) {
    if (declared_key(ctx, param.key)) continue;
    if (auto done = set_attribute(ctx, object, param.key, param.value); !done) return done.error();
    parameter = parameter || maxpat::is_parameter_attribute(param.key);
  }
  const auto given = [&](std::string_view name) {
    return ctx.op.has_param(name) || ctx.op.has_param("_" + std::string(name));
  };
  if (parameter) {
    const auto saved = saved_attributes(ctx.edit.device(), original);
    if (auto it = saved.find("parameter_enable"); it == saved.end() || it->second != "1") {
      if (!given("parameter_enable")) object.attrs["parameter_enable"] = "1";
    }
    const auto enable = object.attrs.find("parameter_enable");
    const bool disabled = enable != object.attrs.end() && enable->second != "1";
    add_parameter_defaults(saved, !has_parameter_attributes(saved) && !disabled, object);
  }
  if (given("parameter_initial") && !given("parameter_initial_enable"))
    object.attrs["parameter_initial_enable"] = "1";
  return {};
}

}  // namespace

core::Result<void> verb_modify(LofiOp& ctx) {
  const auto& words = ctx.op.positionals;
  if (std::find(words.begin(), words.end(), kDeviceWord) != words.end()) {
    if (words.size() != 1 || !ctx.op.selectors.empty())
      return core::make_error(
          "modify device changes the device alone; modify its objects in "
          "another op",
          {"modify device openinpresentation:1"});
    return modify_device(ctx);
  }
  auto chosen = targets(ctx);
  if (!chosen) return chosen.error();
  if ((chosen->ids.empty() && chosen->nothing_matched.empty()) || ctx.op.params.empty())
    return core::make_error(ctx.op.verb + " requires IDs and attr:value pairs",
                            {ctx.op.verb + " cutoff_dial parameter_longname:Cutoff"});
  if (nothing_to_change(ctx, *chosen)) return {};
  std::size_t unnamed = 0;
  for (const auto& id : chosen->ids) {
    const MaxObject original = *ctx.edit.device().object(id);
    const auto before = saved_attributes(ctx.edit.device(), original);
    const std::optional<Mapping> mapped = optional_mapping(ctx, id);
    MaxObject object = original;
    if (const std::string* cls = ctx.op.param("class")) object.cls = *cls;
    if (const std::string* args = ctx.op.param("args")) object.args = *args;
    if (auto done = set_attributes(ctx, original, object); !done) return done.error();
    if (auto fits = check_new_identity(ctx.edit.device(), original, object, flag(ctx, "external"),
                                       ctx.op.raw);
        !fits)
      return fits.error();
    auto renamed = rename_parameter(ctx, object);
    if (!renamed) return renamed.error();
    ctx.edit.put_object(object);
    std::string changes = attribute_changes(before, saved_now(ctx, id));
    if (object.args != original.args)
      changes = "args:" + core::quote_token(object.args) + (changes.empty() ? "" : " " + changes);
    if (object.cls != original.cls)
      changes = "class:" + core::quote_token(object.cls) + (changes.empty() ? "" : " " + changes);
    const std::string already = given_already(ctx, original, object, before, saved_now(ctx, id));
    if (!changes.empty() && !already.empty()) changes += " (already: " + already + ")";
    if (!changes.empty() && renamed->empty())
      changes += mapping_made(ctx, id, mapped ? &*mapped : nullptr);
    if (ctx.lines.size() >= kMaxLines) {
      ++unnamed;
      if (!renamed->empty()) ctx.lines.push_back(core::property_changed(*renamed));
      continue;
    }
    ctx.lines.push_back(
        changes.empty()
            ? core::warning_line(ctx.op.verb + " " + id + ": nothing changed, it already has " +
                                 (already.empty() ? std::string("these values") : already))
            : core::property_changed(ctx.op.verb + " " + id + ": " + changes));
    if (!renamed->empty()) ctx.lines.push_back(core::property_changed(*renamed));
    if (auto note = fill_note(ctx, object)) ctx.lines.push_back(*note);
    // New text or a new font size in the same box: a label that no longer fits is said.
    if (object.args != original.args || object.attrs != original.attrs) {
      if (auto narrow = narrow_comment(ctx.edit.device(), object, [&](int width) {
            if (object.ui)
              return "ui " + id + " " + object.cls + " at:" + xy(object.x, object.y) +
                     " size:" + wxh(width, (*object.size)[1]);
            std::string rect = xy(object.x, object.y) + "," + xy(width, (*object.size)[1]);
            std::replace(rect.begin(), rect.end(), ',', ' ');
            return "modify " + id + " patching_rect:\"" + rect + "\"";
          }))
        ctx.lines.push_back(*narrow);
    }
  }
  if (unnamed > 0)
    ctx.lines.push_back(
        core::property_changed(ctx.op.verb + " " + core::plural(unnamed, "more object")));
  return {};
}

namespace {

// Where UI layers start in the patching view: right of every object that is not a UI layer
// (its patching_rect, else its place and size, else 100 wide), with a 40 px gap; 0 when there
// is none.
double ui_column(const Device& device) {
  double right = -1;
  for (const auto& [id, object] : device.objects()) {
    if (object.ui) continue;
    double width = object.size ? (*object.size)[0] : 100;
    double x = object.x;
    if (auto it = object.attrs.find("patching_rect"); it != object.attrs.end()) {
      std::istringstream rect(it->second);
      double y = 0, height = 0;
      if (!(rect >> x >> y >> width >> height)) {
        x = object.x;
        width = object.size ? (*object.size)[0] : 100;
      }
    }
    right = std::max(right, x + width);
  }
  return right < 0 ? 0 : std::ceil((right + 40) / 10) * 10;
}

// `ui live.dial rate …` (the order of add, CLASS then ID): refused with the op in ui's order,
// NAME then CLASS, when the first word is a Max class and the second is none (nor a class of the
// device's own boxes).
core::Result<void> name_before_class(const LofiOp& ctx) {
  const std::string& first = ctx.op.positionals[0];
  const std::string& second = ctx.op.positionals[1];
  if (maxpat::find_object(first) == nullptr || maxpat::find_object(second) != nullptr) return {};
  for (const auto& [id, object] : ctx.device.objects()) {
    if (object.cls == second) return {};
  }
  std::string fixed = "ui " + core::quote_token(second) + " " + core::quote_token(first);
  for (const auto& param : ctx.op.params)
    fixed += " " + param.key + ":" + core::param_token_value(ctx.op.raw, param.key);
  return core::make_error("ui takes NAME then CLASS (add takes CLASS then ID): \"" + first +
                              "\" is a Max class, \"" + second + "\" is not",
                          {fixed});
}

}  // namespace

core::Result<void> verb_ui(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("ui requires NAME and CLASS",
                            {"ui 30_rate_dial live.dial at:20,20 size:44x48",
                             "ui 00_bg panel at:0,0 size:600x170 bgcolor:\"0.1 0.1 0.1 1\""});
  if (auto order = name_before_class(ctx); !order) return order.error();
  const std::string& name = ctx.op.positionals[0];
  if (!valid_id(name)) return core::make_error("invalid layer name \"" + name + "\"");
  auto at = pair_param(ctx, "at", ',');
  if (!at) return at.error();
  auto size = pair_param(ctx, "size", 'x');
  if (!size) return size.error();
  const MaxObject* existing = ctx.device.object(name);
  if (existing == nullptr || existing->cls != ctx.op.positionals[1]) {
    if (auto known =
            check_class(ctx.device, ctx.op.positionals[1], flag(ctx, "external"), ctx.op.raw);
        !known)
      return known.error();
  }
  MaxObject original;
  if (existing != nullptr) {
    original = *existing;
  } else {
    original.id = name;
    original.layer = name;
    original.cls = ctx.op.positionals[1];
    original.ui = true;
  }
  const auto before = existing != nullptr ? saved_attributes(ctx.edit.device(), original)
                                          : std::map<std::string, std::string>{};
  const std::optional<Mapping> mapped = optional_mapping(ctx, name);
  MaxObject object = original;
  object.id = name;
  object.layer = name;
  object.cls = ctx.op.positionals[1];
  object.ui = true;
  object.x = at->first;
  object.y = at->second;
  object.size = std::array<double, 2>{size->first, size->second};
  object.args = ctx.op.param_or("args", object.args);
  // A new layer's patching_rect (where the Max daemon makes it) is its presentation place
  // shifted right of every audio object, so that the patching view shows both; it stays there
  // when the layer moves in presentation.
  // A new layer goes among the earlier layers by its z prefix ("01_bg2" behind the dials).
  if (existing == nullptr) object.order = ctx.edit.device().layer_order(name);
  if (existing == nullptr)
    object.attrs["patching_rect"] = maxpat::canonical_attribute_text(
        "patching_rect", xy(ui_column(ctx.edit.device()) + at->first, at->second) + "," +
                             xy(size->first, size->second));
  if (auto done = set_attributes(ctx, original, object); !done) return done.error();
  // A new panel named as the background (00_bg, 01_bg2) is one in Max too: drawn behind every
  // control in presentation and patching, whatever the order of the boxes. background:0 in the
  // op keeps it in front.
  const bool made_background = existing == nullptr && object.cls == "panel" &&
                               names_a_background(name) && !ctx.op.has_param("background");
  if (made_background) object.attrs["background"] = "1";
  auto renamed = rename_parameter(ctx, object);
  if (!renamed) return renamed.error();
  ctx.edit.put_object(object);
  const auto after = saved_now(ctx, name);
  // The op gave the size: a label that does not fit is said, with the size that fits.
  const auto narrow = narrow_comment(ctx.edit.device(), object, [&](int width) {
    return "ui " + name + " " + object.cls + " at:" + xy(object.x, object.y) +
           " size:" + wxh(width, (*object.size)[1]);
  });
  std::string text = "ui " + name + " " + object.cls + " ";
  // A comment's or message's text is its args: the reply says it as the box now says it.
  const bool args_said =
      !object.args.empty() && (existing == nullptr || object.args != original.args);
  if (existing == nullptr) {
    if (args_said) text += "args:" + core::quote_token(object.args) + " ";
    // size: is the presentation_rect (Live's view); the patching_rect is said with it.
    for (const char* rect : {"presentation_rect", "patching_rect"}) {
      if (auto it = after.find(rect); it != after.end())
        text += std::string(rect) + ":" + core::quote_token(it->second) + " ";
    }
    for (const auto& [key, value] : object.attrs) {
      if (key != "patching_rect") text += key + ":" + core::quote_token(value) + " ";
    }
    text.pop_back();
    ctx.lines.push_back(core::created(text + mapping_made(ctx, name, nullptr)));
    if (made_background)
      ctx.lines.push_back(core::detail_line(
          name +
          " is named as a background: background:1 puts it behind every control in both views "
          "(background:0 in the op keeps it in front)"));
    if (auto note = fill_note(ctx, object)) ctx.lines.push_back(*note);
    if (narrow) ctx.lines.push_back(*narrow);
    return {};
  }
  std::string changes = attribute_changes(before, after);
  if (args_said)
    changes = "args:" + core::quote_token(object.args) + (changes.empty() ? "" : " " + changes);
  if (!changes.empty() && renamed->empty())
    changes += mapping_made(ctx, name, mapped ? &*mapped : nullptr);
  ctx.lines.push_back(changes.empty() ? core::warning_line(text + "unchanged")
                                      : core::property_changed(text + changes));
  if (!renamed->empty()) ctx.lines.push_back(core::property_changed(*renamed));
  if (auto note = fill_note(ctx, object)) ctx.lines.push_back(*note);
  if (narrow) ctx.lines.push_back(*narrow);
  return {};
}

core::Result<void> verb_map(LofiOp& ctx) {
  if (ctx.op.positionals.size() != 2)
    return core::make_error("map requires PARAMETER and ID", {"map Cutoff cutoff_dial prop:value"});
  auto object = resolve(ctx, ctx.op.positionals[1]);
  if (!object) return object.error();
  if (const AttributeSpec* parameter = maxpat::find_attribute("parameter_longname");
      !maxpat::class_has_attribute((*object)->cls, *parameter))
    return core::make_error((*object)->id + " (" + (*object)->cls +
                            ") cannot be a Live parameter; map one of " +
                            maxpat::owners_text(AttributeOwners::parameters));
  Mapping mapping{ctx.op.positionals[0], (*object)->id, ctx.op.param_or("prop", "value")};
  const Mapping* current = mapping_of(ctx.device.mappings(), mapping.object);
  if (current != nullptr && current->parameter != mapping.parameter)
    return core::make_error(mapping.object + " is already the parameter " +
                                core::quote_token(current->parameter) +
                                " (an object has one parameter name); unmap it first",
                            {"unmap " + core::quote_token(current->parameter)});
  const auto previous = ctx.device.mappings().find(mapping.parameter);
  const bool replaced = previous != ctx.device.mappings().end();
  // The object the parameter leaves, and what it had.
  const std::string former =
      replaced && previous->second.object != mapping.object ? previous->second.object : "";
  const auto former_had =
      former.empty() ? std::map<std::string, std::string>{} : saved_now(ctx, former);
  if (!former.empty()) stop_being_parameter(ctx, previous->second);
  const auto before = saved_now(ctx, mapping.object);
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
  std::string text = "map " + mapping.parameter + " -> " + mapping.object + "." + mapping.property;
  if (auto set = attribute_changes(before, saved_now(ctx, mapping.object)); !set.empty())
    text += "; " + mapping.object + ": " + set;
  if (!former.empty()) {
    text += "; " + former + " is no longer " + core::quote_token(mapping.parameter);
    if (auto lost = attribute_changes(former_had, saved_now(ctx, former)); !lost.empty())
      text += ": " + lost;
  }
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
  const Mapping mapping = ctx.device.mappings().at(ctx.op.positionals[0]);
  const auto before = saved_now(ctx, mapping.object);
  // Before the mapping goes, so that Max's unmap, which restores the object's earlier name,
  // comes last.
  stop_being_parameter(ctx, mapping);
  ctx.edit.erase_mapping(mapping.parameter);
  std::string text = "map " + mapping.parameter;
  if (auto lost = attribute_changes(before, saved_now(ctx, mapping.object)); !lost.empty())
    text += "; " + mapping.object + ": " + lost;
  ctx.lines.push_back(core::deleted(text));
  return {};
}

}  // namespace fcp::lofi

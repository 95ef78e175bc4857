// The lofi verb table: every verb once, with its positionals, keys, help, examples and handler;
// and the words agents use for them.
#include <algorithm>
#include <iterator>

#include "core/resolve.hpp"
#include "domains/lofi/lofi_verbs.hpp"
#include "domains/lofi/maxpat/attributes.hpp"

namespace fcp::lofi {
namespace {

using core::integer_key;
using core::key;
using core::KeySpec;
using core::VerbSpec;

// The key words agents use, and what they mean. Checked in order: a verb's own key first
// (copy's as:), then the Max attribute it means.
constexpr std::pair<std::string_view, std::string_view> kKeySynonyms[] = {
    {"position", "at:{}"},
    {"pos", "at:{}"},
    {"outlet", "out:{}"},
    {"inlet", "in:{}"},
    {"name", "as:{}"},
    {"new", "as:{}"},
    {"times", "count:{}"},
    {"offset", "by:{}"},
    {"file", "path:{}"},
    {"script", "path:{}"},
    {"property", "prop:{}"},
    {"attr", "prop:{}"},
    {"arguments", "args:{}"},
    {"argument", "args:{}"},
    {"name", "parameter_longname:{}"},
    {"longname", "parameter_longname:{}"},
    {"label", "parameter_longname:{}"},
    {"shortname", "parameter_shortname:{}"},
    {"min", "parameter_mmin:{}"},
    {"max", "parameter_mmax:{}"},
    {"minimum", "parameter_mmin:{}"},
    {"maximum", "parameter_mmax:{}"},
    {"range", "parameter_mmin:{1} parameter_mmax:{2}"},
    {"initial", "parameter_initial:{}"},
    {"default", "parameter_initial:{}"},
    {"unit", "parameter_unitstyle:{}"},
    {"units", "parameter_unitstyle:{}"},
    {"colour", "bgcolor:{}"},
    {"background", "bgcolor:{}"},
    {"bg", "bgcolor:{}"},
    {"font", "fontname:{}"},
    {"font-size", "fontsize:{}"},
    {"device_width", "devicewidth:{}"},
    {"presentation_mode", "openinpresentation:{}"},
    {"unitstyle", "parameter_unitstyle:{}"},
    {"exponent", "parameter_exponent:{}"},
    {"type", "parameter_type:{}"},
};

bool is_key_synonym(std::string_view word) {
  return std::any_of(std::begin(kKeySynonyms), std::end(kKeySynonyms),
                     [&](const auto& synonym) { return synonym.first == core::to_lower(word); });
}

// A misspelt attribute (bgcolour, parameter_unitstlye): close to a name of the table and no
// word that a key synonym reads. The handler refuses it naming the object's close attributes
// and offering the closest; anything else is left to the engine's "has no key" error.
bool near_an_attribute(std::string_view name) {
  if (is_key_synonym(name)) return false;
  const std::string lowered = core::to_lower(name);
  const std::size_t allowed = lowered.size() >= 10 ? 3 : 2;
  return std::any_of(maxpat::box_attributes().begin(), maxpat::box_attributes().end(),
                     [&](std::string_view attribute) {
                       return core::edit_distance(lowered, attribute) <= allowed;
                     });
}

// modify and ui set the attributes Max boxes and Live parameters have (the table of
// maxpat/attributes.cpp; the handlers check each against the object's class), and modify the
// device's settings.
core::OpenKeys max_attributes() {
  return {
      "any Max box or Live parameter attribute (bgcolor, presentation_rect, "
      "parameter_longname, parameter_mmin, …)",
      [](std::string_view name) {
        return maxpat::is_box_attribute(name) || near_an_attribute(name);
      },
      maxpat::box_attributes()};
}

// A class the object table lacks but is close to one it has is refused as a typo, unless the
// op says it is an abstraction or external.
KeySpec external_key() {
  return core::bool_key("external",
                        "the class is an abstraction or external the object table lacks "
                        "(its ports are not checked)");
}

void add_object_verbs(core::VerbTable<LofiOp>& verbs) {
  verbs.add(VerbSpec{"add", "CLASS ID", "objects",
                     "an object → /lofi/create (ports from the Max object table; a typo of a "
                     "class is refused with the class meant)"}
                .with(key("at", "X,Y").places("the next free spot"))
                .with(key("args", "\"…\"",
                          "arguments; a message, comment, live.comment or textedit: its text"))
                .with(key("size", "WxH"))
                .with(external_key())
                .example("add cycle~ lfo at:200,40 args:0.5")
                .example("add message on args:\"active 1\""),
            verb_add);
  verbs.add(
      VerbSpec{"remove", "ID…|@SELECTOR", "objects", "objects with their wires → /lofi/remove"}
          .deletes()
          .example("remove @unwired"),
      verb_remove);
  verbs.add(VerbSpec{"move", "ID…|@SELECTOR", "objects",
                     "an object's patching_rect → /lofi/move; a UI layer's presentation_rect "
                     "(its patching_rect stays) → /lofi/set"}
                .with(key("to", "X,Y"))
                .with(key("by", "DX,DY"))
                .example("move osc1 to:100,40"),
            verb_move);
  verbs.add(VerbSpec{"modify", "ID…|@SELECTOR|device", "objects",
                     "attributes with Max's names, checked against the class → /lofi/set; "
                     "`modify device openinpresentation:1 devicewidth:600` → /lofi/device"}
                .through_keys()
                .with(key("args", "\"…\""))
                .with(key("class", "CLS",
                          "another class (the signal version: / → /~); wires, attributes and "
                          "its Live parameter must still fit"))
                .with(external_key())
                .accepting(max_attributes())
                .example("modify cutoff parameter_longname:Cutoff parameter_mmax:100")
                .example("modify cutoff parameter_longname:\"Filter Cutoff\"")
                .example("modify vol class:+~")
                .example("modify cutoff parameter_mmin:0.05 parameter_mmax:4 "
                         "parameter_unitstyle:hertz parameter_initial:0.5")
                .example("modify device openinpresentation:1 devicewidth:600"),
            verb_modify);
  verbs.add(VerbSpec{"copy", "ID", "objects", "duplicate an object"}
                .with(key("as", "NEW").require())
                .with(key("by", "DX,DY"))
                .example("copy osc1 as:osc2 by:0,60"),
            verb_copy);
  verbs.add(VerbSpec{"repeat", "ID", "objects", "numbered copies (a row of 8 dials)"}
                .with(integer_key("count").between(1, 256).require())
                .with(key("by", "DX,DY"))
                .example("repeat cutoff count:3 by:50,0"),
            verb_repeat);
}

void add_wire_verbs(core::VerbTable<LofiOp>& verbs) {
  verbs.add(VerbSpec{"wire", "SRC -> DST [-> DST…]", "wires",
                     "patch cords → /lofi/wire, checked as Max checks them: the ports exist "
                     "(an opened box has the counts its file gives), a signal goes only into "
                     "an inlet that takes signals (cycle~ → / is refused: /~), a tapin~ only "
                     "into a tapout~; a wire that exists already is left as it is (? exists "
                     "already: a retried call is safe)"}
                .with(integer_key("out", "N", "outlet, from 0").between(0, 255))
                .with(integer_key("in", "N", "inlet, from 0").between(0, 255))
                .arrows()
                .example("wire vol -> out")
                .example("wire osc1 -> vol in:1"),
            verb_wire);
  verbs.add(VerbSpec{"unwire", "SRC -> DST", "wires", "→ /lofi/unwire"}
                .with(integer_key("out").between(0, 255))
                .with(integer_key("in").between(0, 255))
                .arrows()
                .deletes()
                .example("unwire osc1 -> vol"),
            verb_unwire);
}

void add_device_verbs(core::VerbTable<LofiOp>& verbs) {
  verbs.add(VerbSpec{"ui", "NAME CLASS", "ui",
                     "a UI layer in presentation: at: and size: are its presentation_rect (a new "
                     "layer's patching_rect is the same; patching_rect:\"X Y W H\" sets it apart); "
                     "all ui ops of a call go as ONE z-sorted /lofi/ui (00_bg first, no prefix = "
                     "50); NAME first, then CLASS (add is the other way round); a "
                     "parameter_longname makes it a Live parameter, mapped as map does"}
                .with(key("at", "X,Y", "presentation_rect x,y").require())
                .with(key("size", "WxH", "presentation_rect width x height").require())
                .with(key("args", "\"…\""))
                .with(external_key())
                .accepting(max_attributes())
                .example("ui 30_rate live.dial at:20,20 size:44x48 parameter_longname:Rate"),
            verb_ui);
  verbs.add(
      VerbSpec{"inject", "ID", "code", "load a script into a js/v8 object (absolute path sent)"}
          .with(key("path", "FILE.js").require())
          .example("inject brain path:lfo.js"),
      verb_inject);
  verbs.add(VerbSpec{"map", "PARAMETER ID", "parameters",
                     "a Live parameter (Live API mapping) → /lofi/map; saved as the object's "
                     "parameter_longname (and parameter_shortname, parameter_enable:1), which "
                     "the reply lists"}
                .with(key("prop", "NAME").by_default("value"))
                .example("map Cutoff cutoff"),
            verb_map);
  verbs.add(VerbSpec{"unmap", "PARAMETER", "parameters",
                     "→ /lofi/unmap; the object loses the parameter's names"}
                .deletes(),
            verb_unmap);
  verbs.add(VerbSpec{"resize", "", "device",
                     "devicewidth W (the width Live gives the device) and the patcher window "
                     "(rect) WxH → /lofi/device"}
                .with(key("to", "WxH").require())
                .example("resize to:600x170"),
            verb_resize);
}

void add_synonyms(core::VerbRegistry& verbs) {
  for (const auto& [word, verb] : std::initializer_list<std::pair<const char*, const char*>>{
           {"connect", "wire"},  {"rewire", "wire"},    {"link", "wire"},
           {"patch", "wire"},    {"cord", "wire"},      {"disconnect", "unwire"},
           {"unlink", "unwire"}, {"unpatch", "unwire"}, {"delete", "remove"},
           {"del", "remove"},    {"rm", "remove"},      {"erase", "remove"},
           {"create", "add"},    {"new", "add"},        {"insert", "add"},
           {"object", "add"},    {"set", "modify"},     {"update", "modify"},
           {"edit", "modify"},   {"attr", "modify"},    {"duplicate", "copy"},
           {"clone", "copy"},    {"place", "move"},     {"position", "move"},
           {"widget", "ui"},     {"script", "inject"},  {"load", "inject"},
           {"bind", "map"},      {"assign", "map"},     {"unbind", "unmap"},
           {"size", "resize"}}) {
    verbs.add_verb_synonym(word, verb);
  }
  for (const auto& [word, replacement] : kKeySynonyms) {
    verbs.add_key_synonym(std::string(word), std::string(replacement));
  }
}

core::VerbTable<LofiOp> make_table() {
  core::VerbTable<LofiOp> verbs;
  add_object_verbs(verbs);
  add_wire_verbs(verbs);
  add_device_verbs(verbs);
  add_synonyms(verbs);
  return verbs;
}

}  // namespace

const core::VerbTable<LofiOp>& lofi_verb_table() {
  static const core::VerbTable<LofiOp> table = make_table();
  return table;
}

}  // namespace fcp::lofi

// New boxes, lines and patchers shaped like the ones Max saves; the ports a box should have.
#include <algorithm>
#include <boost/json/value.hpp>
#include <cmath>

#include "domains/lofi/maxpat/patcher.hpp"
#include "domains/lofi/maxpat/text_width.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

// Roughly the width Max gives a box for `text` in its default font (Arial 12).
double text_width(std::string_view text, double minimum) {
  return std::max(minimum, std::round(6.0 * static_cast<double>(text.size()) + 10.0));
}

json::array rect(double x, double y, double width, double height) {
  return json::array{x, y, width, height};
}

json::array types(const std::vector<std::string>& outlettype) {
  json::array out;
  for (const std::string& type : outlettype)
    out.emplace_back(type);
  return out;
}

bool takes_text(std::string_view cls) {
  return cls == "message" || cls == "comment" || cls == "live.comment" || cls == "textedit";
}

// Ports of a subpatcher: its inlet/outlet boxes, or for gen code the highest "in N"/"out N".
std::optional<Ports> subpatcher_ports(std::string_view cls, const json::object& patcher) {
  const json::value* boxes = patcher.if_contains("boxes");
  if (boxes == nullptr || !boxes->is_array()) return std::nullopt;
  const bool gen = cls == "gen~" || cls == "gen" || cls == "jit.gen" || cls == "jit.pix";
  Ports ports{0, 0, {}};
  for (const json::value& element : boxes->get_array()) {
    if (!element.is_object()) continue;
    const json::value* inner = element.get_object().if_contains("box");
    if (inner == nullptr || !inner->is_object()) continue;
    const Box box{inner->get_object()};
    if (!gen) {
      ports.inlets += box.maxclass() == "inlet" ? 1 : 0;
      ports.outlets += box.maxclass() == "outlet" ? 1 : 0;
      continue;
    }
    const std::string name = box.class_name();
    if (name != "in" && name != "out") continue;
    const std::vector<std::string> atoms = split_atoms(box.args());
    const int n = atoms.empty() ? 1 : std::clamp(std::atoi(atoms.front().c_str()), 1, 4096);
    int& count = name == "in" ? ports.inlets : ports.outlets;
    count = std::max(count, n);
  }
  ports.outlettype.assign(static_cast<std::size_t>(ports.outlets), cls == "gen~" ? "signal" : "");
  return ports;
}

}  // namespace

// NOLINTNEXTLINE(performance-unnecessary-value-param): the signature the lofi domain codes against
Box make_box(std::string id, std::string_view cls, std::string_view args, double x, double y,
             std::optional<std::array<double, 4>> presentation_rect) {
  const ObjectInfo* info = find_object(cls);
  const bool ui = info != nullptr && info->ui;
  const Ports ports = ports_for(cls, ui ? std::string_view() : args);
  std::string text;
  if (!ui) {
    text = std::string(cls);
    if (!args.empty()) text += " " + std::string(args);
  } else if (takes_text(cls)) {
    text = std::string(args);
  }
  double width = ui ? info->width : text_width(text, 32.0);
  const double height = info != nullptr ? info->height : 22.0;
  if (ui && takes_text(cls) && !text.empty())
    width = text_width(text, cls == "message" ? 29.5 : 40);
  // A comment as wide as its text on one line (Max wraps a longer one inside its box).
  if (ui && (cls == "comment" || cls == "live.comment") && !text.empty())
    width = std::max<double>(
        40, comment_width(text, cls == "live.comment" ? kLiveCommentFontsize : kCommentFontsize));

  Box box;
  json::object& j = box.json;
  j.emplace("id", id);
  j.emplace("maxclass", ui ? std::string(cls) : std::string("newobj"));
  j.emplace("numinlets", ports.inlets);
  j.emplace("numoutlets", ports.outlets);
  if (ports.outlets > 0) j.emplace("outlettype", types(ports.outlettype));
  const int parameter_enable = info != nullptr ? info->parameter_enable : -1;
  if (parameter_enable >= 0) j.emplace("parameter_enable", parameter_enable);
  if (!ui && (cls == "p" || cls == "patcher"))
    j.emplace("patcher", patcher_to_json(make_patcher(640, 480)));
  j.emplace("patching_rect", rect(x, y, width, height));
  if (presentation_rect) {
    const auto& r = *presentation_rect;
    j.emplace("presentation", 1);
    j.emplace("presentation_rect", rect(r[0], r[1], r[2], r[3]));
  }
  if (!ui || takes_text(cls)) j.emplace("text", std::move(text));
  if (parameter_enable == 1) j.emplace("varname", id);
  return box;
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): the signature the lofi domain codes against
Line make_line(std::string source, int outlet, std::string destination, int inlet) {
  Line line;
  line.json.emplace("destination", json::array{json::value(destination), inlet});
  line.json.emplace("source", json::array{json::value(source), outlet});
  return line;
}

Patcher make_patcher(double width, double height) {
  Patcher patcher;
  json::object& j = patcher.json;
  j.emplace("fileversion", 1);
  j.emplace(
      "appversion",
      json::object{
          {"major", 8}, {"minor", 5}, {"revision", 5}, {"architecture", "x64"}, {"modernui", 1}});
  j.emplace("classnamespace", "box");
  j.emplace("rect", rect(100.0, 100.0, width, height));
  j.emplace("bglocked", 0);
  j.emplace("openinpresentation", 0);
  j.emplace("default_fontsize", 12.0);
  j.emplace("default_fontface", 0);
  j.emplace("default_fontname", "Arial");
  j.emplace("gridonopen", 1);
  j.emplace("gridsize", json::array{15.0, 15.0});
  j.emplace("gridsnaponopen", 1);
  j.emplace("objectsnaponopen", 1);
  j.emplace("statusbarvisible", 2);
  j.emplace("toolbarvisible", 1);
  for (const char* key : {"lefttoolbarpinned", "toptoolbarpinned", "righttoolbarpinned",
                          "bottomtoolbarpinned", "toolbars_unpinned_last_save", "tallnewobj"})
    j.emplace(key, 0);
  j.emplace("boxanimatetime", 200);
  j.emplace("enablehscroll", 1);
  j.emplace("enablevscroll", 1);
  j.emplace("devicewidth", 0.0);
  for (const char* key : {"description", "digest", "tags", "style", "subpatcher_template"})
    j.emplace(key, "");
  j.emplace("assistshowspatchername", 0);
  patcher.boxes_key_index = j.size();
  patcher.lines_key_index = j.size() + 1;
  j.emplace("dependency_cache", json::array());
  j.emplace("autosave", 0);
  return patcher;
}

std::optional<Ports> expected_ports(const Box& box) {
  const std::string cls = box.class_name();
  const ObjectInfo* info = find_object(cls);
  if (info == nullptr) return std::nullopt;
  if (info->rule != PortRule::contents) return ports_for(cls, info->ui ? "" : box.args());
  const json::object* patcher = box.subpatcher();
  if (patcher == nullptr) return std::nullopt;
  return subpatcher_ports(cls, *patcher);
}

}  // namespace fcp::lofi::maxpat

#include "domains/lofi/maxpat/patcher.hpp"

#include <algorithm>
#include <boost/json/value.hpp>
#include <charconv>
#include <limits>
#include <unordered_set>
#include <utility>

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;
using core::make_error;

std::string string_at(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr || !value->is_string()) return {};
  return std::string(value->get_string());
}

int int_at(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value == nullptr) return -1;
  if (value->is_int64() && value->get_int64() >= 0 &&
      value->get_int64() <= std::numeric_limits<int>::max())
    return static_cast<int>(value->get_int64());
  if (value->is_uint64() && value->get_uint64() <= std::numeric_limits<int>::max())
    return static_cast<int>(value->get_uint64());
  return -1;
}

// ["obj-3", 1] of a patch line end, or nullptr when it is not of that shape.
const json::array* line_end(const json::object& line, std::string_view key) {
  const json::value* value = line.if_contains(key);
  if (value == nullptr || !value->is_array()) return nullptr;
  const json::array& end = value->get_array();
  if (end.size() < 2 || !end[0].is_string()) return nullptr;
  const bool index_ok = (end[1].is_int64() && end[1].get_int64() >= 0 &&
                         end[1].get_int64() <= std::numeric_limits<int>::max()) ||
                        (end[1].is_uint64() && end[1].get_uint64() <= 0x7FFFFFFF);
  return index_ok ? &end : nullptr;
}

int end_index(const json::object& line, std::string_view key) {
  const json::array* end = line_end(line, key);
  if (end == nullptr) return -1;
  return static_cast<int>((*end)[1].to_number<std::int64_t>());
}

std::string end_id(const json::object& line, std::string_view key) {
  const json::array* end = line_end(line, key);
  return end == nullptr ? std::string() : std::string((*end)[0].get_string());
}

// The inner object of a {"box": {…}} / {"patchline": {…}} element, or nullptr.
json::object* inner(json::value& element, std::string_view key) {
  if (!element.is_object()) return nullptr;
  json::value* value = element.get_object().if_contains(key);
  return value != nullptr && value->is_object() ? &value->get_object() : nullptr;
}

core::Result<std::vector<Box>> read_boxes(json::value& value) {
  if (!value.is_array()) return make_error("the patcher's \"boxes\" is not an array");
  std::vector<Box> boxes;
  boxes.reserve(value.get_array().size());
  std::unordered_set<std::string> ids;
  std::size_t number = 0;
  for (json::value& element : value.get_array()) {
    ++number;
    json::object* box = inner(element, "box");
    const std::string where = "box " + std::to_string(number) + " of the patcher";
    if (box == nullptr) return make_error(where + " is not of the form {\"box\": {…}}");
    const json::value* id = box->if_contains("id");
    if (id == nullptr || !id->is_string() || id->get_string().empty())
      return make_error(where + " has no \"id\" string");
    const json::value* maxclass = box->if_contains("maxclass");
    if (maxclass == nullptr || !maxclass->is_string())
      return make_error(where + " (" + std::string(id->get_string()) + ") has no \"maxclass\"");
    if (!ids.emplace(id->get_string()).second)
      return make_error("two boxes of the patcher have the id \"" + std::string(id->get_string()) +
                        "\"");
    boxes.push_back(Box{std::move(*box)});
  }
  return boxes;
}

core::Result<std::vector<Line>> read_lines(json::value& value) {
  if (!value.is_array()) return make_error("the patcher's \"lines\" is not an array");
  std::vector<Line> lines;
  lines.reserve(value.get_array().size());
  std::size_t number = 0;
  for (json::value& element : value.get_array()) {
    ++number;
    json::object* line = inner(element, "patchline");
    const std::string where = "line " + std::to_string(number) + " of the patcher";
    if (line == nullptr) return make_error(where + " is not of the form {\"patchline\": {…}}");
    for (const char* key : {"source", "destination"}) {
      if (line_end(*line, key) == nullptr)
        return make_error(where + " has no \"" + key + "\": [\"obj-N\", number]");
    }
    lines.push_back(Line{std::move(*line)});
  }
  return lines;
}

// Where Max puts "boxes" in a patcher that never had them: after "assistshowspatchername".
std::size_t default_boxes_index(const json::object& object) {
  std::size_t index = 0;
  for (const auto& member : object) {
    ++index;
    if (member.key() == "assistshowspatchername") return index;
  }
  return object.size();
}

}  // namespace

std::string Box::id() const {
  return string_at(json, "id");
}
std::string Box::maxclass() const {
  return string_at(json, "maxclass");
}
std::string Box::text() const {
  return string_at(json, "text");
}

std::string Box::class_name() const {
  std::string cls = maxclass();
  if (cls != "newobj") return cls;
  const std::vector<std::string> atoms = split_atoms(text());
  return atoms.empty() ? std::string() : atoms.front();
}

std::string Box::args() const {
  if (maxclass() != "newobj") return {};
  const std::string all = text();
  std::size_t start = all.find_first_not_of(" \t\n");
  if (start == std::string::npos) return {};
  const std::size_t space = all.find_first_of(" \t\n", start);
  if (space == std::string::npos) return {};
  start = all.find_first_not_of(" \t\n", space);
  return start == std::string::npos ? std::string() : all.substr(start);
}

int Box::numinlets() const {
  return int_at(json, "numinlets");
}
int Box::numoutlets() const {
  return int_at(json, "numoutlets");
}

std::optional<std::array<double, 4>> Box::patching_rect() const {
  const json::value* value = json.if_contains("patching_rect");
  if (value == nullptr || !value->is_array() || value->get_array().size() != 4) return std::nullopt;
  std::array<double, 4> rect{};
  for (std::size_t i = 0; i < 4; ++i) {
    const json::value& v = value->get_array()[i];
    if (!v.is_number()) return std::nullopt;
    rect[i] = v.to_number<double>();
  }
  return rect;
}

const json::object* Box::subpatcher() const {
  const json::value* value = json.if_contains("patcher");
  return value != nullptr && value->is_object() ? &value->get_object() : nullptr;
}

std::string Line::source_id() const {
  return end_id(json, "source");
}
int Line::source_outlet() const {
  return end_index(json, "source");
}
std::string Line::destination_id() const {
  return end_id(json, "destination");
}
int Line::destination_inlet() const {
  return end_index(json, "destination");
}

const Box* Patcher::find_box(std::string_view id) const {
  for (const Box& box : boxes) {
    const json::value* value = box.json.if_contains("id");
    if (value != nullptr && value->is_string() && value->get_string() == id) return &box;
  }
  return nullptr;
}

Box* Patcher::find_box(std::string_view id) {
  return const_cast<Box*>(std::as_const(*this).find_box(id));
}

std::string Patcher::next_box_id() const {
  long long highest = 0;
  for (const Box& box : boxes) {
    const std::string id = box.id();
    if (!id.starts_with("obj-")) continue;
    long long n = 0;
    const auto [end, errc] = std::from_chars(id.data() + 4, id.data() + id.size(), n);
    if (errc == std::errc{} && end == id.data() + id.size()) highest = std::max(highest, n);
  }
  return "obj-" + std::to_string(highest + 1);
}

core::Result<Patcher> patcher_from_json(json::object object) {
  Patcher patcher;
  patcher.json.reserve(object.size());
  std::size_t index = 0;
  for (auto& member : object) {
    if (member.key() == "boxes") {
      auto boxes = read_boxes(member.value());
      if (!boxes) return boxes.error();
      patcher.boxes = std::move(*boxes);
      patcher.boxes_key_index = index;
    } else if (member.key() == "lines") {
      auto lines = read_lines(member.value());
      if (!lines) return lines.error();
      patcher.lines = std::move(*lines);
      patcher.lines_key_index = index;
    } else {
      patcher.json.emplace(member.key(), std::move(member.value()));
    }
    ++index;
  }
  return patcher;
}

std::size_t Patcher::after_lines_index() {
  if (boxes_key_index == npos) boxes_key_index = default_boxes_index(json);
  if (lines_key_index == npos) lines_key_index = boxes_key_index + 1;
  // Output positions count the other slot when it comes first.
  return lines_key_index - (boxes_key_index < lines_key_index ? 1 : 0);
}

json::object patcher_to_json(const Patcher& patcher) {
  json::array boxes;
  boxes.reserve(patcher.boxes.size());
  for (const Box& box : patcher.boxes)
    boxes.push_back(json::object{{"box", box.json}});
  json::array lines;
  lines.reserve(patcher.lines.size());
  for (const Line& line : patcher.lines)
    lines.push_back(json::object{{"patchline", line.json}});

  std::size_t boxes_at = patcher.boxes_key_index;
  std::size_t lines_at = patcher.lines_key_index;
  if (boxes_at == Patcher::npos) boxes_at = default_boxes_index(patcher.json);
  if (lines_at == Patcher::npos) lines_at = boxes_at + 1;

  struct Slot {
    std::size_t at;  // position among the output's keys
    const char* key;
    json::array* items;
  };
  std::array<Slot, 2> slots{{{boxes_at, "boxes", &boxes}, {lines_at, "lines", &lines}}};
  if (slots[1].at < slots[0].at) std::swap(slots[0], slots[1]);
  json::object out;
  out.reserve(patcher.json.size() + 2);
  std::size_t next = 0;
  auto place_due = [&](bool all) {
    while (next < slots.size() && (all || slots[next].at <= out.size())) {
      out.emplace(slots[next].key, std::move(*slots[next].items));
      ++next;
    }
  };
  for (const auto& member : patcher.json) {
    place_due(false);
    if (member.key() == "boxes" || member.key() == "lines") continue;  // the model's win
    out.emplace(member.key(), member.value());
  }
  place_due(true);
  return out;
}

core::Result<Patcher> read_maxpat(std::string_view bytes) {
  auto document = parse_json(bytes);
  if (!document) return document.error();
  if (!document->is_object())
    return make_error("a Max patcher is a JSON object holding a \"patcher\" object");
  json::value* patcher = document->get_object().if_contains("patcher");
  if (patcher == nullptr || !patcher->is_object())
    return make_error("no \"patcher\" object at the top level: not a Max patcher (.maxpat)");
  auto model = patcher_from_json(std::move(patcher->get_object()));
  if (!model) return model.error();
  model->style = detect_style(bytes);
  return model;
}

std::string write_maxpat(const Patcher& patcher) {
  json::object top;
  top.emplace("patcher", patcher_to_json(patcher));
  return format_json(top, patcher.style, max_decimals(patcher.json));
}

}  // namespace fcp::lofi::maxpat

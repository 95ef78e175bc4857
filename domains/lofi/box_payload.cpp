#include "domains/lofi/box_payload.hpp"

#include <boost/json.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <string_view>

#include "domains/lofi/device_boxes.hpp"
#include "domains/lofi/maxpat/attributes.hpp"

namespace fcp::lofi {
namespace {

namespace json = boost::json;

// What Max's patcher scripting makes of the box itself, or the model sends apart.
bool structural(std::string_view key) {
  for (std::string_view skip :
       {"id", "maxclass", "numinlets", "numoutlets", "outlettype", "text", "patcher", "varname",
        "saved_attribute_attributes", "saved_object_attributes"}) {
    if (key == skip) return true;
  }
  return false;
}

// A number, a symbol or a flat list of them: what a Max attribute message can carry.
bool atoms(const json::value& value) {
  if (value.is_number() || value.is_string()) return true;
  if (!value.is_array()) return false;
  for (const json::value& item : value.get_array()) {
    if (!item.is_number() && !item.is_string()) return false;
  }
  return true;
}

const json::object* valueof(const json::object& box) {
  const auto* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) return nullptr;
  const auto* values = saved->get_object().if_contains("valueof");
  return values != nullptr && values->is_object() ? &values->get_object() : nullptr;
}

json::object contents(const json::object& patcher);

// A size as JSON: whole numbers as integers (17, not 1.7E1).
json::value whole(double value) {
  if (std::abs(value) < 1e15 && std::floor(value) == value)
    return json::value(static_cast<std::int64_t>(value));
  return json::value(value);
}

// One box of a subpatcher: every attribute it saved, its parameters' included.
json::object inner_box(const json::object& box) {
  json::object out;
  if (const auto* maxclass = box.if_contains("maxclass")) out["maxclass"] = *maxclass;
  if (const auto* text = box.if_contains("text"); text && text->is_string()) out["text"] = *text;
  json::object attrs;
  for (const auto& [key, value] : box) {
    if ((!structural(key) || key == "varname") && atoms(value)) attrs[key] = value;
  }
  if (const json::object* parameters = valueof(box)) {
    for (const auto& [key, value] : *parameters) {
      if (atoms(value)) attrs[key] = value;
    }
  }
  out["attrs"] = std::move(attrs);
  if (const auto* patcher = box.if_contains("patcher"); patcher && patcher->is_object())
    out["patcher"] = contents(patcher->get_object());
  return out;
}

json::object contents(const json::object& patcher) {
  json::array boxes;
  std::map<std::string, std::size_t, std::less<>> index;
  if (const auto* list = patcher.if_contains("boxes"); list && list->is_array()) {
    for (const json::value& element : list->get_array()) {
      const auto* box = element.is_object() ? element.get_object().if_contains("box") : nullptr;
      if (box == nullptr || !box->is_object()) continue;
      if (const auto* id = box->get_object().if_contains("id"); id && id->is_string())
        index.emplace(id->get_string(), boxes.size());
      boxes.push_back(inner_box(box->get_object()));
    }
  }
  json::array lines;
  if (const auto* list = patcher.if_contains("lines"); list && list->is_array()) {
    for (const json::value& element : list->get_array()) {
      const auto* line =
          element.is_object() ? element.get_object().if_contains("patchline") : nullptr;
      if (line == nullptr || !line->is_object()) continue;
      const auto* source = line->get_object().if_contains("source");
      const auto* destination = line->get_object().if_contains("destination");
      if (source == nullptr || destination == nullptr || !source->is_array() ||
          !destination->is_array() || source->get_array().size() < 2 ||
          destination->get_array().size() < 2 || !source->get_array()[0].is_string() ||
          !destination->get_array()[0].is_string())
        continue;
      const auto from = index.find(source->get_array()[0].get_string());
      const auto to = index.find(destination->get_array()[0].get_string());
      if (from == index.end() || to == index.end()) continue;
      lines.push_back(json::array{from->second, source->get_array()[1], to->second,
                                  destination->get_array()[1]});
    }
  }
  json::object out{{"boxes", std::move(boxes)}, {"lines", std::move(lines)}};
  // gen code's boxes are operators, not Max classes.
  if (const auto* space = patcher.if_contains("classnamespace"); space && space->is_string())
    out["classnamespace"] = *space;
  return out;
}

}  // namespace

void add_saved_box(const Device& device, const MaxObject& object, json::object& payload) {
  const maxpat::Box* box = kept_box(device, object);
  if (box == nullptr) return;
  const json::object& saved = box->json;
  payload["maxclass"] = box->maxclass();
  if (const auto* text = saved.if_contains("text"); text && text->is_string())
    payload["text"] = *text;
  if (auto rect = box->patching_rect(); rect && !object.ui) {
    payload["width"] = whole((*rect)[2]);
    payload["height"] = whole((*rect)[3]);
  } else if (rect && payload.contains("attrs") && payload["attrs"].is_object()) {
    // A UI layer's patching_rect is its own, not its presentation_rect.
    json::object& attrs = payload["attrs"].get_object();
    if (!attrs.contains("patching_rect"))
      attrs["patching_rect"] =
          json::array{whole((*rect)[0]), whole((*rect)[1]), whole((*rect)[2]), whole((*rect)[3])};
  }
  json::object extra;
  for (const auto& [key, value] : saved) {
    if (structural(key) || !atoms(value)) continue;
    // The table's attributes are the model's, sent by /lofi/set; where a UI layer is, by /lofi/ui.
    const bool place = key == "presentation" || key == "presentation_rect";
    if (maxpat::is_box_attribute(key) && key != "parameter_enable" && !(place && !object.ui))
      continue;
    extra[key] = value;
  }
  if (!extra.empty()) payload["box"] = std::move(extra);
  if (const json::object* patcher = box->subpatcher()) payload["patcher"] = contents(*patcher);
}

}  // namespace fcp::lofi

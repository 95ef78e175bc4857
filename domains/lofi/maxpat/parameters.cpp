#include "domains/lofi/maxpat/parameters.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

constexpr std::size_t kBankSize = 8;

const json::object* valueof(const json::object& box) {
  const json::value* saved = box.if_contains("saved_attribute_attributes");
  if (saved == nullptr || !saved->is_object()) return nullptr;
  const json::value* values = saved->as_object().if_contains("valueof");
  return values != nullptr && values->is_object() ? &values->as_object() : nullptr;
}

std::string text_of(const json::object* object, std::string_view key) {
  if (object == nullptr) return {};
  const json::value* value = object->if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : std::string();
}

// The [longname, shortname] of a box that is a Live parameter; empty longname when it is none.
std::pair<std::string, std::string> parameter_names(const json::object& box) {
  if (const json::value* enable = box.if_contains("parameter_enable");
      enable != nullptr && enable->is_number() && enable->to_number<double>() == 0)
    return {};
  const json::object* values = valueof(box);
  std::string longname = text_of(values, "parameter_longname");
  std::string shortname = text_of(values, "parameter_shortname");
  if (shortname.empty()) shortname = longname;
  return {std::move(longname), std::move(shortname)};
}

bool is_box_entry(std::string_view key) {
  return key.starts_with("obj-");
}

// Inserts `key` before the member at `index` (at the end past the last one).
void insert_at(json::object& object, std::size_t index, std::string_view key, json::value value) {
  json::object rebuilt;
  rebuilt.reserve(object.size() + 1);
  auto entry = object.begin();
  for (std::size_t i = 0; i < index && entry != object.end(); ++i, ++entry)
    rebuilt.emplace(entry->key(), std::move(entry->value()));
  rebuilt.emplace(key, std::move(value));
  for (; entry != object.end(); ++entry)
    rebuilt.emplace(entry->key(), std::move(entry->value()));
  object = std::move(rebuilt);
}

}  // namespace

void insert_after(json::object& object, std::string_view after, std::string_view key,
                  json::value value) {
  if (json::value* existing = object.if_contains(key)) {
    *existing = std::move(value);
    return;
  }
  if (!object.contains(after)) {
    object.emplace(key, std::move(value));
    return;
  }
  std::size_t at = 0;
  for (const auto& entry : object) {
    ++at;
    if (entry.key() == after) break;
  }
  insert_at(object, at, key, std::move(value));
}

void update_parameters(Patcher& patcher, bool create) {
  std::map<std::string, std::pair<std::string, std::string>> wanted;  // sorted like Max's keys
  std::vector<std::string> in_box_order;
  std::set<std::string> boxes;
  for (const auto& box : patcher.boxes) {
    boxes.insert(box.id());
    auto names = parameter_names(box.json);
    if (names.first.empty()) continue;
    in_box_order.push_back(names.first);
    wanted.emplace(box.id(), std::move(names));
  }
  json::value* current = patcher.json.if_contains("parameters");
  if (current == nullptr && !create) return;
  const json::object empty;
  const json::object& old =
      current != nullptr && current->is_object() ? current->as_object() : empty;
  json::object entries;
  for (const auto& [id, names] : wanted) {
    const json::value* kept = old.if_contains(id);
    if (kept != nullptr && kept->is_array() && !kept->as_array().empty() &&
        kept->as_array()[0].is_string() && kept->as_array()[0].as_string() == names.first) {
      entries.emplace(id, *kept);
    } else {
      entries.emplace(id, json::array{json::value(names.first), json::value(names.second), 0});
    }
  }
  bool nested = false;
  for (const auto& entry : old) {
    const std::string_view key = entry.key();
    const auto outer = key.find("::");
    if (!is_box_entry(key) || outer == std::string_view::npos) continue;
    if (!boxes.contains(std::string(key.substr(0, outer)))) continue;
    entries.emplace(key, entry.value());
    nested = true;
  }
  if (entries.empty() && !nested) {
    if (current != nullptr) patcher.json.erase("parameters");
    return;
  }
  // Max writes the entries sorted by key, then the dictionary's other keys.
  std::map<std::string, json::value> sorted;
  for (auto& entry : entries)
    sorted.emplace(std::string(entry.key()), std::move(entry.value()));
  json::object dictionary;
  for (auto& [key, value] : sorted)
    dictionary.emplace(key, std::move(value));
  if (current == nullptr) {
    // The bank lists the parameters as they were made: the boxes are front to back (the newest
    // first), so the backmost, oldest one leads.
    std::reverse(in_box_order.begin(), in_box_order.end());
    json::array bank;
    for (std::size_t i = 0; i < kBankSize; ++i)
      bank.emplace_back(i < in_box_order.size() ? json::value(in_box_order[i]) : json::value("-"));
    dictionary.emplace(
        "parameterbanks",
        json::object{{"0", json::object{{"index", 0}, {"name", ""}, {"parameters", bank}}}});
    dictionary.emplace("inherited_shortname", 1);
  } else {
    for (const auto& entry : old) {
      if (!is_box_entry(entry.key())) dictionary.emplace(entry.key(), entry.value());
    }
  }
  if (current != nullptr) {
    if (current->as_object() != dictionary) *current = std::move(dictionary);
    return;
  }
  // Right after "lines", where Max writes it.
  insert_at(patcher.json, patcher.after_lines_index(), "parameters", std::move(dictionary));
}

}  // namespace fcp::lofi::maxpat

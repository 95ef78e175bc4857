#include "domains/drawio/model/attributes.hpp"

#include <algorithm>

namespace fcp::drawio {

std::optional<std::string_view> Attributes::get(std::string_view name) const {
  const Attribute* found = find(name);
  if (found == nullptr) return std::nullopt;
  return std::string_view(found->value);
}

void Attributes::set(std::string_view name, std::string_view value) {
  if (Attribute* found = find(name)) {
    found->value = value;
    return;
  }
  items_.push_back(Attribute{std::string(name), std::string(value)});
}

bool Attributes::erase(std::string_view name) {
  if (items_.empty()) return false;
  return std::erase_if(items_.edit(), [&](const Attribute& a) { return a.name == name; }) > 0;
}

void Attributes::append(std::string name, std::string value) {
  items_.push_back(Attribute{std::move(name), std::move(value)});
}

const Attribute* Attributes::find(std::string_view name) const {
  auto it = std::find_if(items_.begin(), items_.end(),
                         [&](const Attribute& a) { return a.name == name; });
  return it == items_.end() ? nullptr : &*it;
}

Attribute* Attributes::find(std::string_view name) {
  auto it = std::find_if(items_.begin(), items_.end(),
                         [&](const Attribute& a) { return a.name == name; });
  return it == items_.end() ? nullptr : &*it;
}

}  // namespace fcp::drawio

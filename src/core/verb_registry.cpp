#include "core/verb_registry.hpp"

#include <algorithm>
#include <stdexcept>

namespace fcp::core {

void VerbRegistry::add(VerbSpec spec) {
  if (by_name_.contains(spec.name)) {
    throw std::logic_error("verb registered twice: " + spec.name);
  }
  by_name_.emplace(spec.name, specs_.size());
  specs_.push_back(std::move(spec));
}

const VerbSpec* VerbRegistry::find(std::string_view verb) const {
  auto it = by_name_.find(std::string(verb));
  return it == by_name_.end() ? nullptr : &specs_[it->second];
}

std::vector<std::string> VerbRegistry::names() const {
  std::vector<std::string> out;
  out.reserve(specs_.size());
  for (const auto& spec : specs_)
    out.push_back(spec.name);
  return out;
}

std::vector<std::string> VerbRegistry::categories() const {
  std::vector<std::string> out;
  for (const auto& spec : specs_) {
    if (std::find(out.begin(), out.end(), spec.category) == out.end()) {
      out.push_back(spec.category);
    }
  }
  return out;
}

}  // namespace fcp::core

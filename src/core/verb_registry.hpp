// The verb registry: the single source of truth for verb syntax, from which the reference card
// and unknown-verb suggestions are generated.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fcp::core {

struct VerbSpec {
  std::string name;         // lowercase verb, e.g. "add"
  std::string syntax;       // e.g. "add TYPE LABEL [theme:T] [near:REF dir:DIR]"
  std::string category;     // card section, e.g. "shapes"
  std::string description;  // one short line
};

// Thread: immutable after construction by its domain; safe to share between sessions.
class VerbRegistry {
 public:
  void add(VerbSpec spec);
  const VerbSpec* find(std::string_view verb) const;
  const std::vector<VerbSpec>& all() const { return specs_; }  // registration order
  std::vector<std::string> names() const;
  // Categories in first-registration order.
  std::vector<std::string> categories() const;

 private:
  std::vector<VerbSpec> specs_;
  std::unordered_map<std::string, std::size_t> by_name_;
};

}  // namespace fcp::core

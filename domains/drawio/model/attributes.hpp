// Ordered XML attributes kept verbatim, so a draw.io element can be written back as it was read.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domains/drawio/model/thin_vector.hpp"

namespace fcp::drawio {

struct Attribute {
  std::string name;
  std::string value;
  bool operator==(const Attribute&) const = default;
};

// A small ordered list of name/value pairs. Lookups are linear: elements carry a handful of
// attributes, and keeping document order matters more than asymptotic lookup cost.
class Attributes {
 public:
  Attributes() = default;
  Attributes(std::initializer_list<Attribute> items) : items_(items) {}

  // The value of the first attribute called `name`, or nullopt.
  std::optional<std::string_view> get(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }
  // Replaces the first attribute called `name` in place, or appends it.
  void set(std::string_view name, std::string_view value);
  // Removes every attribute called `name`; returns whether one was there.
  bool erase(std::string_view name);
  // Appends without looking for an existing attribute (verbatim copies of parsed input).
  void append(std::string name, std::string value);

  const Attribute* find(std::string_view name) const;
  Attribute* find(std::string_view name);

  std::size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  const Attribute& operator[](std::size_t i) const { return items_[i]; }
  std::vector<Attribute>::const_iterator begin() const { return items().begin(); }
  std::vector<Attribute>::const_iterator end() const { return items().end(); }
  const std::vector<Attribute>& items() const { return items_.view(); }
  // Moves the attributes out, leaving this empty.
  std::vector<Attribute> take() { return items_.take(); }

  bool operator==(const Attributes&) const = default;

 private:
  // Out of line (8 bytes): most elements have no attribute beyond the typed ones.
  ThinVector<Attribute> items_;
};

}  // namespace fcp::drawio

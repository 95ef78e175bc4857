// A verbatim copy of an XML subtree this program does not interpret, written back unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "domains/drawio/model/attributes.hpp"

namespace fcp::drawio {

// Elements keep their attributes in order; text and CDATA keep their content. Comments and
// processing instructions are not kept (draw.io drops them as well).
struct XmlNode {
  enum class Kind : std::uint8_t { element, text, cdata };

  Kind kind = Kind::element;
  std::string name;  // element name; empty for text and CDATA
  Attributes attributes;
  std::string text;  // content of a text or CDATA node
  std::vector<XmlNode> children;

  bool operator==(const XmlNode&) const = default;
};

}  // namespace fcp::drawio

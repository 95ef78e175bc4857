// The 12 built-in node types (draw.io base style and default size), and type inference from labels.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace fcp::drawio::data {

struct NodeType {
  std::string_view name;        // "svc"
  std::string_view base_style;  // draw.io style, e.g. "rounded=1;whiteSpace=wrap;html=1;"
  double width;                 // default size in px
  double height;
  std::string_view description;  // "Rounded rectangle"
};

// The 12 built-ins in card order: box svc circle decision db api cloud actor doc queue triangle
// process.
std::span<const NodeType> node_types();

// The built-in type with exactly this name (case-sensitive), nullptr if unknown.
const NodeType* find_node_type(std::string_view name);

// A word agents use for a built-in type and the type it means ("database" → "db").
struct NodeTypeSynonym {
  std::string_view word;
  std::string_view type;
};
std::span<const NodeTypeSynonym> node_type_synonyms();

// The type the label suggests (reference §1.2 word lists and order, camelCase/PascalCase/_/-/space
// splitting, "?" suffix → decision), or "svc" when nothing matches.
std::string_view infer_node_type(std::string_view label);

// Number of Unicode code points in UTF-8 text (continuation bytes are not counted).
std::size_t utf8_length(std::string_view text);

// Width grown to fit the label: max(type width, ceil((utf8_length(label)*8+20)/10)*10).
double auto_width(const NodeType& type, std::string_view label);

}  // namespace fcp::drawio::data

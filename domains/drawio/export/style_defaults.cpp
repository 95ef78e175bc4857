// draw.io's built-in stylesheet (default.xml), reduced to the keys the renderer reads.
#include <array>

#include "domains/drawio/export/svg_style.hpp"

namespace fcp::drawio::render::detail {
namespace {

constexpr std::array kNamedStyles = {
    NamedStyleEntry{"text", "fillColor", "none"},
    NamedStyleEntry{"text", "gradientColor", "none"},
    NamedStyleEntry{"text", "strokeColor", "none"},
    NamedStyleEntry{"text", "align", "left"},
    NamedStyleEntry{"text", "verticalAlign", "top"},
    NamedStyleEntry{"edgeLabel", "fillColor", "none"},
    NamedStyleEntry{"edgeLabel", "gradientColor", "none"},
    NamedStyleEntry{"edgeLabel", "strokeColor", "none"},
    NamedStyleEntry{"edgeLabel", "align", "left"},
    NamedStyleEntry{"edgeLabel", "verticalAlign", "top"},
    NamedStyleEntry{"edgeLabel", "labelBackgroundColor", "default"},
    NamedStyleEntry{"edgeLabel", "fontSize", "11"},
    NamedStyleEntry{"label", "fontStyle", "1"},
    NamedStyleEntry{"label", "align", "left"},
    NamedStyleEntry{"label", "verticalAlign", "middle"},
    NamedStyleEntry{"label", "spacing", "2"},
    NamedStyleEntry{"label", "spacingLeft", "52"},
    NamedStyleEntry{"label", "rounded", "1"},
    NamedStyleEntry{"swimlane", "shape", "swimlane"},
    NamedStyleEntry{"swimlane", "fontStyle", "1"},
    NamedStyleEntry{"swimlane", "startSize", "23"},
    NamedStyleEntry{"group", "verticalAlign", "top"},
    NamedStyleEntry{"group", "fillColor", "none"},
    NamedStyleEntry{"group", "strokeColor", "none"},
    NamedStyleEntry{"group", "gradientColor", "none"},
    NamedStyleEntry{"ellipse", "shape", "ellipse"},
    NamedStyleEntry{"ellipse", "perimeter", "ellipsePerimeter"},
    NamedStyleEntry{"rhombus", "shape", "rhombus"},
    NamedStyleEntry{"rhombus", "perimeter", "rhombusPerimeter"},
    NamedStyleEntry{"triangle", "shape", "triangle"},
    NamedStyleEntry{"triangle", "perimeter", "trianglePerimeter"},
    NamedStyleEntry{"line", "shape", "line"},
    NamedStyleEntry{"line", "strokeWidth", "4"},
    NamedStyleEntry{"line", "labelBackgroundColor", "default"},
    NamedStyleEntry{"line", "verticalAlign", "top"},
    NamedStyleEntry{"line", "spacingTop", "8"},
    NamedStyleEntry{"image", "shape", "image"},
    NamedStyleEntry{"image", "labelBackgroundColor", "default"},
    NamedStyleEntry{"image", "verticalAlign", "top"},
    NamedStyleEntry{"image", "verticalLabelPosition", "bottom"},
    NamedStyleEntry{"roundImage", "shape", "image"},
    NamedStyleEntry{"roundImage", "perimeter", "ellipsePerimeter"},
    NamedStyleEntry{"roundImage", "verticalAlign", "top"},
    NamedStyleEntry{"roundImage", "verticalLabelPosition", "bottom"},
    NamedStyleEntry{"rhombusImage", "shape", "image"},
    NamedStyleEntry{"rhombusImage", "perimeter", "rhombusPerimeter"},
    NamedStyleEntry{"rhombusImage", "verticalAlign", "top"},
    NamedStyleEntry{"rhombusImage", "verticalLabelPosition", "bottom"},
    NamedStyleEntry{"arrow", "shape", "arrow"},
    NamedStyleEntry{"arrow", "edgeStyle", "none"},
};

struct DefaultEntry {
  std::string_view key;
  std::string_view value;
};

constexpr std::array kVertexDefaults = {
    DefaultEntry{"shape", "rectangle"},     DefaultEntry{"fillColor", "default"},
    DefaultEntry{"strokeColor", "default"}, DefaultEntry{"fontColor", "default"},
    DefaultEntry{"fontSize", "12"},         DefaultEntry{"fontFamily", "Helvetica"},
    DefaultEntry{"align", "center"},        DefaultEntry{"verticalAlign", "middle"},
};

constexpr std::array kEdgeDefaults = {
    DefaultEntry{"shape", "connector"},
    DefaultEntry{"endArrow", "classic"},
    DefaultEntry{"labelBackgroundColor", "default"},
    DefaultEntry{"strokeColor", "default"},
    DefaultEntry{"fontColor", "default"},
    DefaultEntry{"fontSize", "11"},
    DefaultEntry{"fontFamily", "Helvetica"},
    DefaultEntry{"align", "center"},
    DefaultEntry{"verticalAlign", "middle"},
};

}  // namespace

std::span<const NamedStyleEntry> named_styles() {
  return kNamedStyles;
}

std::optional<std::string_view> base_default(bool edge, std::string_view key) {
  const std::span<const DefaultEntry> table = edge ? std::span<const DefaultEntry>(kEdgeDefaults)
                                                   : std::span<const DefaultEntry>(kVertexDefaults);
  for (const DefaultEntry& entry : table) {
    if (entry.key == key) return entry.value;
  }
  return std::nullopt;
}

}  // namespace fcp::drawio::render::detail

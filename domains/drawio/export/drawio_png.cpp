#include "domains/drawio/export/drawio_png.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "domains/drawio/export/raster.hpp"
#include "domains/drawio/export/svg_document.hpp"
#include "domains/drawio/io/png_text.hpp"
#include "domains/drawio/io/writer.hpp"

namespace fcp::drawio::render {
namespace {

// A number draw.io's export wrote on <mxfile> (scale="2", border="10"), within [low, high].
double export_setting(const Diagram& diagram, std::string_view name, double fallback, double low,
                      double high) {
  const auto text = diagram.file_attributes().get(name);
  if (!text) return fallback;
  char* end = nullptr;
  const std::string copy(*text);
  const double value = std::strtod(copy.c_str(), &end);
  if (end == copy.c_str() || *end != '\0' || !std::isfinite(value)) return fallback;
  return std::clamp(value, low, high);
}

}  // namespace

std::string drawio_png_text(const Diagram& diagram) {
  WriteOptions options;
  options.indent = false;
  std::string text = write_drawio(diagram, options);
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return text;
}

core::Result<std::string> write_drawio_png(const Diagram& diagram) {
  if (diagram.pages().empty()) {
    return core::make_error("the diagram has no pages", {"page add"});
  }
  std::string text = drawio_png_text(diagram);
  SvgOptions options;
  options.border = export_setting(diagram, "border", options.border, 0, 1000);
  auto svg = detail::render_svg_document(diagram.pages().front(), options, {}, true);
  if (!svg) return core::make_error("cannot draw the picture: " + svg.error().message);
  auto picture = svg_to_png_within(*svg, export_setting(diagram, "scale", 1, 0.1, 10));
  if (!picture) return core::make_error("cannot draw the picture: " + picture.error().message);
  return embed_png_diagram_text(*picture, text);
}

}  // namespace fcp::drawio::render

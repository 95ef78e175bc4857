// Stencils and images: drawn from data: URIs when possible, else as a labelled fallback box.
#include <algorithm>
#include <cctype>

#include "domains/drawio/export/label_text.hpp"
#include "domains/drawio/export/svg_shape_parts.hpp"
#include "domains/drawio/export/svg_shapes.hpp"

namespace fcp::drawio::render::detail {
namespace {

constexpr std::size_t kMaxImageBytes = 4 << 20;
constexpr double kTint = 0.25;  // fill opacity of a stencil fallback box

std::string readable_name(std::string_view name) {
  name = name.substr(0, 60);
  std::string out;
  for (char c : name)
    out += c == '_' ? ' ' : c;
  return out;
}

// Whether the cell's own label sits inside the box (then the fallback shows no name).
bool label_inside(const ShapeContext& s) {
  if (!s.cell.value || s.cell.value->empty() || s.style.flag("noLabel", false)) return false;
  return s.style.text("labelPosition", "center") == "center" &&
         s.style.text("verticalLabelPosition", "middle") == "middle";
}

// A small two-part glyph in the top-left corner: "a shape belongs here".
void write_marker(ShapeContext& s, const std::string& color) {
  const double size = std::min({10.0, s.b.w / 5, s.b.h / 5});
  const double x = s.b.x + 4, y = s.b.y + 4;
  s.svg.start("circle")
      .attr("cx", x + size * 0.4)
      .attr("cy", y + size * 0.4)
      .attr("r", size * 0.4)
      .attr("fill", "none")
      .attr("stroke", color)
      .end();
  s.svg.start("rect")
      .attr("x", x + size * 0.4)
      .attr("y", y + size * 0.4)
      .attr("width", size * 0.6)
      .attr("height", size * 0.6)
      .attr("fill", "none")
      .attr("stroke", color)
      .end();
}

void write_name(ShapeContext& s, std::string name, const std::string& color) {
  const double font_size = std::clamp(std::min(11.0, s.b.h / 3), 6.0, 11.0);
  const double room = s.b.w - 6;
  if (text_width(name, font_size, false) > room) {
    while (!name.empty() && text_width(name + "\u2026", font_size, false) > room) {
      name.pop_back();
      while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) {
        name.pop_back();
      }
      if (!name.empty() && static_cast<unsigned char>(name.back()) >= 0xC0) name.pop_back();
    }
    if (name.empty()) return;
    name += "\u2026";
  }
  const Vec c = s.b.center();
  s.svg.start("text")
      .attr("x", c.x)
      .attr("y", c.y + font_size * 0.35)
      .attr("font-family", "Helvetica, Arial, sans-serif")
      .attr("font-size", font_size)
      .attr("fill", color)
      .attr("text-anchor", "middle")
      .open(false);
  s.svg.text(name);
  s.svg.close("text");
}

// "data:image/png,AAAA" (draw.io leaves out ";base64" because ';' separates style tokens) →
// "data:image/png;base64,AAAA"; nullopt when not an embeddable raster or SVG image.
std::optional<std::string> embeddable_image(std::string_view uri) {
  if (uri.size() > kMaxImageBytes || !uri.starts_with("data:image/")) return std::nullopt;
  const std::size_t comma = uri.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  std::string_view mime = uri.substr(5, comma - 5);
  if (mime.ends_with(";base64")) mime.remove_suffix(7);
  const bool known = mime == "image/png" || mime == "image/jpeg" || mime == "image/jpg" ||
                     mime == "image/gif" || mime == "image/svg+xml";
  const std::string_view payload = uri.substr(comma + 1);
  const bool base64 = !payload.empty() && std::all_of(payload.begin(), payload.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '+' || c == '/' || c == '=';
  });
  if (!known || !base64) return std::nullopt;
  return "data:" + std::string(mime) + ";base64," + std::string(payload);
}

}  // namespace

std::string stencil_short_name(const StyleView& style) {
  const std::string_view shape = style.shape();
  if (shape.starts_with("stencil(")) return {};
  if (shape == "image") {
    std::string_view url = style.text("image");
    if (url.starts_with("data:")) return "image";
    url = url.substr(0, url.find_first_of("?#"));
    url =
        url.substr(url.find_last_of('/') == std::string_view::npos ? 0 : url.find_last_of('/') + 1);
    url = url.substr(0, url.find_last_of('.'));
    return readable_name(url.empty() ? std::string_view("image") : url);
  }
  std::string_view name = shape;
  if (shape.ends_with(".resourceIcon") || shape.ends_with(".productIcon")) {
    if (auto icon = style.get(shape.ends_with(".resourceIcon") ? "resIcon" : "prIcon"))
      name = *icon;
  }
  const std::size_t dot = name.find_last_of('.');
  return readable_name(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

void write_stencil_fallback(ShapeContext& s) {
  if (s.b.w <= 0 || s.b.h <= 0) return;
  const Paint original = s.paint;
  // A stencil's fillColor is often the ink of a glyph rather than a background, so the box is
  // only tinted with it and outlined; fillColor=none stays none (stencil groups frame others).
  const bool inline_stencil = s.style.shape().starts_with("stencil(");
  if (s.paint.stroke.empty()) {
    s.paint.stroke =
        !s.paint.fill.empty() && s.paint.fill.starts_with('#') ? s.paint.fill : "#999999";
  }
  s.paint.fill_opacity *= kTint;
  const std::string_view perimeter = s.style.text("perimeter");
  if (perimeter.starts_with("ellipse")) {
    write_ellipse(s);
  } else if (perimeter.starts_with("rhombus")) {
    write_rhombus(s);
  } else {
    write_rect(s, std::min({8.0, s.b.w * 0.12, s.b.h * 0.12}));
  }
  const std::string ink = "#333333";
  if (!inline_stencil && s.b.w >= 24 && s.b.h >= 24 && perimeter.empty()) write_marker(s, ink);
  const std::string name = stencil_short_name(s.style);
  if (!name.empty() && !label_inside(s) && s.b.w >= 24 && s.b.h >= 14) write_name(s, name, ink);
  s.paint = original;
}

void write_image(ShapeContext& s) {
  if (s.b.w <= 0 || s.b.h <= 0) return;
  const auto href = embeddable_image(s.style.text("image"));
  if (!href) {
    write_stencil_fallback(s);
    s.placeholder = true;
    return;
  }
  s.svg.start("image")
      .attr("x", s.b.x)
      .attr("y", s.b.y)
      .attr("width", s.b.w)
      .attr("height", s.b.h)
      .attr("preserveAspectRatio", s.style.flag("imageAspect", true) ? "xMidYMid meet" : "none")
      .attr("xlink:href", *href)
      .end();
}

}  // namespace fcp::drawio::render::detail

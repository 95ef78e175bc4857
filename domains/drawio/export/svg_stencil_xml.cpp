// Stencil XML drawn the way mxStencil reads the format: a <shape> of w×h units (100 when not
// given) scaled into the box (aspect="fixed" keeps its proportions, centred), whose <background>
// and <foreground> hold drawing ops (path, rect, roundrect, ellipse, text, include-shape of a
// vendored stencil) painted by fill, stroke and fillstroke with the state ops (colours, stroke
// width, dashes, alpha, save/restore). Inline stencils (shape=stencil(…)) store it in the style
// as base64 of raw DEFLATE of the URI-encoded XML.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <pugixml.hpp>
#include <string>
#include <vector>

#include "domains/drawio/export/svg_shape_parts.hpp"
#include "domains/drawio/export/svg_stencil_library.hpp"
#include "domains/drawio/io/codec.hpp"

namespace fcp::drawio::render::detail {
namespace {

constexpr std::size_t kMaxStencilBytes = 1 << 20;  // decoded XML of one stencil
constexpr std::size_t kMaxOps = 20000;             // drawing ops of one stencil
constexpr std::size_t kMaxSaved = 64;              // save/restore depth

struct StencilState {
  Paint paint;
  double alpha = 1, fill_alpha = 1, stroke_alpha = 1;
  bool dashed = false;
  std::string dash_pattern = "3 3";
  std::string font_color = "#000000";
  double font_size = 12;
};

double attr_number(const pugi::xml_node& node, const char* name, double fallback) {
  const char* text = node.attribute(name).value();
  if (*text == '\0') return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  return end != text && std::isfinite(value) ? clamp_coordinate(value) : fallback;
}

constexpr int kMaxIncludeDepth = 4;  // include-shape nesting

class StencilPainter {
 public:
  StencilPainter(ShapeContext& s, const pugi::xml_node& shape, int depth) : s_(s), depth_(depth) {
    double w0 = attr_number(shape, "w", 100), h0 = attr_number(shape, "h", 100);
    if (w0 <= 0) w0 = 100;
    if (h0 <= 0) h0 = 100;
    sx_ = s.b.w / w0;
    sy_ = s.b.h / h0;
    x0_ = s.b.x, y0_ = s.b.y;
    if (std::string_view(shape.attribute("aspect").value()) == "fixed") {
      const double k = std::min(sx_, sy_);
      x0_ += (s.b.w - w0 * k) / 2, y0_ += (s.b.h - h0 * k) / 2;
      sx_ = sy_ = k;
    }
    state_.paint = s.paint;
    const std::string_view width = shape.attribute("strokewidth").value();
    if (width != "inherit") {
      state_.paint.stroke_width = attr_number(shape, "strokewidth", 1) * std::min(sx_, sy_);
    }
    state_.dashed = !s.paint.dash.empty();
    if (state_.dashed) state_.dash_pattern = s.paint.dash;
    state_.font_size = std::clamp(s.style.number("fontSize", 11), 1.0, 200.0);
  }

  void run(const pugi::xml_node& block) {
    for (const pugi::xml_node& op : block.children()) {
      if (op.type() != pugi::node_element || ++ops_ > kMaxOps) continue;
      apply(op);
    }
  }

 private:
  double x(const pugi::xml_node& n, const char* a) const {
    return x0_ + attr_number(n, a, 0) * sx_;
  }
  double y(const pugi::xml_node& n, const char* a) const {
    return y0_ + attr_number(n, a, 0) * sy_;
  }

  void apply(const pugi::xml_node& op) {
    const std::string_view name = op.name();
    if (name == "path") return path(op);
    if (name == "rect" || name == "roundrect") return rect(op, name == "roundrect");
    if (name == "ellipse") return ellipse(op);
    if (name == "fill") return paint(true, false);
    if (name == "stroke") return paint(false, true);
    if (name == "fillstroke") return paint(true, true);
    if (name == "text") return text(op);
    if (name == "include-shape") return include(op);
    state_op(op, name);
  }

  void state_op(const pugi::xml_node& op, std::string_view name) {
    if (name == "fillcolor" || name == "strokecolor" || name == "fontcolor") {
      const std::string_view value = op.attribute("color").value();
      const auto color = value == "fill"     ? std::optional<std::string>(s_.paint.fill)
                         : value == "stroke" ? std::optional<std::string>(s_.paint.stroke)
                                             : css_color(value);
      if (!color) return;
      (name == "fillcolor"     ? state_.paint.fill
       : name == "strokecolor" ? state_.paint.stroke
                               : state_.font_color) = *color;
    } else if (name == "strokewidth") {
      const double width = attr_number(op, "width", 1);
      const bool fixed = std::string_view(op.attribute("fixed").value()) == "1";
      state_.paint.stroke_width =
          std::clamp(fixed ? width : width * std::min(sx_, sy_), 0.0, 100.0);
    } else if (name == "dashed") {
      state_.dashed = std::string_view(op.attribute("dashed").value()) == "1";
    } else if (name == "dashpattern") {
      state_.dash_pattern = scaled_pattern(op.attribute("pattern").value());
    } else if (name == "alpha" || name == "fillalpha" || name == "strokealpha") {
      const double a = std::clamp(attr_number(op, "alpha", 1), 0.0, 1.0);
      (name == "alpha"       ? state_.alpha
       : name == "fillalpha" ? state_.fill_alpha
                             : state_.stroke_alpha) = a;
    } else if (name == "fontsize") {
      state_.font_size = std::clamp(attr_number(op, "size", 12) * std::min(sx_, sy_), 1.0, 200.0);
    } else if (name == "save") {
      if (saved_.size() < kMaxSaved) saved_.push_back(state_);
    } else if (name == "restore") {
      if (!saved_.empty()) state_ = saved_.back(), saved_.pop_back();
    }
  }

  void path(const pugi::xml_node& node) {
    current_ = PathData();
    for (const pugi::xml_node& step : node.children()) {
      if (step.type() != pugi::node_element || ++ops_ > kMaxOps) continue;
      const std::string_view name = step.name();
      if (name == "move") {
        current_.move(x(step, "x"), y(step, "y"));
      } else if (name == "line") {
        current_.line(x(step, "x"), y(step, "y"));
      } else if (name == "quad") {
        current_.quad(x(step, "x1"), y(step, "y1"), x(step, "x2"), y(step, "y2"));
      } else if (name == "curve") {
        current_.curve(x(step, "x1"), y(step, "y1"), x(step, "x2"), y(step, "y2"), x(step, "x3"),
                       y(step, "y3"));
      } else if (name == "arc") {
        current_.arc(
            std::abs(attr_number(step, "rx", 0) * sx_), std::abs(attr_number(step, "ry", 0) * sy_),
            attr_number(step, "x-axis-rotation", 0), attr_number(step, "large-arc-flag", 0) != 0,
            attr_number(step, "sweep-flag", 0) != 0, x(step, "x"), y(step, "y"));
      } else if (name == "close") {
        current_.close();
      }
    }
  }

  void rect(const pugi::xml_node& node, bool rounded) {
    const double left = x(node, "x"), top = y(node, "y");
    const double w = std::abs(attr_number(node, "w", 0) * sx_);
    const double h = std::abs(attr_number(node, "h", 0) * sy_);
    current_ = PathData();
    if (!rounded) {
      current_.move(left, top).line(left + w, top).line(left + w, top + h).line(left, top + h);
      current_.close();
      return;
    }
    double arcsize = std::clamp(attr_number(node, "arcsize", 0), 0.0, 100.0);
    if (arcsize == 0) arcsize = 15;  // mxConstants.RECTANGLE_ROUNDING_FACTOR
    const double r = std::min(w, h) * arcsize / 100;
    current_.move(left + r, top).line(left + w - r, top).quad(left + w, top, left + w, top + r);
    current_.line(left + w, top + h - r).quad(left + w, top + h, left + w - r, top + h);
    current_.line(left + r, top + h).quad(left, top + h, left, top + h - r);
    current_.line(left, top + r).quad(left, top, left + r, top).close();
  }

  void ellipse(const pugi::xml_node& node) {
    const double left = x(node, "x"), top = y(node, "y");
    const double rx = std::abs(attr_number(node, "w", 0) * sx_) / 2;
    const double ry = std::abs(attr_number(node, "h", 0) * sy_) / 2;
    current_ = PathData();
    current_.move(left, top + ry).arc(rx, ry, 0, false, true, left + 2 * rx, top + ry);
    current_.arc(rx, ry, 0, false, true, left, top + ry).close();
  }

  void paint(bool fill, bool stroke) {
    Paint p = state_.paint;
    if (!stroke) p.stroke.clear();
    p.fill_opacity *= state_.alpha * state_.fill_alpha;
    p.stroke_opacity *= state_.alpha * state_.stroke_alpha;
    p.dash = state_.dashed ? state_.dash_pattern : "";
    write_path(s_.svg, current_, p, fill);
    current_ = PathData();
  }

  void text(const pugi::xml_node& node) {
    const std::string_view content = node.attribute("str").value();
    if (content.empty()) return;
    const std::string_view align = node.attribute("align").as_string("left");
    const std::string_view valign = node.attribute("valign").as_string("top");
    const double size = state_.font_size;
    const double baseline = valign == "top" ? size * 0.8 : valign == "bottom" ? 0 : size * 0.35;
    s_.svg.start("text")
        .attr("x", x(node, "x"))
        .attr("y", y(node, "y") + baseline)
        .attr("font-family", "Helvetica, Arial, sans-serif")
        .attr("font-size", size)
        .attr("fill", state_.font_color)
        .attr("text-anchor", align == "left"    ? "start"
                             : align == "right" ? "end"
                                                : "middle")
        .open(false);
    s_.svg.text(content.substr(0, 200));
    s_.svg.close("text");
  }

  // A vendored stencil drawn into a sub-box with the current colours.
  void include(const pugi::xml_node& node) {
    if (depth_ >= kMaxIncludeDepth) return;
    const pugi::xml_node stencil = vendored_stencil(node.attribute("name").value());
    if (!stencil) return;
    ShapeContext part{s_.svg, s_.cell, s_.style,
                      Box{x(node, "x"), y(node, "y"), std::abs(attr_number(node, "w", 0) * sx_),
                          std::abs(attr_number(node, "h", 0) * sy_)},
                      state_.paint};
    if (part.b.w <= 0 || part.b.h <= 0) return;
    StencilPainter painter(part, stencil, depth_ + 1);
    painter.run(stencil.child("background"));
    painter.run(stencil.child("foreground"));
  }

  // A dash pattern in stencil units, scaled like mxStencil (by the smaller scale).
  std::string scaled_pattern(std::string_view pattern) const {
    std::string out;
    while (!pattern.empty()) {
      const std::size_t space = pattern.find(' ');
      const std::string part(pattern.substr(0, space));
      pattern = space == std::string_view::npos ? std::string_view() : pattern.substr(space + 1);
      char* end = nullptr;
      const double value = std::strtod(part.c_str(), &end);
      if (part.empty() || end == part.c_str() || !std::isfinite(value)) continue;
      if (!out.empty()) out += ' ';
      out += format_number(std::clamp(value * std::min(sx_, sy_), 0.0, 1000.0));
    }
    return out.empty() ? std::string("3 3") : out;
  }

  ShapeContext& s_;
  int depth_ = 0;
  double sx_ = 1, sy_ = 1, x0_ = 0, y0_ = 0;
  StencilState state_;
  std::vector<StencilState> saved_;
  PathData current_;
  std::size_t ops_ = 0;
};

// The stencil XML inside stencil(…), or "" when it does not decode.
std::string stencil_xml(std::string_view shape) {
  if (!shape.starts_with("stencil(") || !shape.ends_with(")")) return {};
  shape = shape.substr(8, shape.size() - 9);
  auto bytes = base64_decode(shape);
  if (!bytes) return {};
  InflateBudget budget;
  budget.remaining = kMaxStencilBytes;
  budget.free_bytes = kMaxStencilBytes;
  auto xml = inflate(*bytes, budget);
  if (!xml) return {};
  return url_decode(*xml);
}

}  // namespace

void write_stencil_shape(ShapeContext& s, const pugi::xml_node& stencil) {
  if (s.b.w <= 0 || s.b.h <= 0) return;
  StencilPainter painter(s, stencil, 0);
  painter.run(stencil.child("background"));
  painter.run(stencil.child("foreground"));
}

void write_inline_stencil(ShapeContext& s) {
  const std::string xml = stencil_xml(s.style.shape());
  pugi::xml_document doc;
  const pugi::xml_node shape = xml.empty() || !doc.load_buffer(xml.data(), xml.size())
                                   ? pugi::xml_node()
                                   : doc.child("shape");
  if (!shape) {
    write_stencil_fallback(s);
    s.placeholder = true;
    return;
  }
  write_stencil_shape(s, shape);
}

}  // namespace fcp::drawio::render::detail

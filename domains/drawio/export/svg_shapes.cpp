#include "domains/drawio/export/svg_shapes.hpp"

#include <algorithm>
#include <array>

#include "domains/drawio/export/svg_shape_parts.hpp"
#include "domains/drawio/export/svg_stencil_library.hpp"

namespace fcp::drawio::render::detail {
namespace {

void rectangle(ShapeContext& s) {
  double radius = 0;
  if (s.style.flag("rounded", false)) {
    if (s.style.flag("absoluteArcSize", false)) {
      radius = std::min({s.b.w / 2, s.b.h / 2, s.style.number("arcSize", 20) / 2});
    } else {
      const double f = std::clamp(s.style.number("arcSize", 15), 0.0, 100.0) / 100;
      radius = std::min(s.b.w * f, s.b.h * f);
    }
  }
  write_rect(s, std::max(radius, 0.0));
}

void ellipse(ShapeContext& s) {
  write_ellipse(s);
}

void double_ellipse(ShapeContext& s) {
  write_ellipse(s);
  const double inset = std::min({4 + s.paint.stroke_width, s.b.w / 5, s.b.h / 5});
  s.svg.start("ellipse")
      .attr("cx", s.b.x + s.b.w / 2)
      .attr("cy", s.b.y + s.b.h / 2)
      .attr("rx", s.b.w / 2 - inset)
      .attr("ry", s.b.h / 2 - inset);
  write_paint(s.svg, s.paint, false);
  s.svg.end();
}

void polygon(ShapeContext& s, std::initializer_list<Vec> points) {
  write_polygon(s, points);
}

void rhombus(ShapeContext& s) {
  write_rhombus(s);
}

bool vertical(const StyleView& style) {
  const std::string_view direction = style.text("direction", "east");
  return direction == "north" || direction == "south";
}

void hexagon(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = shape_size(s, 0.25, 20, w);
  polygon(s, {{d, 0}, {w - d, 0}, {w, h / 2}, {w - d, h}, {d, h}, {0, h / 2}});
}

void parallelogram(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = shape_size(s, 0.2, 20, w);
  polygon(s, {{0, h}, {d, 0}, {w, 0}, {w - d, h}});
}

void trapezoid(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = shape_size(s, 0.2, 20, w);
  polygon(s, {{0, h}, {d, 0}, {w - d, 0}, {w, h}});
}

void triangle(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  polygon(s, {{0, 0}, {w, h / 2}, {0, h}});
}

void step(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = shape_size(s, 0.2, 20, w);
  polygon(s, {{0, 0}, {w - d, 0}, {w, h / 2}, {w - d, h}, {0, h}, {d, h / 2}});
}

void card(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = std::min({s.style.number("size", 30), w, h});
  polygon(s, {{d, 0}, {w, 0}, {w, h}, {0, h}, {0, d}});
}

void note(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h,
               d = std::clamp(s.style.number("size", 30), 0.0, std::min(w, h));
  polygon(s, {{0, 0}, {w - d, 0}, {w, d}, {w, h}, {0, h}});
  PathData fold;
  fold.move(s.b.x + w - d, s.b.y).line(s.b.x + w - d, s.b.y + d).line(s.b.x + w, s.b.y + d);
  write_path(s.svg, fold, s.paint, false);
}

void process(ShapeContext& s) {
  write_rect(s, 0);
  const double d = shape_size(s, 0.1, 20, s.b.w);
  PathData bars;
  bars.move(s.b.x + d, s.b.y).line(s.b.x + d, s.b.bottom());
  bars.move(s.b.right() - d, s.b.y).line(s.b.right() - d, s.b.bottom());
  write_path(s.svg, bars, s.paint, false);
}

void internal_storage(ShapeContext& s) {
  write_rect(s, 0);
  const double dx = std::min(s.style.number("dx", 20), s.b.w);
  const double dy = std::min(s.style.number("dy", 20), s.b.h);
  PathData lines;
  lines.move(s.b.x + dx, s.b.y).line(s.b.x + dx, s.b.bottom());
  lines.move(s.b.x, s.b.y + dy).line(s.b.right(), s.b.y + dy);
  write_path(s.svg, lines, s.paint, false);
}

void cylinder(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const bool sized = s.style.shape() == "cylinder3";
  const double dy =
      std::clamp(sized ? s.style.number("size", 15) : std::min(40.0, h / 5), 0.0, h / 2);
  PathData body;
  body.move(x, y + dy).curve(x, y - dy / 3, x + w, y - dy / 3, x + w, y + dy);
  body.line(x + w, y + h - dy).curve(x + w, y + h + dy / 3, x, y + h + dy / 3, x, y + h - dy);
  write_path(s.svg, body.close(), s.paint);
  PathData rim;
  rim.move(x, y + dy).curve(x, y + 2 * dy, x + w, y + 2 * dy, x + w, y + dy);
  write_path(s.svg, rim, s.paint, false);
}

void cloud(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x + 0.25 * w, y + 0.25 * h);
  d.curve(x + 0.05 * w, y + 0.25 * h, x, y + 0.5 * h, x + 0.16 * w, y + 0.55 * h);
  d.curve(x, y + 0.66 * h, x + 0.18 * w, y + 0.9 * h, x + 0.31 * w, y + 0.8 * h);
  d.curve(x + 0.4 * w, y + h, x + 0.7 * w, y + h, x + 0.8 * w, y + 0.8 * h);
  d.curve(x + w, y + 0.8 * h, x + w, y + 0.6 * h, x + 0.875 * w, y + 0.5 * h);
  d.curve(x + w, y + 0.3 * h, x + 0.8 * w, y + 0.1 * h, x + 0.625 * w, y + 0.2 * h);
  d.curve(x + 0.5 * w, y + 0.05 * h, x + 0.3 * w, y + 0.05 * h, x + 0.25 * w, y + 0.25 * h);
  write_path(s.svg, d.close(), s.paint);
}

void document(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double dy = h * std::clamp(s.style.number("size", 0.3), 0.0, 1.0);
  constexpr double kFactor = 1.4;
  PathData d;
  d.move(x, y).line(x + w, y).line(x + w, y + h - dy / 2);
  d.quad(x + w * 3 / 4, y + h - dy * kFactor, x + w / 2, y + h - dy / 2);
  d.quad(x + w / 4, y + h - dy * (1 - kFactor), x, y + h - dy / 2);
  write_path(s.svg, d.close(), s.paint);
}

void actor(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h, third = w / 3;
  PathData d;
  d.move(x, y + h).curve(x, y + 3 * h / 5, x, y + 2 * h / 5, x + w / 2, y + 2 * h / 5);
  d.curve(x + w / 2 - third, y + 2 * h / 5, x + w / 2 - third, y, x + w / 2, y);
  d.curve(x + w / 2 + third, y, x + w / 2 + third, y + 2 * h / 5, x + w / 2, y + 2 * h / 5);
  d.curve(x + w, y + 2 * h / 5, x + w, y + 3 * h / 5, x + w, y + h);
  write_path(s.svg, d.close(), s.paint);
}

void uml_actor(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  s.svg.start("ellipse")
      .attr("cx", x + w / 2)
      .attr("cy", y + h / 8)
      .attr("rx", w / 4)
      .attr("ry", h / 8);
  write_paint(s.svg, s.paint);
  s.svg.end();
  PathData d;
  d.move(x + w / 2, y + h / 4).line(x + w / 2, y + 2 * h / 3);
  d.move(x, y + h / 3).line(x + w, y + h / 3);
  d.move(x, y + h).line(x + w / 2, y + 2 * h / 3).line(x + w, y + h);
  write_path(s.svg, d, s.paint, false);
}

void swimlane(ShapeContext& s) {
  const Box all = s.b;
  const Paint outline = s.paint;
  const bool horizontal = s.style.flag("horizontal", true);
  const double start = std::clamp(s.style.number("startSize", 23), 0.0, horizontal ? all.h : all.w);
  Box head = all, body = all;
  if (horizontal) {
    head.h = start, body.y += start, body.h -= start;
  } else {
    head.w = start, body.x += start, body.w -= start;
  }
  const std::string body_fill = s.style.color("swimlaneFillColor", "");
  if (!body_fill.empty() && s.style.flag("swimlaneBody", true)) {
    s.paint = Paint{body_fill, "", 1, "", outline.fill_opacity, 1};
    s.b = body;
    write_rect(s, 0);
  }
  if (s.style.flag("swimlaneHead", true) && start > 0) {
    s.paint = Paint{outline.fill, "", 1, "", outline.fill_opacity, 1};
    s.b = head;
    write_rect(s, 0);
  }
  s.paint = outline;
  s.paint.fill.clear();
  s.b = all;
  write_rect(s, 0);
  if (s.style.flag("swimlaneLine", true) && start > 0 && (horizontal ? body.h : body.w) > 0) {
    PathData line;
    if (horizontal) {
      line.move(head.x, head.bottom()).line(head.right(), head.bottom());
    } else {
      line.move(head.right(), head.y).line(head.right(), head.bottom());
    }
    write_path(s.svg, line, s.paint, false);
  }
  s.paint = outline;
}

void partial_rectangle(ShapeContext& s) {
  const Paint outline = s.paint;
  s.paint.stroke.clear();
  write_rect(s, 0);
  const double x = s.b.x, y = s.b.y, r = s.b.right(), b = s.b.bottom();
  PathData sides;
  if (s.style.flag("top", true)) sides.move(x, y).line(r, y);
  if (s.style.flag("right", true)) sides.move(r, y).line(r, b);
  if (s.style.flag("bottom", true)) sides.move(r, b).line(x, b);
  if (s.style.flag("left", true)) sides.move(x, b).line(x, y);
  write_path(s.svg, sides, outline, false);
}

void line(ShapeContext& s) {
  PathData d;
  if (vertical(s.style)) {
    d.move(s.b.x + s.b.w / 2, s.b.y).line(s.b.x + s.b.w / 2, s.b.bottom());
  } else {
    d.move(s.b.x, s.b.y + s.b.h / 2).line(s.b.right(), s.b.y + s.b.h / 2);
  }
  write_path(s.svg, d, s.paint, false);
}

void waypoint(ShapeContext& s) {
  const Vec c = s.b.center();
  s.svg.start("circle").attr("cx", c.x).attr("cy", c.y).attr("r", 3.0);
  s.svg.attr("fill", s.paint.stroke.empty() ? std::string("#000000") : s.paint.stroke).end();
}

void nothing(ShapeContext&) {}

constexpr std::array kShapes = {
    ShapeEntry{"rectangle", rectangle},
    ShapeEntry{"rect", rectangle},
    ShapeEntry{"label", rectangle},
    ShapeEntry{"table", rectangle},
    ShapeEntry{"ellipse", ellipse},
    ShapeEntry{"doubleEllipse", double_ellipse},
    ShapeEntry{"rhombus", rhombus},
    ShapeEntry{"hexagon", hexagon},
    ShapeEntry{"cylinder", cylinder},
    ShapeEntry{"cylinder2", cylinder},
    ShapeEntry{"cylinder3", cylinder},
    ShapeEntry{"datastore", cylinder},
    ShapeEntry{"cloud", cloud},
    ShapeEntry{"document", document},
    ShapeEntry{"parallelogram", parallelogram},
    ShapeEntry{"trapezoid", trapezoid},
    ShapeEntry{"triangle", triangle},
    ShapeEntry{"process", process},
    ShapeEntry{"internalStorage", internal_storage},
    ShapeEntry{"step", step},
    ShapeEntry{"card", card},
    ShapeEntry{"note", note},
    ShapeEntry{"actor", actor},
    ShapeEntry{"mxgraph.basic.person", actor},
    ShapeEntry{"umlActor", uml_actor},
    ShapeEntry{"swimlane", swimlane, false},
    ShapeEntry{"partialRectangle", partial_rectangle, false},
    ShapeEntry{"tableRow", partial_rectangle, false},
    ShapeEntry{"line", line, false},
    ShapeEntry{"waypoint", waypoint, false},
    ShapeEntry{"image", write_image, false},
    ShapeEntry{"connector", nothing, false},
};

// The transform that turns a shape drawn facing east in `local` into the cell's box: the
// direction's quarter turns about the centre, then flipH / flipV mirroring (swapped for
// north/south, as mxShape swaps them), as mxSvgCanvas2D composes them.
std::string shape_transform(const StyleView& style, const Box& box, bool directed) {
  const std::string_view direction = directed ? style.text("direction", "east") : "east";
  const int turn = direction == "south"   ? 90
                   : direction == "west"  ? 180
                   : direction == "north" ? 270
                                          : 0;
  bool h = style.flag("flipH", false), v = style.flag("flipV", false);
  if (turn == 90 || turn == 270) std::swap(h, v);
  const Vec c = box.center();
  std::string out;
  if (turn != 0) {
    out = "rotate(" + std::to_string(turn) + " " + format_number(c.x) + " " + format_number(c.y) +
          ")";
  }
  if (h || v) {
    if (!out.empty()) out += ' ';
    out += "matrix(" + std::string(h ? "-1" : "1") + " 0 0 " + (v ? "-1 " : "1 ") +
           format_number(h ? 2 * c.x : 0) + " " + format_number(v ? 2 * c.y : 0) + ")";
  }
  return out;
}

// The box a directed shape is drawn in: north and south swap width and height about the centre.
Box local_box(const StyleView& style, const Box& box, bool directed) {
  if (!directed || !vertical(style)) return box;
  const Vec c = box.center();
  return Box{c.x - box.h / 2, c.y - box.w / 2, box.h, box.w};
}

}  // namespace

double shape_size(const ShapeContext& shape, double fallback_fraction, double fallback_px,
                  double extent, double max_fraction) {
  const bool fixed = shape.style.flag("fixedSize", false);
  const double size = shape.style.number("size", fixed ? fallback_px : fallback_fraction);
  return std::clamp(fixed ? size : size * extent, 0.0, std::max(0.0, extent * max_fraction));
}

double style_clamped(const ShapeContext& shape, std::string_view key, double fallback, double low,
                     double high) {
  return std::clamp(shape.style.number(key, fallback), low, std::max(low, high));
}

void write_polygon(ShapeContext& shape, std::initializer_list<Vec> points) {
  PathData d;
  bool first = true;
  for (Vec p : points) {
    if (first) {
      d.move(shape.b.x + p.x, shape.b.y + p.y);
    } else {
      d.line(shape.b.x + p.x, shape.b.y + p.y);
    }
    first = false;
  }
  write_path(shape.svg, d.close(), shape.paint);
}

void write_polyline(ShapeContext& shape, std::initializer_list<Vec> points) {
  PathData d;
  bool first = true;
  for (Vec p : points) {
    if (first) {
      d.move(shape.b.x + p.x, shape.b.y + p.y);
    } else {
      d.line(shape.b.x + p.x, shape.b.y + p.y);
    }
    first = false;
  }
  write_path(shape.svg, d, shape.paint, false);
}

std::span<const ShapeEntry> core_shapes() {
  return kShapes;
}

const ShapeEntry* find_shape(std::string_view name) {
  for (auto table : {core_shapes(), builtin_shapes(), library_shapes()}) {
    for (const ShapeEntry& entry : table) {
      if (entry.name == name) return &entry;
    }
  }
  return nullptr;
}

void write_rect(ShapeContext& shape, double radius) {
  if (shape.b.w <= 0 || shape.b.h <= 0) return;
  if (shape.paint.fill.empty() && shape.paint.stroke.empty()) return;
  shape.svg.start("rect")
      .attr("x", shape.b.x)
      .attr("y", shape.b.y)
      .attr("width", shape.b.w)
      .attr("height", shape.b.h);
  if (radius > 0) shape.svg.attr("rx", radius).attr("ry", radius);
  write_paint(shape.svg, shape.paint);
  shape.svg.end();
}

void write_ellipse(ShapeContext& shape) {
  if (shape.paint.fill.empty() && shape.paint.stroke.empty()) return;
  shape.svg.start("ellipse")
      .attr("cx", shape.b.x + shape.b.w / 2)
      .attr("cy", shape.b.y + shape.b.h / 2)
      .attr("rx", shape.b.w / 2)
      .attr("ry", shape.b.h / 2);
  write_paint(shape.svg, shape.paint);
  shape.svg.end();
}

void write_rhombus(ShapeContext& shape) {
  const double w = shape.b.w, h = shape.b.h;
  polygon(shape, {{w / 2, 0}, {w, h / 2}, {w / 2, h}, {0, h / 2}});
}

bool write_vertex_shape(SvgWriter& svg, const Cell& cell, const StyleView& style, const Box& box) {
  if (box.w <= 0 && box.h <= 0) return false;
  const std::string_view name = style.shape();
  const bool inline_stencil = name.starts_with("stencil(");
  // draw.io's own stencil files first: where a library shape is drawn natively below, the
  // vendored stencil is the more faithful drawing.
  const pugi::xml_node vendored =
      name.starts_with("mxgraph.") ? vendored_stencil(name) : pugi::xml_node();
  const ShapeEntry* entry = inline_stencil || vendored ? nullptr : find_shape(name);
  const bool directed = entry != nullptr ? entry->directed : inline_stencil || vendored;
  ShapeContext shape{svg, cell, style, local_box(style, box, directed), vertex_paint(svg, style)};
  const std::string transform = shape_transform(style, box, directed);
  if (!transform.empty()) svg.start("g").attr("transform", transform).open();
  if (inline_stencil) {
    write_inline_stencil(shape);
  } else if (vendored) {
    write_stencil_shape(shape, vendored);
  } else if (entry != nullptr) {
    entry->write(shape);
  } else if (name.starts_with("mxgraph.")) {
    write_stencil_fallback(shape);
    shape.placeholder = true;
  } else {
    rectangle(shape);
    shape.placeholder = true;
  }
  if (!transform.empty()) svg.close("g");
  return shape.placeholder;
}

}  // namespace fcp::drawio::render::detail

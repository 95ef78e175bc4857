// draw.io's built-in shapes (Shapes.js) beyond mxGraph's core set, drawn facing east in the box.
// The outlines follow draw.io's geometry and style keys (size, fixedSize, position, base,
// tabWidth, …); they are drawn from those facts, not from draw.io's code.
#include <algorithm>
#include <array>
#include <cmath>
#include <span>

#include "domains/drawio/export/svg_shape_parts.hpp"

namespace fcp::drawio::render::detail {
namespace {

void stroke_only(ShapeContext& s, const PathData& d) {
  write_path(s.svg, d, s.paint, false);
}

void fill_and_stroke(ShapeContext& s, PathData& d) {
  write_path(s.svg, d.close(), s.paint);
}

// The OR gate / fault-tree OR: a flat back and a pointed, curved front.
void or_shape(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x, y).quad(x + w, y, x + w, y + h / 2).quad(x + w, y + h, x, y + h);
  fill_and_stroke(s, d);
}

// XOR: the OR outline with a curved back.
void xor_shape(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x, y).quad(x + w, y, x + w, y + h / 2).quad(x + w, y + h, x, y + h);
  d.quad(x + w / 2, y + h / 2, x, y);
  fill_and_stroke(s, d);
}

// AND: a flat back and a half-round front.
void and_shape(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x, y).line(x + w / 2, y).arc(w / 2, h / 2, true, x + w / 2, y + h).line(x, y + h);
  fill_and_stroke(s, d);
}

void delay(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h, dx = std::min(w / 2, h / 2);
  PathData d;
  d.move(x, y).line(x + w - dx, y).quad(x + w, y, x + w, y + h / 2);
  d.quad(x + w, y + h, x + w - dx, y + h).line(x, y + h);
  fill_and_stroke(s, d);
}

void display(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h, dx = std::min(w, h / 2);
  const double d = std::min(w - dx, w * std::max(0.0, s.style.number("size", 0.25)));
  PathData p;
  p.move(x, y + h / 2).line(x + d, y).line(x + w - dx, y).quad(x + w, y, x + w, y + h / 2);
  p.quad(x + w, y + h, x + w - dx, y + h).line(x + d, y + h);
  fill_and_stroke(s, p);
}

void tape(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double dy = h * style_clamped(s, "size", 0.4, 0, 1);
  constexpr double kFy = 1.4;
  PathData d;
  d.move(x, y + dy / 2).quad(x + w / 4, y + dy * kFy, x + w / 2, y + dy / 2);
  d.quad(x + 3 * w / 4, y + dy * (1 - kFy), x + w, y + dy / 2).line(x + w, y + h - dy / 2);
  d.quad(x + 3 * w / 4, y + h - dy * kFy, x + w / 2, y + h - dy / 2);
  d.quad(x + w / 4, y + h - dy * (1 - kFy), x, y + h - dy / 2);
  fill_and_stroke(s, d);
}

void manual_input(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = std::min(h, style_clamped(s, "size", 30, 0, h));
  write_polygon(s, {{0, h}, {0, d}, {w, 0}, {w, h}});
}

void off_page_connector(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = h * style_clamped(s, "size", 3.0 / 8, 0, 1);
  write_polygon(s, {{0, 0}, {w, 0}, {w, h - d}, {w / 2, h}, {0, h - d}});
}

void loop_limit(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h,
               d = std::min({w / 2, h, std::max(0.0, s.style.number("size", 20))});
  write_polygon(s, {{d, 0}, {w - d, 0}, {w, d * 0.8}, {w, h}, {0, h}, {0, d * 0.8}});
}

void data_storage(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double d = shape_size(s, 0.1, 10, w);
  PathData p;
  p.move(x + d, y).line(x + w, y).quad(x + w - 2 * d, y + h / 2, x + w, y + h);
  p.line(x + d, y + h).quad(x - d, y + h / 2, x + d, y);
  fill_and_stroke(s, p);
}

void callout(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double d = style_clamped(s, "size", 30, 0, h);
  const double dx = w * style_clamped(s, "position", 0.5, 0, 1);
  const double dx2 = w * style_clamped(s, "position2", 0.5, 0, 1);
  const double base = style_clamped(s, "base", 20, 0, w);
  write_polygon(s, {{0, 0},
                    {w, 0},
                    {w, h - d},
                    {std::min(w, dx + base), h - d},
                    {dx2, h},
                    {std::max(0.0, dx), h - d},
                    {0, h - d}});
}

void cube(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = std::min({w, h, style_clamped(s, "size", 20, 0, w)});
  write_polygon(s, {{d, 0}, {w, 0}, {w, h - d}, {w - d, h}, {0, h}, {0, d}});
  write_polyline(s, {{0, d}, {w - d, d}, {w, 0}});
  write_polyline(s, {{w - d, d}, {w - d, h}});
}

void cross(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, m = std::min(w, h);
  const double t = m * style_clamped(s, "size", 0.2, 0, 1);
  const double l = (w - t) / 2, r = (w + t) / 2, top = (h - t) / 2, bottom = (h + t) / 2;
  write_polygon(s, {{l, 0},
                    {r, 0},
                    {r, top},
                    {w, top},
                    {w, bottom},
                    {r, bottom},
                    {r, h},
                    {l, h},
                    {l, bottom},
                    {0, bottom},
                    {0, top},
                    {l, top}});
}

void line_ellipse(ShapeContext& s) {
  write_ellipse(s);
  const double w = s.b.w, h = s.b.h;
  if (s.style.text("line", "horizontal") == "vertical") {
    write_polyline(s, {{w / 2, 0}, {w / 2, h}});
  } else {
    write_polyline(s, {{0, h / 2}, {w, h / 2}});
  }
}

void sum_ellipse(ShapeContext& s) {
  write_ellipse(s);
  const double w = s.b.w, h = s.b.h, k = 0.5 - 0.5 / std::sqrt(2.0);
  write_polyline(s, {{w * k, h * k}, {w * (1 - k), h * (1 - k)}});
  write_polyline(s, {{w * (1 - k), h * k}, {w * k, h * (1 - k)}});
}

void or_ellipse(ShapeContext& s) {
  write_ellipse(s);
  const double w = s.b.w, h = s.b.h;
  write_polyline(s, {{w / 2, 0}, {w / 2, h}});
  write_polyline(s, {{0, h / 2}, {w, h / 2}});
}

void sort_shape(ShapeContext& s) {
  write_rhombus(s);
  write_polyline(s, {{0, s.b.h / 2}, {s.b.w, s.b.h / 2}});
}

void collate(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  write_polygon(s, {{0, 0}, {w, 0}, {w / 2, h / 2}, {w, h}, {0, h}, {w / 2, h / 2}});
}

// A body under a tab on the right (tabPosition=left moves it), each outlined.
void folder(ShapeContext& s) {
  const Box all = s.b;
  const double tw = style_clamped(s, "tabWidth", 60, 0, all.w);
  const double th = style_clamped(s, "tabHeight", 20, 0, all.h);
  const bool left = s.style.text("tabPosition", "right") == "left";
  s.b = Box{left ? all.x : all.right() - tw, all.y, tw, th};
  write_rect(s, 0);
  s.b = Box{all.x, all.y + th, all.w, all.h - th};
  write_rect(s, 0);
  s.b = all;
}

// Four inward curves between the corners.
void switch_shape(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x, y).quad(x + w / 2, y + h / 2, x + w, y).quad(x + w / 2, y + h / 2, x + w, y + h);
  d.quad(x + w / 2, y + h / 2, x, y + h).quad(x + w / 2, y + h / 2, x, y);
  fill_and_stroke(s, d);
}

void module_shape(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double jw = style_clamped(s, "jettyWidth", 20, 0, w),
               jh = style_clamped(s, "jettyHeight", 10, 0, h / 4);
  const Box all = s.b;
  s.b = Box{all.x + jw / 2, all.y, std::max(0.0, all.w - jw / 2), all.h};
  write_rect(s, 0);
  s.b = Box{all.x, all.y + jh, jw, jh};
  write_rect(s, 0);
  s.b = Box{all.x, all.y + 3 * jh, jw, jh};
  write_rect(s, 0);
  s.b = all;
}

void component(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double jw = style_clamped(s, "jettyWidth", 20, 0, w),
               jh = style_clamped(s, "jettyHeight", 10, 0, h / 4);
  const Box all = s.b;
  s.b = Box{all.x + jw / 2, all.y, std::max(0.0, all.w - jw / 2), all.h};
  write_rect(s, 0);
  s.b = Box{all.x, all.y + h * 0.25 - jh / 2, jw, jh};
  write_rect(s, 0);
  s.b = Box{all.x, all.y + h * 0.75 - jh / 2, jw, jh};
  write_rect(s, 0);
  s.b = all;
}

void uml_lifeline(ShapeContext& s) {
  const Box all = s.b;
  const double head = style_clamped(s, "size", 40, 0, all.h);
  s.b.h = head;
  write_rect(s, 0);
  s.b = all;
  if (all.h > head) {
    Paint dashed = s.paint;
    dashed.dash = "3 3";
    PathData d;
    d.move(all.x + all.w / 2, all.y + head).line(all.x + all.w / 2, all.bottom());
    write_path(s.svg, d, dashed, false);
  }
}

void uml_frame(ShapeContext& s) {
  const Box all = s.b;
  const double w = std::min(all.w, style_clamped(s, "width", 60, 0, all.w));
  const double h = std::min(all.h, style_clamped(s, "height", 30, 0, all.h));
  write_rect(s, 0);
  write_polygon(s, {{0, 0}, {w, 0}, {w, h / 2}, {std::max(0.0, w - 10), h}, {0, h}});
}

void message(ShapeContext& s) {
  write_rect(s, 0);
  write_polyline(s, {{0, 0}, {s.b.w / 2, s.b.h / 2}, {s.b.w, 0}});
}

void required_interface(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  PathData d;
  d.move(x, y).quad(x + w, y, x + w, y + h / 2).quad(x + w, y + h, x, y + h);
  stroke_only(s, d);
}

void provided_required_interface(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double inset = s.style.number("inset", 2) + s.paint.stroke_width;
  const Box all = s.b;
  s.b = Box{x, y + inset, std::max(0.0, w - 2 * inset), std::max(0.0, h - 2 * inset)};
  write_ellipse(s);
  s.b = all;
  PathData d;
  d.move(x + w / 2, y).quad(x + w, y, x + w, y + h / 2).quad(x + w, y + h, x + w / 2, y + h);
  stroke_only(s, d);
}

void curly_bracket(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double mid = h * style_clamped(s, "size", 0.5, 0, 1), r = std::min(w / 2, h / 8);
  PathData d;
  d.move(x + w, y).quad(x + w / 2, y, x + w / 2, y + r).line(x + w / 2, y + mid - r);
  d.quad(x + w / 2, y + mid, x, y + mid).quad(x + w / 2, y + mid, x + w / 2, y + mid + r);
  d.line(x + w / 2, y + h - r).quad(x + w / 2, y + h, x + w, y + h);
  stroke_only(s, d);
}

void single_arrow(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double aw = h * style_clamped(s, "arrowWidth", 0.3, 0, 1);
  const double as = w * style_clamped(s, "arrowSize", 0.2, 0, 1);
  const double t = (h - aw) / 2, b = (h + aw) / 2;
  write_polygon(s,
                {{0, t}, {w - as, t}, {w - as, 0}, {w, h / 2}, {w - as, h}, {w - as, b}, {0, b}});
}

void double_arrow(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double aw = h * style_clamped(s, "arrowWidth", 0.3, 0, 1);
  const double as = w * style_clamped(s, "arrowSize", 0.2, 0, 0.5);
  const double t = (h - aw) / 2, b = (h + aw) / 2;
  write_polygon(s, {{0, h / 2},
                    {as, 0},
                    {as, t},
                    {w - as, t},
                    {w - as, 0},
                    {w, h / 2},
                    {w - as, h},
                    {w - as, b},
                    {as, b},
                    {as, h}});
}

void associative_entity(ShapeContext& s) {
  write_rect(s, 0);
  write_rhombus(s);
}

void uml_boundary(ShapeContext& s) {
  const Box all = s.b;
  const double bar = all.w / 6;
  s.b = Box{all.x + bar, all.y, all.w - bar, all.h};
  write_ellipse(s);
  s.b = all;
  write_polyline(s, {{0, 0}, {0, all.h}});
  write_polyline(s, {{0, all.h / 2}, {bar, all.h / 2}});
}

void uml_entity(ShapeContext& s) {
  write_ellipse(s);
  write_polyline(s, {{s.b.w / 8, s.b.h}, {s.b.w * 7 / 8, s.b.h}});
}

void uml_control(ShapeContext& s) {
  const Box all = s.b;
  s.b = Box{all.x, all.y + all.h / 8, all.w, all.h * 7 / 8};
  write_ellipse(s);
  s.b = all;
  write_polyline(s, {{all.w * 0.6, 0}, {all.w / 2, all.h / 8}, {all.w * 0.6, all.h / 4}});
}

void uml_destroy(ShapeContext& s) {
  write_polyline(s, {{0, 0}, {s.b.w, s.b.h}});
  write_polyline(s, {{s.b.w, 0}, {0, s.b.h}});
}

void corner(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double dx = style_clamped(s, "dx", 10, 0, w), dy = style_clamped(s, "dy", 10, 0, h);
  write_polygon(s, {{0, 0}, {w, 0}, {w, dy}, {dx, dy}, {dx, h}, {0, h}});
}

void tee(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  const double dx = style_clamped(s, "dx", 10, 0, w), dy = style_clamped(s, "dy", 10, 0, h);
  const double l = (w - dx) / 2, r = (w + dx) / 2;
  write_polygon(s, {{0, 0}, {w, 0}, {w, dy}, {r, dy}, {r, h}, {l, h}, {l, dy}, {0, dy}});
}

void crossbar(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h;
  write_polyline(s, {{0, 0}, {0, h}});
  write_polyline(s, {{0, h / 2}, {w, h / 2}});
  write_polyline(s, {{w, 0}, {w, h}});
}

void plus_shape(ShapeContext& s) {
  write_rect(s, 0);
  const double w = s.b.w, h = s.b.h, m = std::min(w, h) / 4;
  write_polyline(s, {{w / 2, h / 2 - m}, {w / 2, h / 2 + m}});
  write_polyline(s, {{w / 2 - m, h / 2}, {w / 2 + m, h / 2}});
}

void tape_data(ShapeContext& s) {
  write_ellipse(s);
  write_polyline(s, {{s.b.w / 2, s.b.h}, {s.b.w, s.b.h}});
}

constexpr std::array kBuiltins = {
    ShapeEntry{"or", or_shape},
    ShapeEntry{"xor", xor_shape},
    ShapeEntry{"and", and_shape},
    ShapeEntry{"delay", delay},
    ShapeEntry{"display", display},
    ShapeEntry{"tape", tape},
    ShapeEntry{"manualInput", manual_input},
    ShapeEntry{"offPageConnector", off_page_connector},
    ShapeEntry{"loopLimit", loop_limit},
    ShapeEntry{"dataStorage", data_storage},
    ShapeEntry{"callout", callout},
    ShapeEntry{"cube", cube},
    ShapeEntry{"cross", cross},
    ShapeEntry{"lineEllipse", line_ellipse},
    ShapeEntry{"sumEllipse", sum_ellipse},
    ShapeEntry{"orEllipse", or_ellipse},
    ShapeEntry{"sortShape", sort_shape},
    ShapeEntry{"collate", collate},
    ShapeEntry{"folder", folder},
    ShapeEntry{"switch", switch_shape},
    ShapeEntry{"module", module_shape},
    ShapeEntry{"component", component},
    ShapeEntry{"umlLifeline", uml_lifeline, false},
    ShapeEntry{"umlFrame", uml_frame, false},
    ShapeEntry{"message", message},
    ShapeEntry{"requiredInterface", required_interface},
    ShapeEntry{"providedRequiredInterface", provided_required_interface},
    ShapeEntry{"curlyBracket", curly_bracket},
    ShapeEntry{"singleArrow", single_arrow},
    ShapeEntry{"doubleArrow", double_arrow},
    ShapeEntry{"associativeEntity", associative_entity},
    ShapeEntry{"umlBoundary", uml_boundary},
    ShapeEntry{"umlEntity", uml_entity},
    ShapeEntry{"umlControl", uml_control},
    ShapeEntry{"umlDestroy", uml_destroy},
    ShapeEntry{"corner", corner},
    ShapeEntry{"tee", tee},
    ShapeEntry{"crossbar", crossbar},
    ShapeEntry{"plus", plus_shape},
    ShapeEntry{"tapeData", tape_data},
    ShapeEntry{"isoRectangle", [](ShapeContext& s) { write_rhombus(s); }},
};

}  // namespace

std::span<const ShapeEntry> builtin_shapes() {
  return kBuiltins;
}

}  // namespace fcp::drawio::render::detail

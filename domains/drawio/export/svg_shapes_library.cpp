// Stencil-library shapes drawn natively: flowchart, logic gates, BPMN, basic, floorplan and a few
// frames (aws4 groups, gcp2 cards). Library outlines that equal a built-in shape reuse it;
// the decorations left out are listed in svg_renderer.hpp (render_svg).
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <span>

#include "domains/drawio/export/svg_shape_parts.hpp"

namespace fcp::drawio::render::detail {
namespace {

void draw_as(ShapeContext& s, std::string_view name) {
  if (const ShapeEntry* entry = find_shape(name)) entry->write(s);
}

void inset_ellipse(ShapeContext& s, double inset) {
  const Box all = s.b;
  s.b = Box{all.x + inset, all.y + inset, std::max(0.0, all.w - 2 * inset),
            std::max(0.0, all.h - 2 * inset)};
  write_ellipse(s);
  s.b = all;
}

// ---- flowchart (mxgraph.flowchart.*) ---------------------------------------------------------

void terminator(ShapeContext& s) {
  write_rect(s, std::min(s.b.w, s.b.h) / 2);
}

void triangle_up(ShapeContext& s) {
  write_polygon(s, {{0, s.b.h}, {s.b.w / 2, 0}, {s.b.w, s.b.h}});
}

void triangle_down(ShapeContext& s) {
  write_polygon(s, {{0, 0}, {s.b.w, 0}, {s.b.w / 2, s.b.h}});
}

void manual_operation(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = w * 0.2;
  write_polygon(s, {{0, 0}, {w, 0}, {w - d, h}, {d, h}});
}

void predefined_process(ShapeContext& s) {
  write_rect(s, 0);
  const double d = s.b.w * 0.1;
  write_polyline(s, {{d, 0}, {d, s.b.h}});
  write_polyline(s, {{s.b.w - d, 0}, {s.b.w - d, s.b.h}});
}

void multi_document(ShapeContext& s) {
  const Box all = s.b;
  const double dx = all.w * 0.06, dy = all.h * 0.06;
  for (int i = 2; i >= 0; --i) {
    s.b = Box{all.x + dx * (2 - i), all.y + dy * i, all.w - 2 * dx, all.h - 2 * dy};
    draw_as(s, "document");
  }
  s.b = all;
}

void direct_data(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h, dx = std::min(w / 5, h / 2);
  PathData d;
  d.move(x + dx, y).line(x + w - dx, y).arc(dx, h / 2, true, x + w - dx, y + h);
  d.line(x + dx, y + h).arc(dx, h / 2, true, x + dx, y).close();
  write_path(s.svg, d, s.paint);
  PathData rim;
  rim.move(x + w - dx, y).arc(dx, h / 2, false, x + w - dx, y + h);
  write_path(s.svg, rim, s.paint, false);
}

void sequential_data(ShapeContext& s) {
  write_ellipse(s);
  write_polyline(s, {{s.b.w / 2, s.b.h}, {s.b.w, s.b.h}});
}

void annotation(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, d = std::min(w, 10.0);
  write_polyline(s, {{d, 0}, {0, 0}, {0, h}, {d, h}});
}

// ---- logic gates (mxgraph.electrical.logic_gates.*) ------------------------------------------

enum class Gate { and_gate, or_gate, xor_gate, buffer };

// A gate body between x0 and x1 of the box (the leads outside it), facing east.
void gate_body(ShapeContext& s, Gate gate, double x0, double x1) {
  const double x = s.b.x + x0, y = s.b.y, w = x1 - x0, h = s.b.h;
  PathData d;
  if (gate == Gate::and_gate) {
    d.move(x, y).line(x + w / 2, y).arc(w / 2, h / 2, true, x + w / 2, y + h).line(x, y + h);
  } else if (gate == Gate::buffer) {
    d.move(x, y).line(x + w, y + h / 2).line(x, y + h);
  } else {
    d.move(x, y).quad(x + w * 0.75, y, x + w, y + h / 2).quad(x + w * 0.75, y + h, x, y + h);
    d.quad(x + w * 0.3, y + h / 2, x, y);
  }
  write_path(s.svg, d.close(), s.paint);
  if (gate == Gate::xor_gate) {
    PathData back;
    back.move(x - w * 0.1, y).quad(x + w * 0.2, y + h / 2, x - w * 0.1, y + h);
    write_path(s.svg, back, s.paint, false);
  }
}

void gate(ShapeContext& s, Gate kind, bool negated, int inputs) {
  const double w = s.b.w, h = s.b.h, lead = w * 0.2;
  const double bubble = negated ? std::min(w * 0.1, h * 0.3) : 0;
  for (int i = 1; i <= inputs; ++i) {
    const double at = h * i / (inputs + 1);
    write_polyline(
        s, {{0, at}, {lead + (kind == Gate::and_gate || kind == Gate::buffer ? 0 : w * 0.05), at}});
  }
  gate_body(s, kind, lead, w - lead - bubble);
  if (negated) {
    const Box all = s.b;
    s.b = Box{all.x + w - lead - bubble, all.y + h / 2 - bubble / 2, bubble, bubble};
    write_ellipse(s);
    s.b = all;
  }
  write_polyline(s, {{w - lead, h / 2}, {w, h / 2}});
}

void logic_gate(ShapeContext& s) {
  const std::string_view op = s.style.text("operation", "and");
  const Gate kind = op == "or" ? Gate::or_gate : op == "xor" ? Gate::xor_gate : Gate::and_gate;
  const int inputs = static_cast<int>(std::clamp(s.style.number("numInputs", 2), 1.0, 16.0));
  gate(s, kind, s.style.flag("negating", false), inputs);
}

// ---- BPMN (mxgraph.bpmn.*) -------------------------------------------------------------------

void bpmn_task(ShapeContext& s) {
  const bool square = s.style.number("arcSize", 1) == 0 || s.style.text("rectStyle") == "square";
  write_rect(s, square ? 0 : std::min({s.style.number("size", 10), s.b.w / 2, s.b.h / 2}));
}

void envelope(ShapeContext& s, double scale) {
  const Box all = s.b;
  const double w = all.w * scale, h = all.h * scale * 0.7;
  s.b = Box{all.x + (all.w - w) / 2, all.y + (all.h - h) / 2, w, h};
  draw_as(s, "message");
  s.b = all;
}

void bpmn_symbol(ShapeContext& s, std::string_view symbol) {
  const double w = s.b.w, h = s.b.h;
  if (symbol == "message") return envelope(s, 0.5);
  if (symbol == "terminate") {
    Paint filled = s.paint;
    filled.fill = filled.stroke.empty() ? std::string("#000000") : filled.stroke;
    std::swap(s.paint, filled);
    inset_ellipse(s, std::min(w, h) * 0.2);
    std::swap(s.paint, filled);
  } else if (symbol == "timer") {
    inset_ellipse(s, std::min(w, h) * 0.2);
    write_polyline(s, {{w / 2, h * 0.3}, {w / 2, h / 2}, {w * 0.65, h / 2}});
  } else if (symbol == "exclusiveGw") {
    write_polyline(s, {{w * 0.35, h * 0.35}, {w * 0.65, h * 0.65}});
    write_polyline(s, {{w * 0.65, h * 0.35}, {w * 0.35, h * 0.65}});
  } else if (symbol == "parallelGw") {
    write_polyline(s, {{w / 2, h * 0.3}, {w / 2, h * 0.7}});
    write_polyline(s, {{w * 0.3, h / 2}, {w * 0.7, h / 2}});
  } else if (symbol == "inclusiveGw") {
    inset_ellipse(s, std::min(w, h) * 0.3);
  }
}

void bpmn_event(ShapeContext& s) {
  const std::string_view outline = s.style.text("outline", "standard");
  const double inset = std::min(s.b.w, s.b.h) * 0.08;
  if (outline == "end") {
    const Paint thin = s.paint;
    s.paint.stroke_width *= 2;
    write_ellipse(s);
    s.paint = thin;
  } else if (outline != "none") {
    write_ellipse(s);
    if (outline != "standard") {
      const Paint solid = s.paint;
      if (outline.ends_with("Nonint")) s.paint.dash = "3 3";
      inset_ellipse(s, inset);
      s.paint = solid;
    }
  }
  bpmn_symbol(s, s.style.text("symbol", "general"));
}

void bpmn_gateway(ShapeContext& s) {
  write_rhombus(s);
  std::string_view type = s.style.text("gwType", "");
  if (type.empty()) type = s.style.text("symbol", "");
  if (type == "exclusive" || type == "exclusiveGw") return bpmn_symbol(s, "exclusiveGw");
  if (type == "parallel" || type == "parallelGw") return bpmn_symbol(s, "parallelGw");
  if (type == "inclusive" || type == "inclusiveGw") return bpmn_symbol(s, "inclusiveGw");
  if (type == "complex" || type == "complexGw") {
    bpmn_symbol(s, "exclusiveGw");
    bpmn_symbol(s, "parallelGw");
  }
}

// The older all-in-one BPMN shape: a gateway when its perimeter or symbol says so, else an event.
void bpmn_shape(ShapeContext& s) {
  const bool gateway =
      s.style.text("perimeter").starts_with("rhombus") || s.style.text("symbol").ends_with("Gw");
  (gateway ? bpmn_gateway : bpmn_event)(s);
}

// ---- basic (mxgraph.basic.*) -----------------------------------------------------------------

// A rectangle whose corners are each square, rounded or snipped (rectStyle and the per-corner
// topLeftStyle… keys), `size` px deep.
void basic_rect(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double r = std::clamp(s.style.number("size", 10), 0.0, std::min(w, h) / 2);
  const std::string_view base = s.style.text("rectStyle", "square");
  const auto corner = [&](std::string_view key) { return s.style.text(key, base); };
  const std::array<std::string_view, 4> styles = {corner("topLeftStyle"), corner("topRightStyle"),
                                                  corner("bottomRightStyle"),
                                                  corner("bottomLeftStyle")};
  // Corner i sits at `at`; `in` and `out` point along the edges into and out of it.
  const std::array<Vec, 4> at = {Vec{x, y}, Vec{x + w, y}, Vec{x + w, y + h}, Vec{x, y + h}};
  const std::array<Vec, 4> along = {Vec{1, 0}, Vec{0, 1}, Vec{-1, 0}, Vec{0, -1}};
  PathData d;
  for (std::size_t i = 0; i < 4; ++i) {
    const Vec in = at[i] - along[(i + 3) % 4] * r, out = at[i] + along[i] * r;
    const bool first = i == 0;
    if (styles[i] == "rounded") {
      first ? d.move(in) : d.line(in);
      d.quad(at[i].x, at[i].y, out.x, out.y);
    } else if (styles[i] == "snip") {
      first ? d.move(in) : d.line(in);
      d.line(out);
    } else {
      first ? d.move(at[i]) : d.line(at[i]);
    }
  }
  write_path(s.svg, d.close(), s.paint);
}

void basic_x(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, t = std::min(w, h) * 0.15;
  write_polygon(s, {{0, 0},
                    {t, 0},
                    {w / 2, h / 2 - t},
                    {w - t, 0},
                    {w, 0},
                    {w, t},
                    {w / 2 + t, h / 2},
                    {w, h - t},
                    {w, h},
                    {w - t, h},
                    {w / 2, h / 2 + t},
                    {t, h},
                    {0, h},
                    {0, h - t},
                    {w / 2 - t, h / 2},
                    {0, t}});
}

void oval_callout(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h;
  const double rx = w / 2, ry = h * 0.42, cy = y + ry;
  PathData d;
  d.move(x + w * 0.3, cy + ry * 0.92).line(x + w * 0.12, y + h).line(x + w * 0.45, cy + ry * 0.99);
  d.arc(rx, ry, 0, true, false, x + w * 0.3, cy + ry * 0.92);
  write_path(s.svg, d.close(), s.paint);
}

// A ring sector: startAngle and endAngle in turns clockwise from 12 o'clock, arcWidth the ring's
// thickness as a fraction of the radius.
void part_conc_ellipse(ShapeContext& s) {
  const double cx = s.b.x + s.b.w / 2, cy = s.b.y + s.b.h / 2, rx = s.b.w / 2, ry = s.b.h / 2;
  const double start = std::clamp(s.style.number("startAngle", 0.25), 0.0, 1.0);
  double end = std::clamp(s.style.number("endAngle", 0.1), 0.0, 1.0);
  if (end <= start) end += 1;
  const double inner = 1 - std::clamp(s.style.number("arcWidth", 0.5), 0.0, 1.0);
  const auto point = [&](double turn, double k) {
    const double a = 2 * std::numbers::pi * turn;
    return Vec{cx + rx * k * std::sin(a), cy - ry * k * std::cos(a)};
  };
  const bool large = end - start > 0.5;
  PathData d;
  d.move(point(start, 1)).arc(rx, ry, 0, large, true, point(end, 1).x, point(end, 1).y);
  d.line(point(end, inner));
  d.arc(rx * inner, ry * inner, 0, large, false, point(start, inner).x, point(start, inner).y);
  write_path(s.svg, d.close(), s.paint);
}

// ---- floorplan (mxgraph.floorplan.*) ---------------------------------------------------------

double wall_thickness(const ShapeContext& s) {
  return std::clamp(s.style.number("wallThickness", 10), 0.0, std::min(s.b.w, s.b.h) * 10);
}

void wall(ShapeContext& s) {
  const double t = wall_thickness(s);
  const Box all = s.b;
  s.b = Box{all.x, all.y + all.h / 2 - t / 2, all.w, t};
  write_rect(s, 0);
  s.b = all;
}

void wall_corner(ShapeContext& s) {
  const double w = s.b.w, h = s.b.h, t = std::min({wall_thickness(s), w, h});
  write_polygon(s, {{0, h}, {0, 0}, {w, 0}, {w, t}, {t, t}, {t, h}});
}

void window(ShapeContext& s) {
  wall(s);
  write_polyline(s, {{0, s.b.h / 2}, {s.b.w, s.b.h / 2}});
}

void door(ShapeContext& s, bool left) {
  const double x = s.b.x, y = s.b.y, w = s.b.w;
  const Box all = s.b;
  s.b.h = std::min(5.0, all.h);
  write_rect(s, 0);
  s.b = all;
  PathData d;
  if (left) {
    d.move(x + w, y + 5).arc(w, w, 0, false, true, x, y + 5 + w).line(x, y + 5);
  } else {
    d.move(x, y + 5).arc(w, w, 0, false, false, x + w, y + 5 + w).line(x + w, y + 5);
  }
  write_path(s.svg, d, s.paint, false);
}

// Stairs: treads every 25 px and an arrow along the middle (at least 50 px long).
void stairs(ShapeContext& s) {
  const double w = std::max(s.b.w, 50.0), h = s.b.h, step = 25;
  const Box all = s.b;
  s.b.w = w;
  write_rect(s, 0);
  PathData d;
  for (double at = step; at < w && at < 1000 * step; at += step)
    d.move(all.x + at, all.y).line(all.x + at, all.y + h);
  d.move(all.x, all.y + h / 2).line(all.x + w, all.y + h / 2);
  d.move(all.x + w - step, all.y).line(all.x + w, all.y + h / 2).line(all.x + w - step, all.y + h);
  write_path(s.svg, d, s.paint, false);
  s.b = all;
}

// ---- frames and cards ------------------------------------------------------------------------

double corner_radius(const ShapeContext& s) {
  if (!s.style.flag("rounded", false)) return 0;
  if (s.style.flag("absoluteArcSize", false))
    return std::max(0.0, s.style.number("arcSize", 20) / 2);
  return std::min(s.b.w, s.b.h) * std::clamp(s.style.number("arcSize", 15), 0.0, 100.0) / 100;
}

void double_rect(ShapeContext& s) {
  const Box all = s.b;
  const double d = std::min({8.0, all.w / 4, all.h / 4}), r = corner_radius(s);
  s.b = Box{all.x + d, all.y, all.w - d, all.h - d};
  write_rect(s, r);
  s.b = Box{all.x, all.y + d, all.w - d, all.h - d};
  write_rect(s, r);
  s.b = all;
}

void frame(ShapeContext& s) {
  write_rect(s, corner_radius(s));
}

void curly_brace(ShapeContext& s) {
  const double x = s.b.x, y = s.b.y, w = s.b.w, h = s.b.h, r = std::min(w / 4, h / 2);
  PathData d;
  d.move(x, y + h).quad(x, y + h / 2, x + r, y + h / 2).line(x + w / 2 - r, y + h / 2);
  d.quad(x + w / 2, y + h / 2, x + w / 2, y).quad(x + w / 2, y + h / 2, x + w / 2 + r, y + h / 2);
  d.line(x + w - r, y + h / 2).quad(x + w, y + h / 2, x + w, y + h);
  write_path(s.svg, d, s.paint, false);
}

constexpr std::array kLibrary = {
    // flowchart
    ShapeEntry{"mxgraph.flowchart.process", [](ShapeContext& s) { write_rect(s, 0); }},
    ShapeEntry{"mxgraph.flowchart.decision", [](ShapeContext& s) { write_rhombus(s); }},
    ShapeEntry{"mxgraph.flowchart.terminator", terminator},
    ShapeEntry{"mxgraph.flowchart.document", [](ShapeContext& s) { draw_as(s, "document"); }},
    ShapeEntry{"mxgraph.flowchart.multi-document", multi_document},
    ShapeEntry{"mxgraph.flowchart.data", [](ShapeContext& s) { draw_as(s, "parallelogram"); }},
    ShapeEntry{"mxgraph.flowchart.predefined_process", predefined_process},
    ShapeEntry{"mxgraph.flowchart.manual_input",
               [](ShapeContext& s) { draw_as(s, "manualInput"); }},
    ShapeEntry{"mxgraph.flowchart.manual_operation", manual_operation},
    ShapeEntry{"mxgraph.flowchart.stored_data", [](ShapeContext& s) { draw_as(s, "dataStorage"); }},
    ShapeEntry{"mxgraph.flowchart.on-page_reference", [](ShapeContext& s) { write_ellipse(s); }},
    ShapeEntry{"mxgraph.flowchart.off-page_reference",
               [](ShapeContext& s) { draw_as(s, "offPageConnector"); }},
    ShapeEntry{"mxgraph.flowchart.delay", [](ShapeContext& s) { draw_as(s, "delay"); }},
    ShapeEntry{"mxgraph.flowchart.display", [](ShapeContext& s) { draw_as(s, "display"); }},
    ShapeEntry{"mxgraph.flowchart.extract_or_measurement", triangle_up},
    ShapeEntry{"mxgraph.flowchart.merge_or_storage", triangle_down},
    ShapeEntry{"mxgraph.flowchart.collate", [](ShapeContext& s) { draw_as(s, "collate"); }},
    ShapeEntry{"mxgraph.flowchart.sort", [](ShapeContext& s) { draw_as(s, "sortShape"); }},
    ShapeEntry{"mxgraph.flowchart.summing_function",
               [](ShapeContext& s) { draw_as(s, "sumEllipse"); }},
    ShapeEntry{"mxgraph.flowchart.or", [](ShapeContext& s) { draw_as(s, "orEllipse"); }},
    ShapeEntry{"mxgraph.flowchart.preparation", [](ShapeContext& s) { draw_as(s, "hexagon"); }},
    ShapeEntry{"mxgraph.flowchart.database", [](ShapeContext& s) { draw_as(s, "cylinder"); }},
    ShapeEntry{"mxgraph.flowchart.direct_data", direct_data},
    ShapeEntry{"mxgraph.flowchart.sequential_data", sequential_data},
    ShapeEntry{"mxgraph.flowchart.card", [](ShapeContext& s) { draw_as(s, "card"); }},
    ShapeEntry{"mxgraph.flowchart.paper_tape", [](ShapeContext& s) { draw_as(s, "tape"); }},
    ShapeEntry{"mxgraph.flowchart.loop_limit", [](ShapeContext& s) { draw_as(s, "loopLimit"); }},
    ShapeEntry{"mxgraph.flowchart.internal_storage",
               [](ShapeContext& s) { draw_as(s, "internalStorage"); }},
    ShapeEntry{"mxgraph.flowchart.start_1", [](ShapeContext& s) { write_ellipse(s); }},
    ShapeEntry{"mxgraph.flowchart.start_2", [](ShapeContext& s) { write_ellipse(s); }},
    ShapeEntry{"mxgraph.flowchart.annotation_1", annotation},
    ShapeEntry{"mxgraph.flowchart.annotation_2", annotation},
    // logic gates
    ShapeEntry{"mxgraph.electrical.logic_gates.logic_gate", logic_gate},
    ShapeEntry{"mxgraph.electrical.logic_gates.and",
               [](ShapeContext& s) { gate(s, Gate::and_gate, false, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.nand",
               [](ShapeContext& s) { gate(s, Gate::and_gate, true, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.or",
               [](ShapeContext& s) { gate(s, Gate::or_gate, false, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.nor",
               [](ShapeContext& s) { gate(s, Gate::or_gate, true, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.xor",
               [](ShapeContext& s) { gate(s, Gate::xor_gate, false, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.xnor",
               [](ShapeContext& s) { gate(s, Gate::xor_gate, true, 2); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.buffer",
               [](ShapeContext& s) { gate(s, Gate::buffer, false, 1); }},
    ShapeEntry{"mxgraph.electrical.logic_gates.inverter",
               [](ShapeContext& s) { gate(s, Gate::buffer, true, 1); }},
    // BPMN
    ShapeEntry{"mxgraph.bpmn.task", bpmn_task},
    ShapeEntry{"mxgraph.bpmn.event", bpmn_event},
    ShapeEntry{"mxgraph.bpmn.gateway", bpmn_gateway},
    ShapeEntry{"mxgraph.bpmn.gateway2", bpmn_gateway},
    ShapeEntry{"mxgraph.bpmn.shape", bpmn_shape},
    ShapeEntry{"mxgraph.bpmn.conversation", [](ShapeContext& s) { draw_as(s, "hexagon"); }},
    ShapeEntry{"mxgraph.bpmn.data", [](ShapeContext& s) { draw_as(s, "note"); }},
    // basic
    ShapeEntry{"mxgraph.basic.rect", basic_rect},
    ShapeEntry{"mxgraph.basic.x", basic_x},
    ShapeEntry{"mxgraph.basic.oval_callout", oval_callout},
    ShapeEntry{"mxgraph.basic.partConcEllipse", part_conc_ellipse},
    ShapeEntry{"mxgraph.basic.triangle_acute", triangle_up},
    ShapeEntry{"mxgraph.basic.cross", [](ShapeContext& s) { draw_as(s, "cross"); }},
    // floorplan
    ShapeEntry{"mxgraph.floorplan.wall", wall},
    ShapeEntry{"mxgraph.floorplan.wallCorner", wall_corner},
    ShapeEntry{"mxgraph.floorplan.window", window},
    ShapeEntry{"mxgraph.floorplan.doorLeft", [](ShapeContext& s) { door(s, true); }},
    ShapeEntry{"mxgraph.floorplan.doorRight", [](ShapeContext& s) { door(s, false); }},
    ShapeEntry{"mxgraph.floorplan.stairs", stairs},
    // frames, cards, markup
    ShapeEntry{"mxgraph.aws4.group", frame},
    ShapeEntry{"mxgraph.aws4.groupCenter", frame},
    ShapeEntry{"mxgraph.gcp2.doubleRect", double_rect},
    ShapeEntry{"mxgraph.mockup.markup.curlyBrace", curly_brace},
};

}  // namespace

std::span<const ShapeEntry> library_shapes() {
  return kLibrary;
}

}  // namespace fcp::drawio::render::detail

// Arrowheads, after mxMarker and draw.io's ER markers.
#include <algorithm>
#include <array>

#include "domains/drawio/export/svg_edges.hpp"

namespace fcp::drawio::render::detail {
namespace {

using Fill = MarkerPart::Fill;

Fill fill_for(const ArrowEnd& end) {
  return end.filled ? Fill::stroke : Fill::none;
}

// A unit perpendicular to the edge direction.
Vec normal(const ArrowEnd& end) {
  return {-end.unit.y, end.unit.x};
}

// classic, classicThin, block, blockThin (mxMarker.createArrow).
Marker arrow(const ArrowEnd& end, double width_factor, bool notch) {
  const Vec offset = end.unit * (end.stroke_width * 1.118);
  const Vec u = end.unit * (end.size + end.stroke_width);
  const Vec pt = end.tip - offset;
  const Vec left{pt.x - u.x - u.y / width_factor, pt.y - u.y + u.x / width_factor};
  const Vec right{pt.x + u.y / width_factor - u.x, pt.y - u.y - u.x / width_factor};
  MarkerPart part{{pt, left}, true, fill_for(end), std::nullopt};
  if (notch) part.points.push_back(pt - u * 0.75);
  part.points.push_back(right);
  return {{part}, end.tip - u * (notch ? 0.75 : 1.0) - offset};
}

Marker open_arrow(const ArrowEnd& end, double width_factor) {
  const Vec offset = end.unit * (end.stroke_width * 1.118);
  const Vec u = end.unit * (end.size + end.stroke_width);
  const Vec pt = end.tip - offset;
  const Vec left{pt.x - u.x - u.y / width_factor, pt.y - u.y + u.x / width_factor};
  const Vec right{pt.x + u.y / width_factor - u.x, pt.y - u.y - u.x / width_factor};
  return {{MarkerPart{{left, pt, right}, false, Fill::none, std::nullopt}}, end.tip - offset * 2};
}

Marker diamond(const ArrowEnd& end, bool thin) {
  const Vec offset = end.unit * (end.stroke_width * (thin ? 0.9862 : 0.7071));
  const Vec u = end.unit * (end.size + end.stroke_width);
  const Vec pt = end.tip - offset;
  const double k = thin ? 3.4 : 2;
  const Vec a{pt.x - u.x / 2 - u.y / k, pt.y + u.x / k - u.y / 2};
  const Vec b{pt.x - u.x / 2 + u.y / k, pt.y - u.y / 2 - u.x / k};
  return {{MarkerPart{{pt, a, pt - u, b}, true, fill_for(end), std::nullopt}},
          end.tip - u - offset};
}

MarkerPart circle(Vec center, double radius, Fill fill) {
  return MarkerPart{{center}, false, fill, radius};
}

// A bar across the edge at `distance` back from the tip, `half` px to each side.
MarkerPart bar(const ArrowEnd& end, double distance, double half) {
  const Vec at = end.tip - end.unit * distance;
  return MarkerPart{
      {at + normal(end) * half, at - normal(end) * half}, false, Fill::none, std::nullopt};
}

// Crow's foot: three lines fanning out from `depth` back to the tip.
MarkerPart crow_foot(const ArrowEnd& end, double depth, double half) {
  const Vec base = end.tip - end.unit * depth;
  return MarkerPart{{end.tip + normal(end) * half, base, end.tip - normal(end) * half},
                    false,
                    Fill::none,
                    std::nullopt};
}

Marker er_marker(std::string_view kind, const ArrowEnd& end) {
  const double s = std::max(end.size, 10.0) + end.stroke_width;
  const double half = s / 2;
  Marker marker{{}, end.tip};
  if (kind == "ERone") marker.parts.push_back(bar(end, s * 0.6, half));
  if (kind == "ERmandOne") {
    marker.parts.push_back(bar(end, s * 0.5, half));
    marker.parts.push_back(bar(end, s * 0.9, half));
  }
  if (kind == "ERmany" || kind == "ERoneToMany" || kind == "ERzeroToMany") {
    marker.parts.push_back(crow_foot(end, s, half));
    marker.parts.push_back(
        MarkerPart{{end.tip, end.tip - end.unit * s}, false, Fill::none, std::nullopt});
  }
  if (kind == "ERoneToMany") marker.parts.push_back(bar(end, s * 1.3, half));
  if (kind == "ERzeroToOne") marker.parts.push_back(bar(end, s * 0.5, half));
  if (kind == "ERzeroToMany" || kind == "ERzeroToOne") {
    const double r = s / 3;
    const double at = kind == "ERzeroToMany" ? s + r + 1 : s * 0.5 + r + 3;
    marker.parts.push_back(circle(end.tip - end.unit * at, r, Fill::white));
  }
  return marker;
}

Marker other_marker(std::string_view kind, const ArrowEnd& end) {
  const double s = end.size + end.stroke_width;
  const Vec n = normal(end);
  if (kind == "oval") {
    return {{circle(end.tip, end.size / 2, fill_for(end))}, end.tip - end.unit * (end.size / 2)};
  }
  if (kind == "circle" || kind == "circlePlus") {
    const double r = s / 2;
    const Vec c = end.tip - end.unit * r;
    Marker marker{{circle(c, r, end.filled && kind == "circle" ? Fill::stroke : Fill::white)},
                  end.tip - end.unit * (2 * r)};
    if (kind == "circlePlus") {
      marker.parts.push_back(
          {{c - end.unit * r, c + end.unit * r}, false, Fill::none, std::nullopt});
      marker.parts.push_back({{c - n * r, c + n * r}, false, Fill::none, std::nullopt});
    }
    return marker;
  }
  if (kind == "box") {
    const Vec back = end.tip - end.unit * s;
    return {{MarkerPart{{end.tip + n * (s / 2), back + n * (s / 2), back - n * (s / 2),
                         end.tip - n * (s / 2)},
                        true,
                        fill_for(end),
                        std::nullopt}},
            back};
  }
  if (kind == "dash") {
    const Vec at = end.tip - end.unit * (s / 2);
    const Vec slant = (end.unit + n) * (s / 2);
    return {{MarkerPart{{at - slant, at + slant}, false, Fill::none, std::nullopt}}, end.tip};
  }
  if (kind == "cross") {
    const Vec at = end.tip - end.unit * (s / 2);
    const Vec a = (end.unit + n) * (s / 2), b = (end.unit - n) * (s / 2);
    return {{MarkerPart{{at - a, at + a}, false, Fill::none, std::nullopt},
             MarkerPart{{at - b, at + b}, false, Fill::none, std::nullopt}},
            end.tip};
  }
  if (kind == "baseDash") return {{bar(end, 0, s / 2)}, end.tip};
  if (kind == "halfCircle") {
    const double r = s / 2;
    const Vec c = end.tip - end.unit * r;
    return {{MarkerPart{{c + n * r, c + n * r - end.unit * r, c - n * r - end.unit * r, c - n * r},
                        false,
                        Fill::none,
                        std::nullopt}},
            end.tip};
  }
  if (kind == "async" || kind == "openAsync") {
    const Vec back = end.tip - end.unit * s;
    return {{MarkerPart{{end.tip, back + n * (s / 2), back},
                        kind == "async",
                        kind == "async" ? fill_for(end) : Fill::none,
                        std::nullopt}},
            kind == "async" ? back : end.tip};
  }
  return {{}, end.tip};
}

}  // namespace

std::optional<Marker> make_marker(std::string_view kind, const ArrowEnd& end) {
  if (kind.empty() || kind == "none" || end.size <= 0) return std::nullopt;
  if (kind == "classic") return arrow(end, 2, true);
  if (kind == "classicThin") return arrow(end, 3, true);
  if (kind == "block") return arrow(end, 2, false);
  if (kind == "blockThin") return arrow(end, 3, false);
  if (kind == "open") return open_arrow(end, 2);
  if (kind == "openThin") return open_arrow(end, 3);
  if (kind == "diamond") return diamond(end, false);
  if (kind == "diamondThin") return diamond(end, true);
  if (kind == "doubleBlock") {
    Marker first = arrow(end, 2, false);
    ArrowEnd second_end = end;
    second_end.tip = first.line_end;
    Marker second = arrow(second_end, 2, false);
    first.parts.push_back(second.parts.front());
    first.line_end = second.line_end;
    return first;
  }
  if (kind.starts_with("ER")) {
    Marker marker = er_marker(kind, end);
    if (marker.parts.empty()) return std::nullopt;
    return marker;
  }
  Marker marker = other_marker(kind, end);
  if (marker.parts.empty()) return std::nullopt;
  return marker;
}

}  // namespace fcp::drawio::render::detail

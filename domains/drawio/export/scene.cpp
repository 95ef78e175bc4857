#include "domains/drawio/export/scene.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/call_scope.hpp"
#include "domains/drawio/export/svg_edges.hpp"
#include "domains/drawio/export/svg_style.hpp"
#include "domains/drawio/export/svg_xml.hpp"

namespace fcp::drawio::render::detail {

Perimeter perimeter_of(const StyleView& style) {
  const std::string_view perimeter = style.text("perimeter");
  const std::string_view shape = style.shape();
  if (perimeter.starts_with("ellipse") ||
      (perimeter.empty() && (shape == "ellipse" || shape == "doubleEllipse"))) {
    return Perimeter::ellipse;
  }
  if (perimeter.starts_with("rhombus") || (perimeter.empty() && shape == "rhombus")) {
    return Perimeter::rhombus;
  }
  if (perimeter.starts_with("hexagon")) return Perimeter::hexagon;
  if (perimeter.starts_with("parallelogram")) return Perimeter::parallelogram;
  return Perimeter::rectangle;
}

// The slant of a hexagon or parallelogram perimeter, px, as its shape is drawn: `size` is a
// fraction of the width (0.25 hexagon, 0.2 parallelogram) unless fixedSize=1 (px, 20), and at
// most half the width.
double perimeter_size(const StyleView& style, Perimeter perimeter, double width) {
  if (perimeter != Perimeter::hexagon && perimeter != Perimeter::parallelogram) return 0;
  const bool fixed = style.flag("fixedSize", false);
  const double fraction = perimeter == Perimeter::hexagon ? 0.25 : 0.2;
  const double size = style.number("size", fixed ? 20 : fraction);
  return std::clamp(fixed ? size : size * width, 0.0, std::max(0.0, width / 2));
}

namespace {

// Cells added to a scene between two asks whether the call must stop.
constexpr std::size_t kStopCheckCells = 1024;

constexpr int kMaxDepth = 256;         // nesting levels drawn
constexpr int kMaxResolveDepth = 512;  // nested origin/route lookups
constexpr std::size_t kMaxWaypoints = 1000;

Vec clamped(Vec v) {
  return {clamp_coordinate(v.x), clamp_coordinate(v.y)};
}

Vec point_of(const Point& p) {
  return clamped({p.x_or_zero(), p.y_or_zero()});
}

class SceneBuilder {
 public:
  explicit SceneBuilder(const Page& page)
      : page_(page), root_(page.root_id()), children_(page.children_index()) {}

  Scene build() {
    for (const Cell* layer : page_.layers()) {
      if (layer->is_visible()) visit_children(*layer, 1);
    }
    Scene scene;
    std::size_t added = 0;
    for (const Cell* cell : order_) {
      // A call that must stop ends the scene here (see build_scene's contract).
      if (++added % kStopCheckCells == 0 && core::call_stop()) break;
      add_item(*cell, scene);
    }
    return scene;
  }

 private:
  void visit_children(const Cell& cell, int depth) {
    if (depth > kMaxDepth || cell.id.empty()) return;
    const auto found = children_.find(cell.id);
    if (found == children_.end()) return;
    for (const Cell* child : found->second) {
      if (!child->is_visible() || !visible_.insert(child).second) continue;
      order_.push_back(child);
      if (child->attributes.get("collapsed") != "1") visit_children(*child, depth + 1);
    }
  }

  const Cell* parent_of(const Cell& cell) const {
    return cell.parent ? page_.find(*cell.parent) : nullptr;
  }

  // mxCellState.origin: the absolute top-left of the cell's coordinate frame plus its offset.
  Vec origin(const Cell& cell) {
    if (const auto found = origins_.find(&cell); found != origins_.end()) return found->second;
    if (depth_ > kMaxResolveDepth || !origins_in_progress_.insert(&cell).second) return {};
    ++depth_;
    const Vec result = clamped(compute_origin(cell));
    --depth_;
    origins_in_progress_.erase(&cell);
    origins_.emplace(&cell, result);
    return result;
  }

  Vec compute_origin(const Cell& cell) {
    const Cell* parent = parent_of(cell);
    if (parent == nullptr || !parent->parent) return {};  // the root or a layer
    const Vec base = *parent->parent == root_ ? Vec{} : origin(*parent);
    if (!cell.geometry || cell.edge) return base;
    const Geometry& g = *cell.geometry;
    const Vec offset = g.offset ? point_of(*g.offset) : Vec{};
    if (!g.relative) return base + Vec{g.x.value_or(0), g.y.value_or(0)};
    if (parent->edge) {
      const std::vector<Vec>& route = edge_route(*parent);
      if (route.empty()) return base + offset;
      return point_on_route(route, g.x.value_or(0), g.y.value_or(0), offset);
    }
    const Box frame = vertex_box(*parent).value_or(Box{base.x, base.y, 0, 0});
    return base + Vec{g.x.value_or(0) * frame.w, g.y.value_or(0) * frame.h} + offset;
  }

  std::optional<Box> vertex_box(const Cell& cell) {
    if (!cell.geometry) return std::nullopt;
    const Vec at = origin(cell);
    const auto size = [](std::optional<double> v) {
      return std::clamp(clamp_coordinate(v.value_or(0)), 0.0, kMaxCoordinate);
    };
    return Box{at.x, at.y, size(cell.geometry->width), size(cell.geometry->height)};
  }

  Terminal terminal(const Cell& edge, bool source) {
    Terminal end;
    const std::optional<std::string>& id = source ? edge.source : edge.target;
    const Cell* cell = id ? page_.find(*id) : nullptr;
    if (cell != nullptr && visible_.contains(cell)) {
      if (cell->edge) {
        const std::vector<Vec>& route = edge_route(*cell);
        if (!route.empty()) end.fixed = point_on_route(route, 0, 0, {});
      } else {
        end.box = vertex_box(*cell);
        const StyleView style(*cell, false);
        end.perimeter = perimeter_of(style);
        if (end.box) end.size = perimeter_size(style, end.perimeter, end.box->w);
      }
    }
    const StyleView edge_style(edge, true);
    const std::string_view prefix = source ? "exit" : "entry";
    const std::string x_key = std::string(prefix) + "X", y_key = std::string(prefix) + "Y";
    if (end.box && edge_style.get(x_key) && edge_style.get(y_key)) {
      const double fx = std::clamp(edge_style.number(x_key, 0.5), -10.0, 10.0);
      const double fy = std::clamp(edge_style.number(y_key, 0.5), -10.0, 10.0);
      end.fixed = clamped(
          {end.box->x + fx * end.box->w + edge_style.number(std::string(prefix) + "Dx", 0),
           end.box->y + fy * end.box->h + edge_style.number(std::string(prefix) + "Dy", 0)});
    }
    if (!end.box && !end.fixed && edge.geometry) {
      const auto& point = source ? edge.geometry->source_point : edge.geometry->target_point;
      if (point) end.fixed = origin(edge) + point_of(*point);
    }
    return end;
  }

  const std::vector<Vec>& edge_route(const Cell& edge) {
    static const std::vector<Vec> kNone;
    if (const auto found = routes_.find(&edge); found != routes_.end()) return found->second;
    if (depth_ > kMaxResolveDepth || !routes_in_progress_.insert(&edge).second) return kNone;
    ++depth_;
    std::vector<Vec> route = compute_route(edge);
    --depth_;
    routes_in_progress_.erase(&edge);
    return routes_.emplace(&edge, std::move(route)).first->second;
  }

  std::vector<Vec> compute_route(const Cell& edge) {
    const Terminal source = terminal(edge, true);
    const Terminal target = terminal(edge, false);
    std::vector<Vec> waypoints;
    if (edge.geometry && edge.geometry->points) {
      const Vec base = origin(edge);
      for (const Point& p : *edge.geometry->points) {
        if (waypoints.size() == kMaxWaypoints) break;
        waypoints.push_back(clamped(base + point_of(p)));
      }
    }
    if (waypoints.empty() && edge.source && edge.source == edge.target && source.box &&
        !source.fixed && !target.fixed) {
      return self_loop(*source.box);
    }
    return route_edge(StyleView(edge, true), source, target, waypoints);
  }

  void add_item(const Cell& cell, Scene& scene) {
    SceneItem item;
    item.cell = &cell;
    item.edge = cell.edge;
    if (cell.edge) {
      item.route = edge_route(cell);
      if (item.route.size() < 2) return;
      const StyleView style(cell, true);
      const Geometry* g = cell.geometry ? &*cell.geometry : nullptr;
      const Vec offset = g && g->offset ? point_of(*g->offset) : Vec{};
      const Vec anchor =
          g && g->relative ? point_on_route(item.route, g->x.value_or(0), g->y.value_or(0), offset)
                           : point_on_route(item.route, 0, 0, offset);
      item.label = layout_label(cell, style, Box{anchor.x, anchor.y, 0, 0});
      const double margin = style.number("endSize", 6) + style.number("strokeWidth", 1) + 10;
      for (Vec p : item.route)
        include(scene.bounds, scene.has_bounds,
                {p.x - margin / 2, p.y - margin / 2, margin, margin});
    } else if (cell.vertex) {
      const auto box = vertex_box(cell);
      if (!box) return;
      item.box = *box;
      const StyleView style(cell, false);
      item.rotation = std::clamp(style.number("rotation", 0), -360.0, 360.0);
      item.label = layout_label(cell, style, item.box);
      if (item.box.w > 0 || item.box.h > 0)
        include(scene.bounds, scene.has_bounds, rotated_bounds(item.box, item.rotation));
    } else {
      return;
    }
    if (item.label) include(scene.bounds, scene.has_bounds, label_bounds(*item.label));
    scene.items.push_back(std::move(item));
  }

  static Box rotated_bounds(const Box& box, double degrees) {
    if (degrees == 0) return box;
    const double r = degrees * 3.14159265358979323846 / 180;
    const double c = std::abs(std::cos(r)), s = std::abs(std::sin(r));
    const double w = box.w * c + box.h * s, h = box.w * s + box.h * c;
    const Vec center = box.center();
    return {center.x - w / 2, center.y - h / 2, w, h};
  }

  const Page& page_;
  std::string_view root_;
  std::unordered_map<std::string_view, std::vector<const Cell*>> children_;
  std::vector<const Cell*> order_;
  std::unordered_set<const Cell*> visible_;
  std::unordered_map<const Cell*, Vec> origins_;
  std::unordered_map<const Cell*, std::vector<Vec>> routes_;
  // Cells whose origin or route is being computed: a cycle through them resolves to nothing.
  std::unordered_set<const Cell*> origins_in_progress_;
  std::unordered_set<const Cell*> routes_in_progress_;
  int depth_ = 0;
};

}  // namespace

Scene build_scene(const Page& page) {
  return SceneBuilder(page).build();
}

}  // namespace fcp::drawio::render::detail

#include "domains/drawio/layout/drawing.hpp"

#include <algorithm>
#include <map>

namespace fcp::drawio::layout::detail {

Box unite(const Box& a, const Box& b) {
  const double x = std::min(a.x, b.x), y = std::min(a.y, b.y);
  return Box{x, y, std::max(a.right(), b.right()) - x, std::max(a.bottom(), b.bottom()) - y};
}

Box inflate(const Box& box, double left, double top, double right, double bottom) {
  return Box{box.x - left, box.y - top, box.w + left + right, box.h + top + bottom};
}

void translate(Drawing& drawing, double dx, double dy) {
  for (Box& box : drawing.nodes) {
    box.x += dx;
    box.y += dy;
  }
  for (std::optional<Box>& box : drawing.clusters) {
    if (!box) continue;
    box->x += dx;
    box->y += dy;
  }
  const double along = drawing.vertical_ranks ? dy : dx;
  const double across = drawing.vertical_ranks ? dx : dy;
  for (Row& row : drawing.rows) {
    row.lo += along;
    row.hi += along;
  }
  for (std::vector<RowCrossing>& crossings : drawing.crossings) {
    for (RowCrossing& crossing : crossings)
      crossing.cross += across;
  }
  for (std::vector<Point2>& curve : drawing.curves) {
    for (Point2& point : curve) {
      point.x += dx;
      point.y += dy;
    }
  }
}

void build_rows(Drawing& drawing, const std::vector<int>& row_key_of_node) {
  std::map<int, Row> by_key;
  for (int node = 0; node < static_cast<int>(drawing.nodes.size()); ++node) {
    const int key = row_key_of_node[static_cast<size_t>(node)];
    if (key < 0) continue;
    const Box& box = drawing.nodes[static_cast<size_t>(node)];
    const double lo = drawing.vertical_ranks ? box.y : box.x;
    const double hi = drawing.vertical_ranks ? box.bottom() : box.right();
    auto [it, inserted] = by_key.try_emplace(key, Row{lo, hi, {}});
    it->second.lo = std::min(it->second.lo, lo);
    it->second.hi = std::max(it->second.hi, hi);
    it->second.nodes.push_back(node);
  }
  drawing.rows.clear();
  for (auto& [key, row] : by_key)
    drawing.rows.push_back(std::move(row));
  std::sort(drawing.rows.begin(), drawing.rows.end(),
            [](const Row& a, const Row& b) { return a.lo + a.hi < b.lo + b.hi; });
  drawing.node_row.assign(drawing.nodes.size(), -1);
  for (size_t row = 0; row < drawing.rows.size(); ++row) {
    for (int node : drawing.rows[row].nodes) {
      drawing.node_row[static_cast<size_t>(node)] = static_cast<int>(row);
    }
  }
}

std::vector<size_t> port_order(const std::vector<SideEnd>& ends, bool hub_blocks) {
  std::vector<size_t> order(ends.size());
  for (size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::sort(order.begin(), order.end(), [&ends](size_t a, size_t b) {
    return ends[a].next != ends[b].next ? ends[a].next < ends[b].next : ends[a].tie < ends[b].tie;
  });
  if (!hub_blocks) return order;
  double sum[2] = {0, 0};
  size_t count[2] = {0, 0};
  for (const SideEnd& end : ends) {
    sum[end.leaves ? 1 : 0] += end.next;
    ++count[end.leaves ? 1 : 0];
  }
  if (count[0] < kHubBlock || count[1] < kHubBlock) return order;
  const bool leaving_first =
      sum[1] / static_cast<double>(count[1]) < sum[0] / static_cast<double>(count[0]);
  std::stable_partition(order.begin(), order.end(),
                        [&](size_t k) { return ends[k].leaves == leaving_first; });
  return order;
}

bool has_hub_side(const Drawing& drawing, const IndexedGraph& graph) {
  if (drawing.node_row.size() != drawing.nodes.size()) return false;
  std::map<std::pair<int, int>, std::pair<size_t, size_t>> sides;  // → (leaving, arriving)
  for (const IndexedGraph::Edge& edge : graph.edges) {
    const int a = drawing.node_row[static_cast<size_t>(edge.source)],
              b = drawing.node_row[static_cast<size_t>(edge.target)];
    if (a < 0 || b < 0 || a == b) continue;
    auto& out = sides[{edge.source, b > a ? 1 : -1}];
    auto& in = sides[{edge.target, a > b ? 1 : -1}];
    ++out.first;
    ++in.second;
    if ((out.first >= kHubBlock && out.second >= kHubBlock) ||
        (in.first >= kHubBlock && in.second >= kHubBlock))
      return true;
  }
  return false;
}

}  // namespace fcp::drawio::layout::detail

// Keeps dot's run time bounded when long edges would give it tens of thousands of virtual nodes.
#pragma once

#include <optional>

#include "domains/drawio/layout/drawing.hpp"

namespace fcp::drawio::layout::detail {

// dot gives every edge one virtual node per rank it crosses; its x-coordinate network simplex
// then costs about (nodes + virtual nodes) × iterations, crossing minimisation and spline
// routing grow with the virtual nodes too. A graph of 1 000 nodes whose edges span hundreds of
// ranks would take minutes, so large ones get iteration limits (a valid, less tidy drawing).
struct DotBudget {
  std::optional<double> nslimit;  // dot's nslimit: x-coordinate iterations per real node
  std::optional<double> mclimit;  // dot's mclimit: scale of crossing-minimisation passes
  bool route_splines = true;      // whether dot's spline router is affordable
};

// An estimate of dot's virtual nodes (cycles broken by depth-first search, the smaller total
// span of longest-path ranking from the sources and from the sinks) and the limits that follow.
DotBudget dot_budget(const IndexedGraph& graph, size_t node_count);

}  // namespace fcp::drawio::layout::detail

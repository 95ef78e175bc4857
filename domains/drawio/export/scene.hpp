// Internal to the SVG renderer: a page reduced to what is drawn, in z-order, with absolute
// geometry.
#pragma once

#include <optional>
#include <vector>

#include "domains/drawio/export/svg_geometry.hpp"
#include "domains/drawio/export/svg_labels.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio::render::detail {

struct SceneItem {
  const Cell* cell = nullptr;
  bool edge = false;
  Box box;                 // vertices (edge label children included): absolute bounds
  std::vector<Vec> route;  // edges: absolute polyline, source first
  double rotation = 0;     // vertices: degrees about the box centre
  std::optional<LabelLayout> label;
};

struct Scene {
  std::vector<SceneItem> items;  // z-order: layers in order, then each cell before its children
  Box bounds;                    // everything drawn, labels and arrowheads included
  bool has_bounds = false;
};

// Resolves the page like mxGraphView: visible layers only; hidden cells, children of hidden or
// collapsed cells skipped; children positioned relative to their parent (relative children
// by fraction of its size); edge-label children along their edge; edges routed between their
// terminals' perimeters. Nesting deeper than a fixed limit is not drawn.
// Inside a call that must stop (core::call_stop) the scene ends early and is incomplete: a
// caller inside a call asks core::stop_error after it and drops the scene (the SVG renderer does).
Scene build_scene(const Page& page);

}  // namespace fcp::drawio::render::detail

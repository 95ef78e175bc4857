// An orthogonal route between two given ports that keeps off every box, the edge's own ends
// included: for edges whose ports are fixed (chosen by the user, or kept from the file) and for
// edges whose ends changed after a layout.
#pragma once

#include <optional>
#include <vector>

#include "domains/drawio/layout/graph_layout.hpp"

namespace fcp::drawio::layout {

// One end of a route: the shape's box and the port on it as fractions of the box's width and
// height from its top-left (draw.io's exitX/exitY or entryX/entryY). A port inside the box
// leaves through the nearest side.
struct PortEnd {
  ClusterBox box;
  Point2 port;
};

// Bend points (not the end points) of an orthogonal route that leaves `source` at its port
// straight out of its side, reaches `target` at its port straight into its side, and stays at
// least `clearance` px off every obstacle and off both end boxes, with as few bends as its
// length allows (the shortest route plus 2 clearances of length per bend avoided). Obstacles
// are searched in the region round both ends, widened until a route is found or it holds them
// all. nullopt when no such route exists (an end's port is covered by another box, or the ends
// overlap).
std::optional<std::vector<Point2>> route_between_ports(const PortEnd& source, const PortEnd& target,
                                                       const std::vector<ClusterBox>& obstacles,
                                                       double clearance = 10);

}  // namespace fcp::drawio::layout

// The geometry of a draw.io cell (<mxGeometry as="geometry">), with every child kept.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/boxed.hpp"
#include "domains/drawio/model/opt_double.hpp"
#include "domains/drawio/model/slot_list.hpp"
#include "domains/drawio/model/thin_vector.hpp"
#include "domains/drawio/model/xml_node.hpp"

namespace fcp::drawio {

// An <mxPoint>. mxGraph reads an absent coordinate as 0; absent is kept distinct so the point is
// written back as it was. `attributes` holds any others (the `as` role is implied by where the
// point sits and added by the writer).
struct Point {
  OptDouble x;
  OptDouble y;
  Attributes attributes;

  double x_or_zero() const { return x.value_or(0.0); }
  double y_or_zero() const { return y.value_or(0.0); }
  bool operator==(const Point&) const = default;
};

// Names the typed children of a geometry; `other` is the next entry of Geometry::children.
// Used only to write children back in the order they were read.
enum class GeometrySlot : std::uint8_t { source_point, target_point, points, offset, other };
// Names the typed attributes of a geometry; `other` is the next entry of Geometry::attributes.
enum class GeometryAttr : std::uint8_t { x, y, width, height, relative, as, other };

// Coordinates absent from the file stay nullopt (not 0). Attribute values that are not plain
// numbers (or a `relative` other than "1") stay in `attributes`, verbatim, like unknown ones.
// The four coordinates are OptDouble (8 bytes each, std::optional<double>'s interface): every cell
// has a geometry, so a 1 M-cell page saves 32 MB.
struct Geometry {
  OptDouble x;
  OptDouble y;
  OptDouble width;
  OptDouble height;
  bool relative = false;  // relative="1": edge geometry, or a child placed relative to its parent
  Attributes attributes;  // every other attribute except as="geometry" (the writer adds it)

  // Out of line (Boxed): most geometries have none of them.
  Boxed<Point> source_point;
  Boxed<Point> target_point;
  Boxed<std::vector<Point>> points;    // <Array as="points">, waypoints; may be empty
  Boxed<Point> offset;                 // label offset
  ThinVector<XmlNode> children;        // every other child, e.g. <mxRectangle as="alternateBounds">
  SlotList<GeometrySlot> child_order;  // document order of the children above, as read
  SlotList<GeometryAttr> attribute_order;  // document order of the attributes, as read

  bool operator==(const Geometry&) const = default;
};

}  // namespace fcp::drawio

// One draw.io cell (<mxCell>, optionally wrapped in <object>/<UserObject>), kept losslessly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/boxed.hpp"
#include "domains/drawio/model/geometry.hpp"
#include "domains/drawio/model/slot_list.hpp"
#include "domains/drawio/model/style.hpp"
#include "domains/drawio/model/thin_vector.hpp"
#include "domains/drawio/model/xml_node.hpp"

namespace fcp::drawio {

// Names the typed attributes of a cell; `other` is the next entry of the element's own
// Attributes. Slot lists only record where attributes were, so a writer can keep their order.
enum class CellSlot : std::uint8_t {
  id,
  value,
  style,
  parent,
  vertex,
  edge,
  source,
  target,
  other
};

// The <object> or <UserObject> element around an mxCell. In draw.io it carries the cell's id
// and its label (as `label`) plus custom properties; the inner mxCell then has neither.
struct Wrapper {
  std::string element = "object";        // "object", "UserObject", or whatever the file used
  Attributes attributes;                 // every attribute except the cell's id and label, in order
  std::vector<CellSlot> order;           // where id / label (CellSlot::value) / others sat, as read
  std::vector<XmlNode> children_before;  // children other than the mxCell, verbatim
  std::vector<XmlNode> children_after;

  bool operator==(const Wrapper&) const = default;
};

// What fcp knows about a cell for the editing session only: readers never set it and writers
// never write it, so a file carries nothing but draw.io's own fields. Part of the cell's value
// (copies, undo snapshots and equality include it).
struct SessionNotes {
  std::string type;   // the custom type (`define`) the shape was added as; "" = from its style
  std::string alias;  // the short name `add TYPE NAME label:"…"` gave it; "" = none
  // The user gave the shape its colours (theme: on add; fill: or theme: in style or modify): a
  // group's theme leaves them unless the op says members:all.
  bool own_colours = false;
  bool empty() const { return type.empty() && alias.empty() && !own_colours; }
  bool operator==(const SessionNotes&) const = default;
};

// Typed fields hold the values draw.io gives meaning to; everything else is kept verbatim in
// `attributes` and `children`. An attribute whose value does not fit its typed field (e.g.
// vertex="0", an empty id) stays in `attributes` as written.
//
// Contract: once a cell is in a Page, change its `id` only through Page::rename.
struct Cell {
  std::string id;                    // mxCell id, or the wrapper's; empty when the file had none
  std::optional<std::string> value;  // the label (may contain HTML and newlines)
  std::optional<Style> style;
  std::optional<std::string> parent;
  bool vertex = false;  // vertex="1"
  bool edge = false;    // edge="1"
  std::optional<std::string> source;
  std::optional<std::string> target;
  Attributes attributes;  // every other mxCell attribute (connectable, visible, collapsed, …)
  std::optional<Geometry> geometry;
  ThinVector<XmlNode> children;  // other mxCell children, verbatim, after the geometry
  Boxed<Wrapper> wrapper;        // out of line: most cells have none
  SlotList<CellSlot> order;      // where the <mxCell> attributes sat, as read; empty when new
  Boxed<SessionNotes> notes;     // never in a file; out of line: most cells have none

  bool operator==(const Cell&) const = default;

  // The value of a style key, or nullopt (also when the cell has no style).
  std::optional<std::string_view> style_value(std::string_view key) const;
  bool has_style_token(std::string_view bare) const;  // e.g. "text", "edgeLabel"

  bool is_text() const;       // bare `text` token (draw.io's text shape)
  bool is_swimlane() const;   // bare `swimlane` token or shape=swimlane
  bool is_container() const;  // container=1 or a swimlane; connectable="0" alone is NOT one
  bool is_visible() const;    // false for visible="0" (hidden layers and shapes)
  bool is_locked() const;     // style locked=1

  // The session notes' custom type and alias ("" when none).
  std::string_view note_type() const { return notes ? std::string_view(notes->type) : ""; }
  std::string_view note_alias() const { return notes ? std::string_view(notes->alias) : ""; }
  bool note_own_colours() const { return notes && notes->own_colours; }
  // Set one note ("" clears it); a cell whose notes are all empty holds none, so it equals a
  // cell that never had any.
  void set_note_type(std::string type);
  void set_note_alias(std::string alias);
  void set_note_own_colours(bool own);

  // A custom property: the wrapper attribute `name`, or nullopt (always for unwrapped cells).
  std::optional<std::string_view> property(std::string_view name) const;
};

}  // namespace fcp::drawio

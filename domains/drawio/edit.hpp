// Events of the drawio domain: every op records the cells, pages and document state it changed
// as before/after snapshots, so revert and replay are exact and cost what the op touched.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/transaction.hpp"
#include "domains/drawio/model/cell.hpp"
#include "domains/drawio/model/page.hpp"

namespace fcp::drawio {

struct CustomType {
  std::string name;
  std::string base;   // a built-in node type
  std::string theme;  // "" = the default
  std::string badge;  // "" = none
  std::optional<std::pair<double, double>> size;
  bool operator==(const CustomType&) const = default;
};

struct CustomTheme {
  std::string name, fill, stroke, font_color;
  bool operator==(const CustomTheme&) const = default;
};

// Document-wide state that is not a cell, kept for the session only (a draw.io file has no place
// for it and fcp writes no private fields): the title, custom types and themes, the stencil
// packs loaded (on open: those the file's shapes use), the active page and layers.
// Bits for the ends of an edge whose port the user set (DocumentState::user_ports).
inline constexpr std::uint8_t kExitPort = 1;
inline constexpr std::uint8_t kEntryPort = 2;

struct DocumentState {
  std::string title;
  std::map<std::string, CustomType> custom_types;
  std::map<std::string, CustomTheme> custom_themes;
  std::vector<std::string> loaded_packs;  // in load order
  std::size_t active_page = 0;
  std::vector<std::string> active_layers;  // per page: the layer new cells go to ("" = first)
  // Per page: the flow direction orient or layout set (TB, LR, BT, RL), "" = none set; without
  // one, the page's flow is read from its drawing (page_flow).
  std::vector<std::string> flows;
  // Edges whose ports the user set this session (connect or style with exit:/entry: or
  // draw.io's port keys), with which ends (kExitPort | kEntryPort): layout keeps those ports. Ports
  // a file brought or fcp chose are layout's to choose again; exit:auto / entry:auto take an end
  // back.
  std::map<std::string, std::uint8_t> user_ports;
  // Ids of the pages fcp made (a new document, `page add`): their page size is fcp's to keep
  // covering the diagram when saved. Pages read from a file keep the settings they have.
  std::set<std::string> sized_pages;
  bool operator==(const DocumentState&) const = default;
};

// One cell of one page, before and after the op (nullopt: absent). `*_next` is the id of the
// cell that followed it then, so a restored cell returns to its z-order position.
struct CellChange {
  std::size_t page = 0;
  std::string id;
  std::optional<Cell> before, after;
  std::string before_next, after_next;
};

// A page inserted, removed or changed in its attributes (its name).
struct PageChange {
  std::size_t index = 0;
  std::optional<Page> before, after;  // whole pages for insert/remove; attributes only otherwise
  bool attributes_only = false;
};

struct StateChange {
  DocumentState before, after;
};

// An edge whose ports fcp chose (and may move with its ends) or no longer does. Kept in the
// document's memory, not in the file: a file written by fcp carries only draw.io's own keys,
// and an edge read from a file keeps the ports it has.
struct PortChoiceChange {
  std::string edge;
  bool automatic = true;  // after the change
};

// A shape `add` gave its type's default size (no size:), with that size, or one that no longer
// counts as such (resized by the user). A layout may make such a shape longer for its ports while
// it still has that size (or the size an earlier layout gave it). Per shape, so that adding
// thousands of shapes records thousands of small changes, not copies of a growing table.
struct DefaultSizeChange {
  std::string shape;
  std::optional<std::pair<double, double>> before, after;
};

using Change =
    std::variant<CellChange, PageChange, StateChange, PortChoiceChange, DefaultSizeChange>;

class DrawioDocument;

// How one change applies to a diagram, for core's transaction and event scaffold.
struct DiagramChanges {
  using Model = DrawioDocument;
  using Change = drawio::Change;
  static void apply(DrawioDocument& document, const Change& change, bool forward);
  // The cells the changes created or changed (shapes among them are what @recent chooses).
  static std::vector<std::string> touched(const std::vector<Change>& changes);
};

// One op's changes to a diagram: the event the log keeps.
using DiagramEdit = core::ChangeEvent<DiagramChanges>;

}  // namespace fcp::drawio

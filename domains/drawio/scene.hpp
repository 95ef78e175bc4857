// The FCP view of a draw.io page: which cells are shapes, groups, edges and layers, their labels
// and types, absolute geometry, and the incremental index that resolves names in O(1).
#pragma once

#include <boost/unordered/unordered_flat_map.hpp>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/resolve.hpp"
#include "domains/drawio/frame_grid.hpp"
#include "domains/drawio/model/page.hpp"
#include "domains/drawio/model/thin_vector.hpp"
#include "domains/drawio/rect.hpp"

namespace fcp::drawio {

// What a cell is to FCP. Groups are containers (container=1, swimlanes, draw.io's `group`
// style); badges are the small labelled children fcp puts on shapes (is_badge_look).
enum class CellKind : std::uint8_t { root, layer, shape, group, edge, edge_label, badge, other };

// The look `badge` gives a badge: a small pill (rounded, arcSize 50, fontSize 10). A vertex
// with this look inside a shape is a badge, in this session and when the file is opened again:
// draw.io's own keys say it, no private key is needed.
inline constexpr std::string_view kBadgeStyle =
    "rounded=1;arcSize=50;whiteSpace=wrap;html=1;fontSize=10;fillColor=#f8cecc;"
    "strokeColor=#b85450;";
bool is_badge_look(const Cell& cell);

bool is_group_style(const Cell& cell);
bool is_html(const Cell& cell);
// The label as plain text (see label_text).
std::string cell_label(const Cell& cell);
// The stencil pack (data::stencil_packs) whose shape the cell draws, or "".
std::string_view stencil_pack_of(const Cell& cell);
// A cell's name for messages: its first label line, at most 40 characters (then "…"), or #id.
std::string message_name(const Cell& cell);
// The FCP node type: the custom type the session added it as, a stencil id, or inferred from
// the draw.io style (cylinder → db, hexagon → api, …, rounded → svc, else box; text → "text").
std::string shape_type(const Cell& cell);

// Geometry of a cell in page coordinates: its own x/y plus the origins of the vertices it is
// nested in. Cells without geometry get an empty rect at their parent's origin.
Rect absolute_rect(const Page& page, const Cell& cell);
// The page coordinates of the origin children of `parent_id` are relative to (0,0 for layers).
std::pair<double, double> child_origin(const Page& page, std::string_view parent_id);

// Incremental index of one page. The document calls add() after inserting or changing a cell
// and remove() before erasing or changing it; lookups are then O(1) expected.
// Each id the page mentions (a cell's, or a parent, source or target without a cell) has one
// node holding the id once; entries and lists link nodes by number, not by copies of the id.
// Thread: owned by the document.
class PageIndex {
  using Slot = std::uint32_t;
  struct Node;

 public:
  // What the index knows of a cell. The views are valid until the next change to the index.
  struct Entry {
    CellKind kind = CellKind::other;
    std::string_view source, target;  // edges ("" when the end is unset)
    std::string_view parent;          // "" for the root
  };

  // Ids the index holds (children, incident edges), as a view: valid until the next change to
  // the index. Copy it (to_vector) before editing while iterating.
  class IdList {
   public:
    class Iterator {
     public:
      using iterator_category = std::random_access_iterator_tag;
      using value_type = std::string;
      using difference_type = std::ptrdiff_t;
      using pointer = const std::string*;
      using reference = const std::string&;
      Iterator() = default;
      Iterator(const PageIndex* index, const Slot* at) : index_(index), at_(at) {}
      reference operator*() const { return index_->nodes_[*at_].id; }
      pointer operator->() const { return &**this; }
      reference operator[](difference_type n) const { return index_->nodes_[at_[n]].id; }
      Iterator& operator++() {
        ++at_;
        return *this;
      }
      Iterator operator++(int) { return {index_, at_++}; }
      Iterator& operator--() {
        --at_;
        return *this;
      }
      Iterator operator--(int) { return {index_, at_--}; }
      Iterator& operator+=(difference_type n) {
        at_ += n;
        return *this;
      }
      Iterator& operator-=(difference_type n) {
        at_ -= n;
        return *this;
      }
      friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
      friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
      friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
      friend difference_type operator-(const Iterator& a, const Iterator& b) {
        return a.at_ - b.at_;
      }
      friend bool operator==(const Iterator& a, const Iterator& b) { return a.at_ == b.at_; }
      friend auto operator<=>(const Iterator& a, const Iterator& b) { return a.at_ <=> b.at_; }

     private:
      const PageIndex* index_ = nullptr;
      const Slot* at_ = nullptr;
    };

    IdList() = default;
    IdList(const PageIndex* index, const std::vector<Slot>* slots) : index_(index), slots_(slots) {}
    Iterator begin() const { return {index_, slots_ ? slots_->data() : nullptr}; }
    Iterator end() const { return {index_, slots_ ? slots_->data() + slots_->size() : nullptr}; }
    std::size_t size() const { return slots_ ? slots_->size() : 0; }
    bool empty() const { return size() == 0; }
    const std::string& operator[](std::size_t i) const { return index_->nodes_[(*slots_)[i]].id; }
    const std::string& front() const { return (*this)[0]; }
    std::vector<std::string> to_vector() const { return {begin(), end()}; }

   private:
    const PageIndex* index_ = nullptr;
    const std::vector<Slot>* slots_ = nullptr;
  };

  PageIndex() = default;
  // Not copyable: the id table views the nodes' ids (moving keeps them where they are).
  PageIndex(const PageIndex&) = delete;
  PageIndex& operator=(const PageIndex&) = delete;
  PageIndex(PageIndex&&) = default;
  PageIndex& operator=(PageIndex&&) = default;
  ~PageIndex() = default;

  void rebuild(const Page& page);
  // rebuild() for a document being opened: ends early, the index incomplete, once the call
  // must stop (core::call_stop). Only for a document its opener then drops (DrawioDomain::load
  // asks core::stop_error after building one); false when it ended early.
  bool build_for_open(const Page& page);
  void add(const Page& page, const Cell& cell);
  // `page` still holds the cell as it was added: its label and alias are the names to drop.
  void remove(const Page& page, std::string_view id);

  CellKind kind(std::string_view id) const;
  std::optional<Entry> entry(std::string_view id) const;
  const core::NameIndex<std::string>& shape_names() const { return shape_names_; }
  const core::NameIndex<std::string>& group_names() const { return group_names_; }
  // Edge ids attached to a shape or group (either end), in no particular order. A view
  // (IdList): copy it before editing while iterating.
  IdList incident_edges(std::string_view id) const;
  // Ids of the cells whose parent is `id` (any kind), in no particular order (same caveat).
  IdList children(std::string_view id) const;

  // The page's layers in document order (children of the root cell).
  const std::vector<std::string>& layers() const { return layers_; }

  std::size_t shapes() const { return shapes_; }
  std::size_t edges() const { return edges_; }
  std::size_t groups() const { return groups_; }

  // The shapes and groups by frame (frame_grid.hpp): a cell's frame is its parent when that is
  // a group or shape, else the page (""). Rects are the cells' own geometry. Built at the first
  // call (a spatial query; opening a big page does not pay for it), from the page last given to
  // rebuild/add/attach, and kept current by add and remove from then on.
  const FrameGrid& grid() const;
  // The page this index is of, after the page moved (the document's page list changed).
  void attach(const Page& page) { page_ = &page; }

  // Recency: every add() of a shape counts as a modification.
  std::uint64_t touched_at(std::string_view id) const;
  // The most recently added or changed shape that still exists, or "".
  std::string latest_shape() const;
  // The most recently added or changed shape in the group `parent`, or "".
  std::string latest_shape_in(std::string_view parent) const;

 private:
  static constexpr Slot kNone = ~Slot{0};
  struct Node {
    std::string id;                       // the key of ids_ views it: nodes never move (a deque)
    ThinVector<Slot> children;            // the cells whose parent this is (few nodes have any)
    std::vector<Slot> incident;           // the edges with this at an end
    std::uint64_t touched = 0;            // shapes: when last added or changed (see touched_at)
    Slot parent = kNone;                  // the cell's parent attribute, when it has one
    Slot source = kNone, target = kNone;  // edges
    std::uint32_t child_slot = 0;         // its place in the parent's children
    CellKind kind = CellKind::other;
    bool indexed = false;  // a cell with this id is indexed (else the id is only mentioned)
  };
  // Looked up by string_view without making a string.
  struct Hash {
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };

  const Node* indexed(std::string_view id) const;
  Slot find_slot(std::string_view id) const;
  Slot slot_for(std::string_view id);  // finds or makes the id's node
  void release_if_unused(Slot slot);
  // A shape's names are its label and alias, a group's its label; remove finds them again in
  // the cell rather than keeping a copy.
  static void add_names(core::NameIndex<std::string>& names, const Cell& cell, bool with_alias);
  static void remove_names(core::NameIndex<std::string>& names, const Cell& cell, bool with_alias);
  static void unlink(std::vector<Slot>& list, Slot slot);
  void link_child(Slot parent, Slot child);
  void unlink_child(Slot parent, Slot child);

  std::deque<Node> nodes_;
  std::vector<Slot> free_;  // nodes no id uses, for reuse
  boost::unordered_flat_map<std::string_view, Slot, Hash> ids_;
  core::NameIndex<std::string> shape_names_;
  core::NameIndex<std::string> group_names_;
  std::vector<std::string> layers_;
  std::uint64_t clock_ = 0;
  std::string latest_;
  // Looked up by string_view without making a string (ids longer than 15 bytes allocate).
  struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  // group -> latest shape in it
  std::unordered_map<std::string, std::string, StringHash, std::equal_to<>> latest_child_;
  void place_in_grid(const Page& page, const Cell& cell, const Node& node, CellKind parent) const;
  const Page* page_ = nullptr;  // the page indexed, for the grid built at first use
  // Built by grid() (the document's strand only, like every other use of the index).
  mutable FrameGrid grid_;
  mutable bool grid_built_ = false;
  std::size_t shapes_ = 0, edges_ = 0, groups_ = 0;
};

}  // namespace fcp::drawio

// One draw.io page (<diagram> + <mxGraphModel>): its cells in document order, indexed by id.
#pragma once

#include <boost/unordered/unordered_flat_map.hpp>
#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "domains/drawio/model/attributes.hpp"
#include "domains/drawio/model/cell.hpp"
#include "domains/drawio/model/xml_node.hpp"

namespace fcp::drawio {

// A child of <root> that is not a cell, kept verbatim and written back after the cell whose id
// is `after_id` (at the start when empty, at the end when that cell is gone).
struct RootExtra {
  std::string after_id;
  XmlNode node;
  bool operator==(const RootExtra&) const = default;
};

// Cells live in a std::list so that insert, erase and lookup by id are O(1) expected and
// pointers to cells stay valid until the cell is erased. The id index points into the list; it
// covers the first cell of each non-empty id (files may repeat an id; the repeats are kept and
// written back but are not reachable by id).
// Thread: not thread-safe; owned by one session.
class Page {
 public:
  using CellList = std::list<Cell>;

  Page() = default;
  // A new page as draw.io makes one: <diagram id name>, the root cell "0" and the default layer
  // "1" (ids are per page in draw.io; every page has its own "0" and "1"), and the
  // <mxGraphModel> settings draw.io writes for a new diagram (grid, page view, A4 page).
  static Page make_blank(std::string id, std::string name);
  Page(const Page& other);
  Page& operator=(const Page& other);
  Page(Page&&) noexcept = default;
  Page& operator=(Page&&) noexcept = default;

  // <diagram> attributes (id, name, …) and <mxGraphModel> attributes, in document order.
  Attributes& diagram_attributes() { return diagram_attributes_; }
  const Attributes& diagram_attributes() const { return diagram_attributes_; }
  Attributes& model_attributes() { return model_attributes_; }
  const Attributes& model_attributes() const { return model_attributes_; }
  Attributes& root_attributes() { return root_attributes_; }
  const Attributes& root_attributes() const { return root_attributes_; }
  std::string_view id() const { return diagram_attributes_.get("id").value_or(""); }
  std::string_view name() const { return diagram_attributes_.get("name").value_or(""); }

  // False for an empty <diagram/>; such a page is written back empty while it has no cells.
  bool has_model() const { return has_model_; }
  void set_has_model(bool on) { has_model_ = on; }
  // True when the page was read from compressed <diagram> text (it is written compressed again).
  bool was_compressed() const { return was_compressed_; }
  void set_was_compressed(bool on) { was_compressed_ = on; }

  // Children of <diagram> other than its <mxGraphModel>, children of <mxGraphModel> other than
  // <root>, and children of <root> that are not cells, all verbatim.
  std::vector<XmlNode>& diagram_extras() { return diagram_extras_; }
  const std::vector<XmlNode>& diagram_extras() const { return diagram_extras_; }
  std::vector<XmlNode>& model_extras() { return model_extras_; }
  const std::vector<XmlNode>& model_extras() const { return model_extras_; }
  std::vector<RootExtra>& root_extras() { return root_extras_; }
  const std::vector<RootExtra>& root_extras() const { return root_extras_; }

  const CellList& cells() const { return cells_; }
  std::size_t cell_count() const { return cells_.size(); }
  // Mutable iteration. Do not change ids through it (use rename).
  template <class Fn>
  void for_each_cell(Fn&& fn) {
    for (Cell& cell : cells_)
      fn(cell);
  }

  // Prepares the id index for `cells` cells in total (readers call it once per page).
  void reserve(std::size_t cells) { index_.reserve(cells); }

  const Cell* find(std::string_view id) const;
  Cell* find(std::string_view id);
  bool contains(std::string_view id) const { return index_.contains(id); }
  // True when the page holds cells repeating an earlier cell's id (read from a file).
  bool has_repeated_ids() const { return repeated_ids_ > 0; }

  // Appends `cell` (on top of the z-order). Returns null, leaving the page unchanged, when the
  // id is empty or already used.
  Cell* insert(Cell cell);
  // Inserts `cell` just before the cell `next_id` (at the end when next_id is empty).
  // Returns null when the id is empty or used, or next_id is not found.
  Cell* insert_before(std::string_view next_id, Cell cell);
  // For readers: appends whatever the file holds, including cells without or with repeated ids.
  Cell& append_from_file(Cell cell);
  // Removes the cell `id`; returns it, or nullopt when absent.
  std::optional<Cell> erase(std::string_view id);
  // Changes a cell's id (not the references to it). False when `from` is absent or `to` used.
  bool rename(std::string_view from, std::string to);
  // The id of the cell after `id` in document order ("" when last or absent), e.g. to put an
  // erased cell back where it was with insert_before.
  std::string_view next_id(std::string_view id) const;

  // The root cell: the first cell without a parent (normally id "0"); "" when there is none.
  std::string_view root_id() const;
  bool is_layer(const Cell& cell) const;
  std::vector<const Cell*> layers() const;  // children of the root cell, in order
  // Children of `id` in document order. O(cells); use children_index() for many lookups.
  std::vector<const Cell*> children_of(std::string_view id) const;
  // parent id -> children in document order, built in one pass.
  std::unordered_map<std::string_view, std::vector<const Cell*>> children_index() const;
  // A vertex whose parent is an edge: draw.io's label on an edge.
  bool is_edge_label(const Cell& cell) const;

  // Same content: attributes, extras and the cell sequence (not the index).
  bool operator==(const Page& other) const;

 private:
  void rebuild_index();
  void index_first_duplicate(std::string_view id);

  Attributes diagram_attributes_;
  Attributes model_attributes_;
  Attributes root_attributes_;
  bool has_model_ = true;
  bool was_compressed_ = false;
  std::vector<XmlNode> diagram_extras_;
  std::vector<XmlNode> model_extras_;
  std::vector<RootExtra> root_extras_;
  CellList cells_;
  struct IdHash {
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
  };
  // Keys view the id strings inside cells_ (list nodes never move). Open addressing: no node
  // allocated per cell, and a lookup reads one group of slots instead of following a chain.
  boost::unordered_flat_map<std::string_view, CellList::iterator, IdHash> index_;
  std::size_t repeated_ids_ = 0;  // cells whose non-empty id an earlier cell already has
};

}  // namespace fcp::drawio

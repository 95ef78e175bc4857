// The drawio document: the lossless Diagram, the FCP state around it (title, custom types and
// themes, loaded stencils, active page and layers) and one PageIndex per page.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/domain.hpp"
#include "domains/drawio/edit.hpp"
#include "domains/drawio/export/drawio_png.hpp"
#include "domains/drawio/model/diagram.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {

class Edit;

// Thread: owned by one session and only touched from that session's strand.
// Memory estimates for limits.max_document_bytes, from bench_big's peak RSS (bench/README.md,
// `bench_big` open of the generated 1 M-cell file: 1.66 GB peak for 1 M cells and 131 MB of
// file, the bytes read and the model together, 2026-11-26, branch compact15; 1.93 GB before):
// about 1 700 bytes a cell, 13 per file byte.
inline constexpr std::size_t kBytesPerCell = 1700;
inline constexpr std::size_t kBytesPerFileByte = 13;

class DrawioDocument final : public core::Document {
 public:
  DrawioDocument(Diagram diagram, DocumentState state);
  // A document opened from a file inside a call: its indexes stop building once the call must
  // stop (PageIndex::build_for_open); the caller asks core::stop_error and drops it then.
  struct FromFile {};
  DrawioDocument(Diagram diagram, DocumentState state, FromFile from_file);

  // core::Document
  core::Result<core::OpOutcome> execute(const core::ParsedOp& op, core::CallContext& ctx) override;
  void revert(const core::Event& event, core::EffectSink& effects) override;
  void replay(const core::Event& event, core::EffectSink& effects) override;
  std::optional<core::Result<core::QueryAnswer>> query(std::string_view verb, std::string_view args,
                                                       const core::CallContext& ctx) const override;
  std::vector<std::string> status_lines() const override;
  std::string digest() const override;
  std::size_t entity_count() const override;
  std::size_t estimated_bytes() const override { return entity_count() * kBytesPerCell; }
  std::string help_additions() const override;
  std::vector<std::string> warnings(std::span<const core::EventPtr> batch,
                                    core::Applied applied) const override;
  // The warnings the edges `edge_ids` of the active page would get if a batch had just drawn them
  // (on one line with another edge, labels on edges, labels or frames, by shapes, runs along a
  // frame): what a layout that changed nothing names as still standing.
  std::vector<std::string> standing_warnings(std::span<const std::string> edge_ids) const;
  core::Result<std::string> serialize(const std::filesystem::path& path) const override;
  // A standard <mxfile> goes to `write` in pieces as it is made (the bytes read, whole, when
  // nothing changed); other forms, and pages sized to their content, as serialize makes them.
  core::Result<void> write_file(const std::filesystem::path& path,
                                const std::function<bool(std::string_view)>& write) const override;
  std::string title() const override;
  std::string summary() const override;

  // The model, for verbs and queries. Change it only through an Edit.
  const Diagram& diagram() const { return diagram_; }
  const DocumentState& state() const { return state_; }
  std::size_t active_page_index() const { return state_.active_page; }
  const Page& page() const { return diagram_.pages()[state_.active_page]; }
  const Page& page(std::size_t index) const { return diagram_.pages()[index]; }
  const PageIndex& index() const { return indexes_[state_.active_page]; }
  const PageIndex& index(std::size_t page) const { return indexes_[page]; }
  // The title shown when the diagram has none of its own (an opened file's name).
  void set_fallback_title(std::string title) { fallback_title_ = std::move(title); }
  // The bytes the diagram was read from: a save in the same form that finds the diagram as it
  // was read writes them back unchanged (the owner's formatting, byte for byte).
  void keep_source(core::FileBytes bytes);
  // The layer new cells of the active page go to.
  std::string active_layer() const;
  // A fresh cell id no cell of any page has or had.
  std::string allocate_id() { return diagram_.allocate_id(); }
  // The page's flow direction (TB, LR, BT, RL): the one orient or layout set this session, else
  // the direction most of its edges run (source centre to target centre), else TB. Nothing of
  // it is written to the file.
  std::string page_flow(std::size_t page) const;
  // Bounding box of what a page draws: its shapes and groups, and the waypoints of its edges
  // (routes laid round the shapes reach past them; `routes` false leaves them out); nullopt when
  // it has no shape or group.
  std::optional<Rect> content_bounds(std::size_t page, bool routes = true) const;
  // Whether fcp chose the ports of edge `id` (connect without exit:/entry:): they follow moves.
  bool has_automatic_ports(std::string_view id) const {
    return automatic_ports_.contains(std::string(id));
  }
  // The size `add` (or a layout since) gave a shape that the user has not sized: DefaultSizeChange.
  std::optional<std::pair<double, double>> default_size(const std::string& id) const {
    const auto found = default_sizes_.find(id);
    if (found == default_sizes_.end()) return std::nullopt;
    return found->second;
  }

 private:
  // An empty diagram gets a blank page; the state and indexes get one slot a page.
  void fit_state_to_pages();
  friend class Edit;
  friend struct DiagramChanges;

  // Puts one cell into the given state (nullopt: absent), keeping the index current.
  void apply_cell(std::size_t page, const std::string& id, const std::optional<Cell>& state,
                  const std::string& next);
  void apply_page(const PageChange& change, bool forward);
  void apply_state(const DocumentState& state);
  // Whether the diagram is the one read from source_bytes_ (exact; cheap when nothing changed).
  bool unchanged_since_source() const;
  // Records how cell `id` of `page` was read, before its first change since the source was kept.
  void remember_source_cell(std::size_t page, std::string_view id);
  // Whether the cells changed since the source was kept are all back as they were read.
  bool touched_cells_as_read() const;
  // Gives up the cheap "changed" test: a save reads the source again to compare.
  void forget_source_cells();

  Diagram diagram_;
  DocumentState state_;
  std::vector<PageIndex> indexes_;
  std::string fallback_title_;
  core::FileBytes source_bytes_;           // shared with the session that read them
  std::vector<std::size_t> source_cells_;  // cells per page as read: a cheap "changed" test
  std::size_t mutations_ = 0;              // changes applied since the source was kept
  // Each cell changed since the source was kept, as read (nullopt: absent) and the id of the cell
  // after it then: a save after edits compares only these instead of reading the source again.
  // Off (`source_cells_exact_` false) after a page change, with ids a page repeats, or past
  // kMaxRememberedCells a page (then a save reads the source again, as before).
  struct SourceCell {
    std::optional<Cell> cell;
    std::string next;
  };
  std::vector<std::unordered_map<std::string, SourceCell>> source_originals_;  // by page
  bool source_cells_exact_ = false;
  std::unordered_set<std::string> automatic_ports_;  // edge ids; they are unique across pages
  std::unordered_map<std::string, std::pair<double, double>> default_sizes_;  // shape ids
};

// The changes of one op, applied at once and recorded. If the op fails, the destructor puts
// everything back (strong guarantee); commit() turns them into the op's event.
// Cell methods act on the active page as it was when the Edit began.
class Edit {
 public:
  explicit Edit(DrawioDocument& document);
  Edit(const Edit&) = delete;
  Edit& operator=(const Edit&) = delete;

  DrawioDocument& document() { return document_; }
  std::size_t page_index() const { return page_; }
  const Page& page() const { return document_.page(page_); }
  const PageIndex& index() const { return document_.index(page_); }

  // Inserts a new cell (before `next_id`, or on top when empty). The id must be fresh.
  const Cell& insert(Cell cell, std::string_view next_id = {});
  // Changes a cell in place; the index follows. No-op for an unknown id.
  void update(std::string_view id, const std::function<void(Cell&)>& change);
  // Removes a cell (not its children or edges: callers decide what else goes).
  void erase(std::string_view id);
  // Changes the document state (title, custom types, active page and layers, …).
  void update_state(const std::function<void(DocumentState&)>& change);
  // Inserts, removes or renames pages.
  void insert_page(std::size_t index, Page page);
  void erase_page(std::size_t index);
  void update_page_attributes(std::size_t index, const std::function<void(Attributes&)>& change);
  // Marks the ports of `edge` as chosen by fcp (true) or fixed (false).
  void set_automatic_ports(const std::string& edge, bool automatic);
  // Records (or, with nullopt, forgets) the default size of a shape: DefaultSizeChange.
  void set_default_size(const std::string& shape, std::optional<std::pair<double, double>> size);

  bool empty() const { return transaction_.empty(); }
  // The event for the log (null when nothing changed). The Edit is finished afterwards.
  core::EventPtr commit(std::string summary);

 private:
  CellChange& touch(std::string_view id);

  DrawioDocument& document_;
  std::size_t page_;
  core::Transaction<DiagramChanges> transaction_;  // cells keyed by id
};

// "edge A -> B passes through C" for each of `edge_ids` whose path as draw.io draws it now runs
// through a shape that is not one of its ends (or their groups): what layout replies warn about.
// With a `clearance`, also "edge A -> B runs within N px of C" for a path that passes closer
// than that to a shape without entering it.
std::vector<std::string> edges_through_shapes(const Page& page, const PageIndex& index,
                                              std::span<const std::string> edge_ids,
                                              double clearance = 0);

// How well `edge_ids` read as draw.io draws them now, worst defect first: edges through a shape
// (or within `clearance` of one); pairs of edges on one line (under 4 px apart for over 20 px; for
// two edges with a shape in common, for over 60 px farther than 40 px from it); labels that read
// as someone else's (on another edge's line or label, or within 9 px of a shape that is not an
// end of their edge), theirs or ones their lines or labels lie on; crossings between them.
// Labels come after pairs on one line (those mislead about what is connected to what, a label
// only about what an edge carries) and before crossings (a crossing is read through).
struct DrawnRouteFigures {
  std::size_t near_shapes = 0;
  std::size_t one_line_pairs = 0;
  std::size_t labels = 0;
  std::size_t crossings = 0;
  std::vector<std::string> misplaced_labels;  // `label "x" of edge A -> B`, each of `labels`
  // Ids: the pairs on one line; the edges by or through shapes and those (of `edge_ids`) whose
  // labels are misplaced, each once where it comes twice in a row.
  std::vector<std::pair<std::string, std::string>> one_line_edges;
  std::vector<std::string> troubled_edges;
  // Worse: more edges by shapes, else more pairs on one line, else more labels misplaced, else
  // more crossings.
  bool worse_than(const DrawnRouteFigures& other) const {
    return std::tie(near_shapes, one_line_pairs, labels, crossings) >
           std::tie(other.near_shapes, other.one_line_pairs, other.labels, other.crossings);
  }
};
DrawnRouteFigures drawn_route_figures(const Page& page, const PageIndex& index,
                                      std::span<const std::string> edge_ids, double clearance);

}  // namespace fcp::drawio

#include "domains/drawio/document.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <utility>

#include "core/call_scope.hpp"
#include "core/response.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/meta.hpp"
#include "domains/drawio/queries.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {

DrawioDocument::DrawioDocument(Diagram diagram, DocumentState state)
    : diagram_(std::move(diagram)), state_(std::move(state)) {
  fit_state_to_pages();
  for (std::size_t i = 0; i < diagram_.pages().size(); ++i)
    indexes_[i].rebuild(diagram_.pages()[i]);
}

DrawioDocument::DrawioDocument(Diagram diagram, DocumentState state, FromFile /*from_file*/)
    : diagram_(std::move(diagram)), state_(std::move(state)) {
  fit_state_to_pages();
  for (std::size_t i = 0; i < diagram_.pages().size(); ++i) {
    if (!indexes_[i].build_for_open(diagram_.pages()[i])) return;
  }
}

void DrawioDocument::fit_state_to_pages() {
  if (diagram_.pages().empty())
    diagram_.add_page(Page::make_blank(diagram_.allocate_id(), "Page-1"));
  state_.active_layers.resize(diagram_.pages().size());
  state_.flows.resize(diagram_.pages().size());
  state_.active_page = std::min(state_.active_page, diagram_.pages().size() - 1);
  indexes_.resize(diagram_.pages().size());
}

std::string DrawioDocument::active_layer() const {
  const std::string& chosen = state_.active_layers[state_.active_page];
  if (!chosen.empty() && page().contains(chosen)) return chosen;
  const auto& layers = index().layers();
  return layers.empty() ? std::string(page().root_id()) : layers.front();
}

std::optional<Rect> DrawioDocument::content_bounds(std::size_t page_number, bool routes) const {
  const Page& p = page(page_number);
  const PageIndex& idx = index(page_number);
  std::optional<Rect> bounds;
  std::optional<Rect> waypoints;
  for (const Cell& cell : p.cells()) {
    const CellKind kind = idx.kind(cell.id);
    if (kind == CellKind::shape || kind == CellKind::group) {
      const Rect rect = absolute_rect(p, cell);
      bounds = bounds ? bounds->united(rect) : rect;
    } else if (routes && kind == CellKind::edge && cell.geometry && cell.geometry->points &&
               !cell.geometry->points->empty()) {
      // Waypoints are relative to the edge's parent when that is a shape or group.
      double dx = 0, dy = 0;
      if (cell.parent) {
        const Cell* parent = p.find(*cell.parent);
        if (parent != nullptr && parent->vertex) {
          const Rect origin = absolute_rect(p, *parent);
          dx = origin.x;
          dy = origin.y;
        }
      }
      for (const Point& point : *cell.geometry->points) {
        const Rect at{point.x_or_zero() + dx, point.y_or_zero() + dy, 0, 0};
        waypoints = waypoints ? waypoints->united(at) : at;
      }
    }
  }
  if (bounds && waypoints) bounds = bounds->united(*waypoints);
  return bounds;
}

// ---- applying changes -------------------------------------------------------------------------

void DrawioDocument::apply_cell(std::size_t page_number, const std::string& id,
                                const std::optional<Cell>& state, const std::string& next) {
  Page& p = diagram_.pages()[page_number];
  PageIndex& idx = indexes_[page_number];
  remember_source_cell(page_number, id);
  Cell* current = p.find(id);
  if (current != nullptr) idx.remove(p, id);
  if (!state) {
    if (current != nullptr) p.erase(id);
    return;
  }
  if (current != nullptr) {
    *current = *state;
  } else {
    current = next.empty() ? nullptr : p.insert_before(next, *state);
    if (current == nullptr) current = p.insert(*state);
  }
  if (current != nullptr) idx.add(p, *current);
}

void DrawioDocument::apply_page(const PageChange& change, bool forward) {
  forget_source_cells();
  const auto& target = forward ? change.after : change.before;
  auto& pages = diagram_.pages();
  if (change.attributes_only) {
    if (target && change.index < pages.size())
      pages[change.index].diagram_attributes() = target->diagram_attributes();
    return;
  }
  const auto& source = forward ? change.before : change.after;
  if (source && change.index < pages.size()) {  // the page is there now: remove it
    pages.erase(pages.begin() + static_cast<std::ptrdiff_t>(change.index));
    indexes_.erase(indexes_.begin() + static_cast<std::ptrdiff_t>(change.index));
  }
  if (target) {
    const std::size_t at = std::min(change.index, pages.size());
    pages.insert(pages.begin() + static_cast<std::ptrdiff_t>(at), *target);
    indexes_.insert(indexes_.begin() + static_cast<std::ptrdiff_t>(at), PageIndex());
    indexes_[at].rebuild(pages[at]);
  }
  for (std::size_t i = 0; i < pages.size(); ++i)  // pages moved in the list
    indexes_[i].attach(pages[i]);
}

std::string DrawioDocument::page_flow(std::size_t page) const {
  if (page < state_.flows.size() && !state_.flows[page].empty()) return state_.flows[page];
  const Page& p = this->page(page);
  const PageIndex& idx = index(page);
  std::size_t down = 0, up = 0, right = 0, left = 0;
  for (const Cell& cell : p.cells()) {
    const auto entry = idx.entry(cell.id);
    if (!entry || entry->kind != CellKind::edge) continue;
    const Cell* source = p.find(entry->source);
    const Cell* target = p.find(entry->target);
    if (source == nullptr || target == nullptr) continue;
    const Rect a = absolute_rect(p, *source), b = absolute_rect(p, *target);
    const double dx = b.center_x() - a.center_x(), dy = b.center_y() - a.center_y();
    if (std::abs(dy) > std::abs(dx)) {
      ++(dy > 0 ? down : up);
    } else {
      ++(dx > 0 ? right : left);
    }
  }
  const std::size_t most = std::max({down, up, right, left});
  if (most == 0 || most == down) return "TB";
  if (most == right) return "LR";
  if (most == up) return "BT";
  return "RL";
}

void DrawioDocument::apply_state(const DocumentState& state) {
  state_ = state;
  state_.active_layers.resize(diagram_.pages().size());
  state_.flows.resize(diagram_.pages().size());
  if (state_.active_page >= diagram_.pages().size()) state_.active_page = 0;
}

void DiagramChanges::apply(DrawioDocument& document, const Change& change, bool forward) {
  ++document.mutations_;
  if (const auto* cell = std::get_if<CellChange>(&change)) {
    document.apply_cell(cell->page, cell->id, forward ? cell->after : cell->before,
                        forward ? cell->after_next : cell->before_next);
  } else if (const auto* page = std::get_if<PageChange>(&change)) {
    document.apply_page(*page, forward);
  } else if (const auto* ports = std::get_if<PortChoiceChange>(&change)) {
    if (ports->automatic == forward) {
      document.automatic_ports_.insert(ports->edge);
    } else {
      document.automatic_ports_.erase(ports->edge);
    }
  } else if (const auto* sized = std::get_if<DefaultSizeChange>(&change)) {
    const auto& size = forward ? sized->after : sized->before;
    if (size) {
      document.default_sizes_[sized->shape] = *size;
    } else {
      document.default_sizes_.erase(sized->shape);
    }
  } else {
    const auto& state = std::get<StateChange>(change);
    document.apply_state(forward ? state.after : state.before);
  }
}

std::vector<std::string> DiagramChanges::touched(const std::vector<Change>& changes) {
  std::vector<std::string> ids;
  for (const auto& change : changes) {
    if (const auto* cell = std::get_if<CellChange>(&change); cell != nullptr && cell->after)
      ids.push_back(cell->id);
  }
  return ids;
}

void DrawioDocument::revert(const core::Event& event, core::EffectSink& effects) {
  (void)effects;
  core::apply_event<DiagramChanges>(*this, event, false);
}

void DrawioDocument::replay(const core::Event& event, core::EffectSink& effects) {
  (void)effects;
  core::apply_event<DiagramChanges>(*this, event, true);
}

// ---- ops and queries --------------------------------------------------------------------------

core::Result<core::OpOutcome> DrawioDocument::execute(const core::ParsedOp& op,
                                                      core::CallContext& ctx) {
  const auto handler = verb_table().handler(op.verb);
  if (handler == nullptr) return core::make_error("verb \"" + op.verb + "\" is not implemented");
  Edit edit(*this);
  OpContext context{*this, edit, ctx, op, {}, {}};
  if (auto done = handler(context); !done) return done.error();
  core::OpOutcome outcome;
  outcome.lines = std::move(context.lines);
  outcome.attachments = std::move(context.attachments);
  outcome.event = edit.commit(op.raw);
  return outcome;
}

std::optional<core::Result<core::QueryAnswer>> DrawioDocument::query(
    std::string_view verb, std::string_view args, const core::CallContext& ctx) const {
  return run_query(*this, verb, args, ctx);
}

std::size_t DrawioDocument::entity_count() const {
  std::size_t cells = 0;
  for (const Page& page : diagram_.pages())
    cells += page.cell_count();
  return cells + diagram_.pages().size();
}

std::string DrawioDocument::digest() const {
  const PageIndex& idx = index();
  std::string out = "[" + std::to_string(idx.shapes()) + "s " + std::to_string(idx.edges()) + "e " +
                    std::to_string(idx.groups()) + "g ";
  if (auto bounds = content_bounds(state_.active_page))
    out += std::to_string(static_cast<long long>(std::lround(bounds->width))) + "x" +
           std::to_string(static_cast<long long>(std::lround(bounds->height))) + " ";
  out += "p:" + std::to_string(state_.active_page + 1) + "/" +
         std::to_string(diagram_.pages().size()) + "]";
  return out;
}

std::string DrawioDocument::title() const {
  if (!state_.title.empty()) return state_.title;
  if (!fallback_title_.empty()) return fallback_title_;
  return std::string(page(0).name());
}

std::string DrawioDocument::summary() const {
  std::size_t shapes = 0, edges = 0, groups = 0;
  for (const auto& idx : indexes_) {
    shapes += idx.shapes();
    edges += idx.edges();
    groups += idx.groups();
  }
  return core::plural(diagram_.pages().size(), "page") + ", " + core::plural(shapes, "shape") +
         ", " + core::plural(edges, "edge") + ", " + core::plural(groups, "group");
}

void DrawioDocument::keep_source(core::FileBytes bytes) {
  source_bytes_ = std::move(bytes);
  source_cells_.clear();
  source_originals_.clear();
  source_cells_exact_ = true;
  for (const Page& p : diagram_.pages()) {
    source_cells_.push_back(p.cell_count());
    source_originals_.emplace_back();
    if (p.has_repeated_ids()) source_cells_exact_ = false;
  }
  mutations_ = 0;
}

namespace {
// A bound on the cells remembered as read, a page: past it (an op changing most of a big page),
// a save after edits reads the source again rather than keep a second copy of the page.
constexpr std::size_t kMaxRememberedCells = 4096;
}  // namespace

void DrawioDocument::remember_source_cell(std::size_t page, std::string_view id) {
  if (!source_cells_exact_) return;
  if (page >= source_originals_.size()) {
    forget_source_cells();
    return;
  }
  auto& originals = source_originals_[page];
  const std::string key(id);
  if (originals.contains(key)) return;
  const Page& p = diagram_.pages()[page];
  if (originals.size() >= std::max(kMaxRememberedCells, p.cell_count() / 8)) {
    forget_source_cells();
    return;
  }
  SourceCell original;
  if (const Cell* cell = p.find(id)) {
    original.cell = *cell;
    original.next = std::string(p.next_id(id));
  }
  originals.emplace(key, std::move(original));
}

void DrawioDocument::forget_source_cells() {
  source_cells_exact_ = false;
  source_originals_.clear();
}

// Cells nobody touched are as read, and keep their order among themselves; each touched cell
// that is there now and was then has the same content and the same next cell. With the same
// number of cells, that is the page as read (a chain of touched cells ends at an untouched one
// or at the end, so each sits where it sat).
bool DrawioDocument::touched_cells_as_read() const {
  for (std::size_t i = 0; i < source_originals_.size(); ++i) {
    const Page& p = diagram_.pages()[i];
    for (const auto& [id, original] : source_originals_[i]) {
      const Cell* now = p.find(id);
      if ((now != nullptr) != original.cell.has_value()) return false;
      if (now == nullptr) continue;
      if (!(*now == *original.cell) || p.next_id(id) != original.next) return false;
    }
  }
  return true;
}

bool DrawioDocument::unchanged_since_source() const {
  if (mutations_ == 0) return true;  // nothing was ever applied
  if (source_cells_.size() != diagram_.pages().size()) return false;
  for (std::size_t i = 0; i < source_cells_.size(); ++i) {
    if (source_cells_[i] != diagram_.pages()[i].cell_count()) return false;
  }
  if (source_cells_exact_) return touched_cells_as_read();
  // Changes were applied (maybe undone since) that the test above cannot follow: read the source
  // again as the open read it; unchanged means every cell, page and attribute is equal.
  auto original = read_drawio(source_bytes_.view());
  if (!original) return false;
  adopt_file_state(*original);
  return *original == diagram_;
}

namespace {

// draw.io's default page (A4 portrait, in draw.io units) when the diagram fits on it, A4
// landscape when it fits that, else one page that covers the diagram (with draw.io's 10-unit
// grid and a margin), so a wide diagram opens as one page instead of a sheet of A4 pages.
void cover_with_page(Attributes& model, const std::optional<Rect>& bounds) {
  constexpr double kA4Short = 827, kA4Long = 1169, kMargin = 40;
  double width = kA4Short, height = kA4Long;
  if (bounds) {
    const double right = bounds->right() + kMargin, bottom = bounds->bottom() + kMargin;
    if (right > kA4Short || bottom > kA4Long) {
      if (right <= kA4Long && bottom <= kA4Short) {
        width = kA4Long;
        height = kA4Short;
      } else {
        width = std::max(kA4Short, std::ceil(right / 10) * 10);
        height = std::max(kA4Short, std::ceil(bottom / 10) * 10);
      }
    }
  }
  model.set("pageWidth", format_number(width));
  model.set("pageHeight", format_number(height));
}

}  // namespace

core::Result<std::string> DrawioDocument::serialize(const std::filesystem::path& path) const {
  if (!source_bytes_.empty() && written_format(diagram_, path) == diagram_.source_format() &&
      unchanged_since_source())
    return source_bytes_.str();
  if (state_.sized_pages.empty()) return serialize_diagram(diagram_, path);
  Diagram sized = diagram_;
  for (std::size_t i = 0; i < sized.pages().size(); ++i) {
    Page& p = sized.pages()[i];
    if (state_.sized_pages.contains(std::string(p.id())))
      cover_with_page(p.model_attributes(), content_bounds(i));
  }
  return serialize_diagram(sized, path);
}

core::Result<void> DrawioDocument::write_file(
    const std::filesystem::path& path, const std::function<bool(std::string_view)>& write) const {
  const SourceFormat format = written_format(diagram_, path);
  if (format != SourceFormat::mxfile || !state_.sized_pages.empty())
    return core::Document::write_file(path, write);
  if (!source_bytes_.empty() && format == diagram_.source_format() && unchanged_since_source()) {
    write(source_bytes_.view());
    return {};
  }
  write_drawio(diagram_, {}, write);
  // The writer ends early inside a call that must stop: what went to `write` is incomplete then.
  if (auto stop = core::stop_error("writing the diagram", "nothing was written")) return *stop;
  return {};
}

// ---- Edit -------------------------------------------------------------------------------------

Edit::Edit(DrawioDocument& document)
    : document_(document), page_(document.state_.active_page), transaction_(document) {}

CellChange& Edit::touch(std::string_view id) {
  auto& change = transaction_.touch(std::string(id), [&] {
    CellChange first;
    first.page = page_;
    first.id = std::string(id);
    const Page& p = document_.page(page_);
    if (const Cell* cell = p.find(id)) {
      first.before = *cell;
      first.before_next = std::string(p.next_id(id));
    }
    return Change(std::move(first));
  });
  return std::get<CellChange>(change);
}

const Cell& Edit::insert(Cell cell, std::string_view next_id) {
  const std::string id = cell.id;
  touch(id);
  ++document_.mutations_;
  document_.apply_cell(page_, id, std::move(cell), std::string(next_id));
  return *document_.page(page_).find(id);
}

void Edit::update(std::string_view id, const std::function<void(Cell&)>& change) {
  Page& p = document_.diagram_.pages()[page_];
  Cell* cell = p.find(id);
  if (cell == nullptr) return;
  touch(id);
  ++document_.mutations_;
  document_.remember_source_cell(page_, id);
  PageIndex& idx = document_.indexes_[page_];
  idx.remove(p, id);
  change(*cell);
  idx.add(p, *cell);
}

void Edit::erase(std::string_view id) {
  if (!document_.page(page_).contains(id)) return;
  touch(id);
  ++document_.mutations_;
  document_.apply_cell(page_, std::string(id), std::nullopt, {});
}

void Edit::set_automatic_ports(const std::string& edge, bool automatic) {
  if (document_.has_automatic_ports(edge) != automatic)
    transaction_.apply(PortChoiceChange{edge, automatic});
}

void Edit::set_default_size(const std::string& shape,
                            std::optional<std::pair<double, double>> size) {
  const auto now = document_.default_size(shape);
  if (now != size) transaction_.apply(DefaultSizeChange{shape, now, size});
}

void Edit::update_state(const std::function<void(DocumentState&)>& change) {
  DocumentState next = document_.state_;
  change(next);
  if (next == document_.state_) return;
  transaction_.apply(StateChange{document_.state_, next});
}

void Edit::insert_page(std::size_t index, Page page) {
  PageChange change;
  change.index = index;
  change.after = std::move(page);
  transaction_.apply(std::move(change));
  // Keep the per-page view state aligned with the pages.
  DocumentState state = document_.state_;
  state.active_layers.insert(state.active_layers.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                               index, state.active_layers.size())),
                             std::string());
  state.flows.insert(
      state.flows.begin() + static_cast<std::ptrdiff_t>(std::min(index, state.flows.size())),
      std::string());
  if (state.active_page >= index && index < document_.diagram_.pages().size() - 1)
    ++state.active_page;
  transaction_.apply(StateChange{document_.state_, state});
}

void Edit::erase_page(std::size_t index) {
  PageChange change;
  change.index = index;
  change.before = document_.page(index);
  transaction_.apply(std::move(change));
  DocumentState state = document_.state_;
  if (index < state.active_layers.size())
    state.active_layers.erase(state.active_layers.begin() + static_cast<std::ptrdiff_t>(index));
  if (index < state.flows.size())
    state.flows.erase(state.flows.begin() + static_cast<std::ptrdiff_t>(index));
  if (state.active_page > index || state.active_page >= document_.diagram_.pages().size())
    state.active_page = state.active_page > 0 ? state.active_page - 1 : 0;
  transaction_.apply(StateChange{document_.state_, state});
}

void Edit::update_page_attributes(std::size_t index,
                                  const std::function<void(Attributes&)>& change) {
  Page& p = document_.diagram_.pages()[index];
  Page before_shell;
  before_shell.diagram_attributes() = p.diagram_attributes();
  ++document_.mutations_;
  document_.forget_source_cells();
  change(p.diagram_attributes());
  if (p.diagram_attributes() == before_shell.diagram_attributes()) return;
  Page after_shell;
  after_shell.diagram_attributes() = p.diagram_attributes();
  PageChange record;
  record.index = index;
  record.attributes_only = true;
  record.before = std::move(before_shell);
  record.after = std::move(after_shell);
  transaction_.record(std::move(record));
}

core::EventPtr Edit::commit(std::string summary) {
  // Port choices and default sizes an op set and then set back (a pinned layout that keeps the
  // edges' routes gives each edge its port choice back) change nothing: they are not recorded,
  // so such an op leaves no event and no unsaved change (trial 18: "unsaved changes: yes" after
  // a layout that re-routed no edge).
  std::unordered_map<std::string, bool> ports_before, ports_after;
  std::unordered_map<std::string, std::optional<std::pair<double, double>>> size_before, size_after;
  for (const Change& change : transaction_.changes()) {
    if (const auto* ports = std::get_if<PortChoiceChange>(&change)) {
      ports_before.try_emplace(ports->edge, !ports->automatic);
      ports_after[ports->edge] = ports->automatic;
    } else if (const auto* sized = std::get_if<DefaultSizeChange>(&change)) {
      size_before.try_emplace(sized->shape, sized->before);
      size_after[sized->shape] = sized->after;
    }
  }
  return transaction_.commit(std::move(summary), [&](Change& change) {
    if (const auto* ports = std::get_if<PortChoiceChange>(&change))
      return ports_before.at(ports->edge) != ports_after.at(ports->edge);
    if (const auto* sized = std::get_if<DefaultSizeChange>(&change))
      return size_before.at(sized->shape) != size_after.at(sized->shape);
    auto* cell = std::get_if<CellChange>(&change);
    if (cell == nullptr) return true;
    const Page& p = document_.page(cell->page);
    if (const Cell* now = p.find(cell->id)) {
      cell->after = *now;
      cell->after_next = std::string(p.next_id(cell->id));
    }
    if (!cell->before && !cell->after) return false;  // created and removed within the op
    return !(cell->before && cell->after && *cell->before == *cell->after);
  });
}

}  // namespace fcp::drawio

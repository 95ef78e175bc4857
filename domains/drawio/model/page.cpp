#include "domains/drawio/model/page.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace fcp::drawio {

namespace {

constexpr std::array<std::pair<const char*, const char*>, 13> kNewPageSettings = {{
    {"grid", "1"},
    {"gridSize", "10"},
    {"guides", "1"},
    {"tooltips", "1"},
    {"connect", "1"},
    {"arrows", "1"},
    {"fold", "1"},
    {"page", "1"},
    {"pageScale", "1"},
    {"pageWidth", "827"},
    {"pageHeight", "1169"},
    {"math", "0"},
    {"shadow", "0"},
}};

}  // namespace

Page Page::make_blank(std::string id, std::string name) {
  Page page;
  page.diagram_attributes_.append("id", std::move(id));
  page.diagram_attributes_.append("name", std::move(name));
  // What draw.io's Editor.getGraphXml writes for a new diagram (dx/dy only when the view is
  // scrolled, so not here): grid, guides, page view on, an A4 portrait page.
  for (const auto& [key, value] : kNewPageSettings)
    page.model_attributes_.append(key, value);
  Cell root;
  root.id = "0";
  page.insert(std::move(root));
  Cell layer;
  layer.id = "1";
  layer.parent = "0";
  page.insert(std::move(layer));
  return page;
}

Page::Page(const Page& other)
    : diagram_attributes_(other.diagram_attributes_),
      model_attributes_(other.model_attributes_),
      root_attributes_(other.root_attributes_),
      has_model_(other.has_model_),
      was_compressed_(other.was_compressed_),
      diagram_extras_(other.diagram_extras_),
      model_extras_(other.model_extras_),
      root_extras_(other.root_extras_),
      cells_(other.cells_) {
  rebuild_index();
}

Page& Page::operator=(const Page& other) {
  if (this != &other) {
    Page copy(other);
    *this = std::move(copy);
  }
  return *this;
}

void Page::rebuild_index() {
  index_.clear();
  index_.reserve(cells_.size());
  repeated_ids_ = 0;
  for (auto it = cells_.begin(); it != cells_.end(); ++it) {
    if (!it->id.empty() && !index_.try_emplace(it->id, it).second) ++repeated_ids_;
  }
}

const Cell* Page::find(std::string_view id) const {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &*it->second;
}

Cell* Page::find(std::string_view id) {
  auto it = index_.find(id);
  return it == index_.end() ? nullptr : &*it->second;
}

Cell* Page::insert(Cell cell) {
  return insert_before("", std::move(cell));
}

Cell* Page::insert_before(std::string_view next_id, Cell cell) {
  if (cell.id.empty() || index_.contains(cell.id)) return nullptr;
  auto position = cells_.end();
  if (!next_id.empty()) {
    auto next = index_.find(next_id);
    if (next == index_.end()) return nullptr;
    position = next->second;
  }
  auto it = cells_.insert(position, std::move(cell));
  index_.emplace(it->id, it);
  return &*it;
}

Cell& Page::append_from_file(Cell cell) {
  cells_.push_back(std::move(cell));
  auto it = std::prev(cells_.end());
  if (!it->id.empty() && !index_.try_emplace(it->id, it).second) ++repeated_ids_;
  return *it;
}

std::optional<Cell> Page::erase(std::string_view id) {
  auto found = index_.find(id);
  if (found == index_.end()) return std::nullopt;
  auto it = found->second;
  index_.erase(found);
  std::optional<Cell> removed(std::move(*it));
  cells_.erase(it);
  index_first_duplicate(removed->id);
  return removed;
}

// After erasing the indexed cell of an id, a later cell repeating that id (from a file) takes
// its place in the index. Repeated ids are rare, so the scan is only paid when one exists.
void Page::index_first_duplicate(std::string_view id) {
  if (repeated_ids_ == 0) return;
  for (auto it = cells_.begin(); it != cells_.end(); ++it) {
    if (it->id == id) {
      index_.emplace(it->id, it);
      --repeated_ids_;
      return;
    }
  }
}

bool Page::rename(std::string_view from, std::string to) {
  if (to.empty() || index_.contains(to)) return false;
  auto found = index_.find(from);
  if (found == index_.end()) return false;
  auto it = found->second;
  index_.erase(found);
  const std::string old_id = std::move(it->id);
  it->id = std::move(to);
  index_.emplace(it->id, it);
  index_first_duplicate(old_id);
  return true;
}

std::string_view Page::next_id(std::string_view id) const {
  auto found = index_.find(id);
  if (found == index_.end()) return {};
  auto next = std::next(CellList::const_iterator(found->second));
  return next == cells_.end() ? std::string_view() : std::string_view(next->id);
}

std::string_view Page::root_id() const {
  for (const Cell& cell : cells_) {
    if (!cell.parent) return cell.id;
  }
  return {};
}

bool Page::is_layer(const Cell& cell) const {
  if (!cell.parent || cell.parent->empty()) return false;
  return *cell.parent == root_id();
}

std::vector<const Cell*> Page::layers() const {
  const std::string_view root = root_id();
  std::vector<const Cell*> out;
  if (root.empty()) return out;
  for (const Cell& cell : cells_) {
    if (cell.parent && *cell.parent == root) out.push_back(&cell);
  }
  return out;
}

std::vector<const Cell*> Page::children_of(std::string_view id) const {
  std::vector<const Cell*> out;
  for (const Cell& cell : cells_) {
    if (cell.parent && *cell.parent == id) out.push_back(&cell);
  }
  return out;
}

std::unordered_map<std::string_view, std::vector<const Cell*>> Page::children_index() const {
  std::unordered_map<std::string_view, std::vector<const Cell*>> out;
  for (const Cell& cell : cells_) {
    if (cell.parent) out[*cell.parent].push_back(&cell);
  }
  return out;
}

bool Page::is_edge_label(const Cell& cell) const {
  if (!cell.vertex || !cell.parent) return false;
  const Cell* parent = find(*cell.parent);
  return parent != nullptr && parent->edge;
}

bool Page::operator==(const Page& other) const {
  return diagram_attributes_ == other.diagram_attributes_ &&
         model_attributes_ == other.model_attributes_ &&
         root_attributes_ == other.root_attributes_ && has_model_ == other.has_model_ &&
         diagram_extras_ == other.diagram_extras_ && model_extras_ == other.model_extras_ &&
         root_extras_ == other.root_extras_ && cells_ == other.cells_;
}

}  // namespace fcp::drawio

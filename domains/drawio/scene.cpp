#include "domains/drawio/scene.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/call_scope.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/labels.hpp"

namespace fcp::drawio {
namespace {

// The stencil a style draws: its shape plus the icon it selects (resIcon for AWS resource
// icons, prIcon for the GCP, Kubernetes and Cisco icon shapes); nullopt for non-stencil shapes.
std::optional<std::string> stencil_name(const Style& style) {
  auto shape = style.get("shape");
  if (!shape || !shape->starts_with("mxgraph.")) return std::nullopt;
  std::string key(*shape);
  key += '|';
  if (auto icon = style.get("resIcon")) {
    key += *icon;
  } else if (auto pr = style.get("prIcon")) {
    key += *pr;
  }
  return key;
}

struct StencilOrigin {
  std::string id;         // the pack entry's id, the shape's FCP type
  std::string_view pack;  // the pack's id
};

// Stencil name → pack entry, built once from the data tables.
const std::unordered_map<std::string, StencilOrigin>& stencil_ids() {
  static const auto ids = [] {
    std::unordered_map<std::string, StencilOrigin> out;
    for (const auto& pack : data::stencil_packs()) {
      for (const auto& entry : pack.entries) {
        if (auto name = stencil_name(Style::parse(entry.style)))
          out.emplace(std::move(*name), StencilOrigin{std::string(entry.id), pack.id});
      }
    }
    return out;
  }();
  return ids;
}

const StencilOrigin* stencil_origin(const Cell& cell) {
  if (!cell.style) return nullptr;
  auto name = stencil_name(*cell.style);
  if (!name) return nullptr;
  const auto& ids = stencil_ids();
  auto it = ids.find(*name);
  return it == ids.end() ? nullptr : &it->second;
}

}  // namespace

bool is_badge_look(const Cell& cell) {
  constexpr double kMaxBadgeHeight = 24;
  return cell.vertex && cell.style && cell.style_value("arcSize") == "50" &&
         cell.style_value("rounded") == "1" && cell.style_value("fontSize") == "10" &&
         cell.geometry && cell.geometry->height.value_or(0) <= kMaxBadgeHeight &&
         !cell.is_container();
}

bool is_group_style(const Cell& cell) {
  if (!cell.style) return false;
  return cell.is_container() || cell.style->has("group") || cell.style->get("container") == "1";
}

bool is_html(const Cell& cell) {
  return cell.style && cell.style->get("html") == "1";
}

std::string cell_label(const Cell& cell) {
  return cell.value ? label_text(*cell.value, is_html(cell)) : std::string();
}

std::string_view stencil_pack_of(const Cell& cell) {
  const StencilOrigin* origin = stencil_origin(cell);
  return origin == nullptr ? std::string_view() : origin->pack;
}

std::string message_name(const Cell& cell) {
  constexpr std::size_t kMaxNameLength = 40;
  std::string label = cell_label(cell);
  if (label.empty()) return "#" + cell.id;
  if (auto newline = label.find('\n'); newline != std::string::npos) label.resize(newline);
  if (utf8_length(label) <= kMaxNameLength) return label;
  std::size_t bytes = 0, chars = 0;
  while (bytes < label.size() && chars < kMaxNameLength) {
    ++bytes;
    while (bytes < label.size() && (static_cast<unsigned char>(label[bytes]) & 0xC0) == 0x80)
      ++bytes;
    ++chars;
  }
  return label.substr(0, bytes) + "…";
}

std::string shape_type(const Cell& cell) {
  if (!cell.note_type().empty()) return std::string(cell.note_type());
  if (!cell.style) return "box";
  const Style& style = *cell.style;
  if (const StencilOrigin* origin = stencil_origin(cell)) return origin->id;
  static const std::unordered_map<std::string_view, std::string_view> by_shape{
      {"cylinder3", "db"},    {"cylinder", "db"},          {"datastore", "db"},
      {"hexagon", "api"},     {"cloud", "cloud"},          {"mxgraph.basic.person", "actor"},
      {"umlActor", "actor"},  {"document", "doc"},         {"parallelogram", "queue"},
      {"process", "process"}, {"rhombus", "decision"},     {"triangle", "triangle"},
      {"ellipse", "circle"},  {"doubleEllipse", "circle"}, {"note", "doc"}};
  if (auto shape = style.get("shape")) {
    if (auto it = by_shape.find(*shape); it != by_shape.end()) return std::string(it->second);
  }
  if (style.has("text")) return "text";
  for (std::string_view bare : {"rhombus", "triangle", "ellipse"}) {
    if (style.has(bare)) return std::string(by_shape.at(bare));
  }
  if (style.get("rounded") == "1") return "svc";
  return "box";
}

std::pair<double, double> child_origin(const Page& page, std::string_view parent_id) {
  double x = 0, y = 0;
  std::string_view id = parent_id;
  for (int depth = 0; depth < 64 && !id.empty(); ++depth) {
    const Cell* parent = page.find(id);
    if (parent == nullptr || !parent->vertex || !parent->geometry) break;
    if (!parent->geometry->relative) {
      x += parent->geometry->x.value_or(0);
      y += parent->geometry->y.value_or(0);
    }
    id = parent->parent ? std::string_view(*parent->parent) : std::string_view();
  }
  return {x, y};
}

Rect absolute_rect(const Page& page, const Cell& cell) {
  auto [x, y] = cell.parent ? child_origin(page, *cell.parent) : std::pair{0.0, 0.0};
  if (!cell.geometry) return {x, y, 0, 0};
  const Geometry& g = *cell.geometry;
  return {x + g.x.value_or(0), y + g.y.value_or(0), g.width.value_or(0), g.height.value_or(0)};
}

void PageIndex::rebuild(const Page& page) {
  *this = PageIndex();
  page_ = &page;
  ids_.reserve(page.cell_count());
  for (const Cell& cell : page.cells())
    add(page, cell);
}

bool PageIndex::build_for_open(const Page& page) {
  *this = PageIndex();
  page_ = &page;
  ids_.reserve(page.cell_count());
  constexpr std::size_t kStopCheckCells = 1024;
  std::size_t added = 0;
  for (const Cell& cell : page.cells()) {
    if (++added % kStopCheckCells == 0 && core::call_stop()) return false;
    add(page, cell);
  }
  return true;
}

PageIndex::Slot PageIndex::find_slot(std::string_view id) const {
  auto it = ids_.find(id);
  return it == ids_.end() ? kNone : it->second;
}

PageIndex::Slot PageIndex::slot_for(std::string_view id) {
  if (auto it = ids_.find(id); it != ids_.end()) return it->second;
  Slot slot = 0;
  if (free_.empty()) {
    slot = static_cast<Slot>(nodes_.size());
    nodes_.emplace_back();
  } else {
    slot = free_.back();
    free_.pop_back();
  }
  Node& node = nodes_[slot];
  node.id = id;
  ids_.emplace(std::string_view(node.id), slot);
  return slot;
}

// A node stays while a cell has its id or a cell mentions it (as parent, source or target: it
// is then in that node's children or incident list).
void PageIndex::release_if_unused(Slot slot) {
  Node& node = nodes_[slot];
  if (node.indexed || !node.children.empty() || !node.incident.empty()) return;
  // Released already (a cell whose parent is also its source or target, say).
  const auto it = ids_.find(std::string_view(node.id));
  if (it == ids_.end() || it->second != slot) return;
  ids_.erase(it);
  // The id stays until the node is reused: a caller may still hold it (Edit::erase(child)
  // with `child` from children()) while the cell goes.
  std::string id = std::move(node.id);
  node = Node();
  node.id = std::move(id);
  free_.push_back(slot);
}

const PageIndex::Node* PageIndex::indexed(std::string_view id) const {
  const Slot slot = find_slot(id);
  if (slot == kNone || !nodes_[slot].indexed) return nullptr;
  return &nodes_[slot];
}

void PageIndex::add(const Page& page, const Cell& cell) {
  if (cell.id.empty()) return;
  CellKind kind_of = CellKind::other;
  const CellKind parent = cell.parent ? kind(*cell.parent) : CellKind::other;
  if (!cell.parent) {
    kind_of = CellKind::root;
  } else if (parent == CellKind::root) {
    kind_of = CellKind::layer;
  } else if (cell.edge) {
    kind_of = CellKind::edge;
  } else if (!cell.vertex) {
    kind_of = CellKind::other;
  } else if (parent == CellKind::edge) {
    kind_of = CellKind::edge_label;
  } else if (parent == CellKind::shape && is_badge_look(cell)) {
    kind_of = CellKind::badge;
  } else if (is_group_style(cell)) {
    kind_of = CellKind::group;
  } else {
    kind_of = CellKind::shape;
  }
  const Slot slot = slot_for(cell.id);
  // A repeated id: only the first cell is reachable, and it is already indexed.
  if (nodes_[slot].indexed) return;
  nodes_[slot].indexed = true;
  nodes_[slot].kind = kind_of;
  if (cell.parent) {
    const Slot parent_slot = slot_for(*cell.parent);
    nodes_[slot].parent = parent_slot;
    link_child(parent_slot, slot);
  }
  Node& node = nodes_[slot];
  page_ = &page;
  if (grid_built_) place_in_grid(page, cell, node, parent);
  switch (kind_of) {
    case CellKind::shape: {
      ++shapes_;
      add_names(shape_names_, cell, true);
      node.touched = ++clock_;
      latest_ = cell.id;
      if (parent == CellKind::group) latest_child_[*cell.parent] = cell.id;
      break;
    }
    case CellKind::group: {
      ++groups_;
      add_names(group_names_, cell, false);
      break;
    }
    case CellKind::layer:
      layers_.push_back(cell.id);
      break;
    case CellKind::edge: {
      ++edges_;
      const std::string_view source = cell.source ? std::string_view(*cell.source) : "";
      const std::string_view target = cell.target ? std::string_view(*cell.target) : "";
      // slot_for may add nodes: the deque keeps `node` where it is.
      if (!source.empty()) {
        node.source = slot_for(source);
        nodes_[node.source].incident.push_back(slot);
      }
      if (!target.empty()) {
        node.target = slot_for(target);
        if (target != source) nodes_[node.target].incident.push_back(slot);
      }
      break;
    }
    default:
      break;
  }
}

const FrameGrid& PageIndex::grid() const {
  if (grid_built_ || page_ == nullptr) return grid_;
  grid_built_ = true;
  for (const Cell& cell : page_->cells()) {
    if (cell.id.empty()) continue;
    const Node* node = indexed(cell.id);
    // A repeated id: only the first cell is indexed.
    if (node == nullptr || page_->find(cell.id) != &cell) continue;
    const CellKind parent = node->parent == kNone || !nodes_[node->parent].indexed
                                ? CellKind::other
                                : nodes_[node->parent].kind;
    place_in_grid(*page_, cell, *node, parent);
  }
  return grid_;
}

void PageIndex::place_in_grid(const Page& page, const Cell& cell, const Node& node,
                              CellKind parent) const {
  if ((node.kind == CellKind::shape || node.kind == CellKind::group) && cell.geometry &&
      !cell.geometry->relative) {
    const Geometry& g = *cell.geometry;
    const Rect rect{g.x.value_or(0), g.y.value_or(0), g.width.value_or(0), g.height.value_or(0)};
    const bool nested = parent == CellKind::shape || parent == CellKind::group;
    const std::string_view parent_id =
        node.parent == kNone ? std::string_view() : std::string_view(nodes_[node.parent].id);
    bool sticks_out = false;
    if (const Cell* container = nested ? page.find(parent_id) : nullptr;
        container != nullptr && container->geometry) {
      const Geometry& box = *container->geometry;
      sticks_out = rect.x < 0 || rect.y < 0 || rect.right() > box.width.value_or(0) ||
                   rect.bottom() > box.height.value_or(0);
    }
    if (rect.width > 0 && rect.height > 0)
      grid_.insert(nested ? std::string(parent_id) : "", cell.id, rect, sticks_out);
    grid_.container_resized(cell.id, rect.width, rect.height);
  }
}

void PageIndex::add_names(core::NameIndex<std::string>& names, const Cell& cell, bool with_alias) {
  if (std::string label = cell_label(cell); !label.empty()) names.add(label, cell.id);
  if (with_alias && !cell.note_alias().empty()) names.add(cell.note_alias(), cell.id);
}

void PageIndex::remove_names(core::NameIndex<std::string>& names, const Cell& cell,
                             bool with_alias) {
  if (std::string label = cell_label(cell); !label.empty()) names.remove(label, cell.id);
  if (with_alias && !cell.note_alias().empty()) names.remove(cell.note_alias(), cell.id);
}

void PageIndex::remove(const Page& page, std::string_view id) {
  const Slot slot = find_slot(id);
  if (slot == kNone || !nodes_[slot].indexed) return;
  Node& node = nodes_[slot];
  // The cell indexed under the id (the first of repeated ids, as Page::find finds it), unchanged
  // since add: its names are the ones added.
  const Cell* cell = page.find(id);
  const std::string& key = node.id;
  if (grid_built_ && (node.kind == CellKind::shape || node.kind == CellKind::group))
    grid_.erase(key);
  switch (node.kind) {
    case CellKind::shape:
      --shapes_;
      if (cell != nullptr) remove_names(shape_names_, *cell, true);
      if (node.parent != kNone) {
        if (auto latest = latest_child_.find(std::string_view(nodes_[node.parent].id));
            latest != latest_child_.end() && latest->second == key)
          latest_child_.erase(latest);
      }
      break;
    case CellKind::group:
      --groups_;
      if (cell != nullptr) remove_names(group_names_, *cell, false);
      break;
    case CellKind::layer:
      std::erase(layers_, key);
      break;
    case CellKind::edge:
      --edges_;
      if (node.source != kNone) unlink(nodes_[node.source].incident, slot);
      if (node.target != kNone && node.target != node.source)
        unlink(nodes_[node.target].incident, slot);
      break;
    default:
      break;
  }
  const Slot parent = node.parent, source = node.source, target = node.target;
  if (parent != kNone) unlink_child(parent, slot);
  node.indexed = false;
  node.kind = CellKind::other;
  node.touched = 0;
  node.parent = node.source = node.target = kNone;
  node.child_slot = 0;
  for (const Slot mentioned : {parent, source, target}) {
    if (mentioned != kNone && mentioned != slot) release_if_unused(mentioned);
  }
  release_if_unused(slot);
}

CellKind PageIndex::kind(std::string_view id) const {
  const Node* found = indexed(id);
  return found ? found->kind : CellKind::other;
}

std::optional<PageIndex::Entry> PageIndex::entry(std::string_view id) const {
  const Node* found = indexed(id);
  if (found == nullptr) return std::nullopt;
  const auto id_of = [this](Slot slot) {
    return slot == kNone ? std::string_view() : std::string_view(nodes_[slot].id);
  };
  return Entry{found->kind, id_of(found->source), id_of(found->target), id_of(found->parent)};
}

PageIndex::IdList PageIndex::incident_edges(std::string_view id) const {
  const Slot slot = find_slot(id);
  return slot == kNone ? IdList() : IdList(this, &nodes_[slot].incident);
}

std::uint64_t PageIndex::touched_at(std::string_view id) const {
  const Node* found = indexed(id);
  return found != nullptr && found->kind == CellKind::shape ? found->touched : 0;
}

std::string PageIndex::latest_shape() const {
  if (!latest_.empty() && kind(latest_) == CellKind::shape) return latest_;
  std::string best;
  std::uint64_t best_time = 0;
  for (const Node& node : nodes_) {
    if (node.indexed && node.kind == CellKind::shape && node.touched > best_time) {
      best_time = node.touched;
      best = node.id;
    }
  }
  return best;
}

std::string PageIndex::latest_shape_in(std::string_view parent) const {
  if (auto it = latest_child_.find(parent); it != latest_child_.end()) return it->second;
  // The latest was removed: the most recent of the others.
  std::string best;
  std::uint64_t best_time = 0;
  for (const auto& child : children(parent)) {
    if (kind(child) != CellKind::shape) continue;
    if (const std::uint64_t time = touched_at(child); time >= best_time) {
      best_time = time;
      best = child;
    }
  }
  return best;
}

PageIndex::IdList PageIndex::children(std::string_view id) const {
  const Slot slot = find_slot(id);
  return slot == kNone ? IdList() : IdList(this, &nodes_[slot].children.view());
}

void PageIndex::link_child(Slot parent, Slot child) {
  auto& list = nodes_[parent].children.edit();
  nodes_[child].child_slot = static_cast<std::uint32_t>(list.size());
  list.push_back(child);
}

// O(1): a container's children are many (a layer holds the page), and a container that changes
// (a group growing for each member added) is unlinked and linked again each time.
void PageIndex::unlink_child(Slot parent, Slot child) {
  ThinVector<Slot>& held = nodes_[parent].children;
  const std::size_t at = nodes_[child].child_slot;
  if (at >= held.size() || held[at] != child) return;
  std::vector<Slot>& list = held.edit();
  if (at + 1 != list.size()) {
    list[at] = list.back();
    nodes_[list[at]].child_slot = static_cast<std::uint32_t>(at);
  }
  list.pop_back();
  if (list.empty()) held.clear();
}

void PageIndex::unlink(std::vector<Slot>& list, Slot slot) {
  // Swap-and-pop: order does not matter, and recently added edges are found near the end.
  for (std::size_t i = list.size(); i-- > 0;) {
    if (list[i] == slot) {
      list[i] = list.back();
      list.pop_back();
      break;
    }
  }
  if (list.empty()) list = {};
}

}  // namespace fcp::drawio

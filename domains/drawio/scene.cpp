#include "domains/drawio/scene.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/call_scope.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/labels.hpp"

namespace fcp::drawio {
namespace {

const std::vector<std::string> kNoIds;

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
  entries_.reserve(page.cell_count());
  for (const Cell& cell : page.cells())
    add(page, cell);
}

bool PageIndex::build_for_open(const Page& page) {
  *this = PageIndex();
  page_ = &page;
  entries_.reserve(page.cell_count());
  constexpr std::size_t kStopCheckCells = 1024;
  std::size_t added = 0;
  for (const Cell& cell : page.cells()) {
    if (++added % kStopCheckCells == 0 && core::call_stop()) return false;
    add(page, cell);
  }
  return true;
}

void PageIndex::add(const Page& page, const Cell& cell) {
  if (cell.id.empty()) return;
  Entry entry;
  const CellKind parent = cell.parent ? kind(*cell.parent) : CellKind::other;
  if (!cell.parent) {
    entry.kind = CellKind::root;
  } else if (parent == CellKind::root) {
    entry.kind = CellKind::layer;
  } else if (cell.edge) {
    entry.kind = CellKind::edge;
  } else if (!cell.vertex) {
    entry.kind = CellKind::other;
  } else if (parent == CellKind::edge) {
    entry.kind = CellKind::edge_label;
  } else if (parent == CellKind::shape && is_badge_look(cell)) {
    entry.kind = CellKind::badge;
  } else if (is_group_style(cell)) {
    entry.kind = CellKind::group;
  } else {
    entry.kind = CellKind::shape;
  }
  // A repeated id: only the first cell is reachable, and it is already indexed.
  auto [it, inserted] = entries_.try_emplace(cell.id);
  if (!inserted) return;
  if (cell.parent) {
    entry.parent = *cell.parent;
    link_child(entry, cell.id);
  }
  page_ = &page;
  if (grid_built_) place_in_grid(page, cell, entry, parent);
  switch (entry.kind) {
    case CellKind::shape: {
      ++shapes_;
      std::string label = cell_label(cell);
      if (!label.empty()) entry.names.push_back(std::move(label));
      if (!cell.note_alias().empty()) entry.names.emplace_back(cell.note_alias());
      for (const auto& name : entry.names)
        shape_names_.add(name, cell.id);
      entry.touched = ++clock_;
      latest_ = cell.id;
      if (parent == CellKind::group) latest_child_[entry.parent] = cell.id;
      break;
    }
    case CellKind::group: {
      ++groups_;
      std::string label = cell_label(cell);
      if (!label.empty()) {
        group_names_.add(label, cell.id);
        entry.names.push_back(std::move(label));
      }
      break;
    }
    case CellKind::layer:
      layers_.push_back(cell.id);
      break;
    case CellKind::edge:
      ++edges_;
      entry.source = cell.source.value_or("");
      entry.target = cell.target.value_or("");
      if (!entry.source.empty()) link(incident_, entry.source, cell.id);
      if (!entry.target.empty() && entry.target != entry.source)
        link(incident_, entry.target, cell.id);
      break;
    default:
      break;
  }
  it->second = std::move(entry);
}

const FrameGrid& PageIndex::grid() const {
  if (grid_built_ || page_ == nullptr) return grid_;
  grid_built_ = true;
  for (const Cell& cell : page_->cells()) {
    if (cell.id.empty()) continue;
    const Entry* indexed = entry(cell.id);
    // A repeated id: only the first cell is indexed.
    if (indexed == nullptr || page_->find(cell.id) != &cell) continue;
    place_in_grid(*page_, cell, *indexed, kind(indexed->parent));
  }
  return grid_;
}

void PageIndex::place_in_grid(const Page& page, const Cell& cell, const Entry& entry,
                              CellKind parent) const {
  if ((entry.kind == CellKind::shape || entry.kind == CellKind::group) && cell.geometry &&
      !cell.geometry->relative) {
    const Geometry& g = *cell.geometry;
    const Rect rect{g.x.value_or(0), g.y.value_or(0), g.width.value_or(0), g.height.value_or(0)};
    const bool nested = parent == CellKind::shape || parent == CellKind::group;
    bool sticks_out = false;
    if (const Cell* container = nested ? page.find(entry.parent) : nullptr;
        container != nullptr && container->geometry) {
      const Geometry& box = *container->geometry;
      sticks_out = rect.x < 0 || rect.y < 0 || rect.right() > box.width.value_or(0) ||
                   rect.bottom() > box.height.value_or(0);
    }
    if (rect.width > 0 && rect.height > 0)
      grid_.insert(nested ? entry.parent : "", cell.id, rect, sticks_out);
    grid_.container_resized(cell.id, rect.width, rect.height);
  }
}

void PageIndex::remove(std::string_view id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  const Entry& entry = it->second;
  if (!entry.parent.empty()) unlink_child(entry, it->first);
  if (grid_built_ && (entry.kind == CellKind::shape || entry.kind == CellKind::group))
    grid_.erase(id);
  switch (entry.kind) {
    case CellKind::shape:
      --shapes_;
      for (const auto& name : entry.names)
        shape_names_.remove(name, it->first);
      if (auto latest = latest_child_.find(entry.parent);
          latest != latest_child_.end() && latest->second == it->first)
        latest_child_.erase(latest);
      break;
    case CellKind::group:
      --groups_;
      for (const auto& name : entry.names)
        group_names_.remove(name, it->first);
      break;
    case CellKind::layer:
      std::erase(layers_, it->first);
      break;
    case CellKind::edge:
      --edges_;
      if (!entry.source.empty()) unlink(incident_, entry.source, it->first);
      if (!entry.target.empty() && entry.target != entry.source)
        unlink(incident_, entry.target, it->first);
      break;
    default:
      break;
  }
  entries_.erase(it);
}

CellKind PageIndex::kind(std::string_view id) const {
  const Entry* found = entry(id);
  return found ? found->kind : CellKind::other;
}

const PageIndex::Entry* PageIndex::entry(std::string_view id) const {
  auto it = entries_.find(id);
  return it == entries_.end() ? nullptr : &it->second;
}

const std::vector<std::string>& PageIndex::incident_edges(std::string_view id) const {
  auto it = incident_.find(id);
  return it == incident_.end() ? kNoIds : it->second;
}

std::uint64_t PageIndex::touched_at(std::string_view id) const {
  const Entry* found = entry(id);
  return found != nullptr && found->kind == CellKind::shape ? found->touched : 0;
}

std::string PageIndex::latest_shape() const {
  if (!latest_.empty() && kind(latest_) == CellKind::shape) return latest_;
  std::string best;
  std::uint64_t best_time = 0;
  for (const auto& [id, entry] : entries_) {
    if (entry.kind == CellKind::shape && entry.touched > best_time) {
      best_time = entry.touched;
      best = id;
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

const std::vector<std::string>& PageIndex::children(std::string_view id) const {
  auto it = children_.find(id);
  return it == children_.end() ? kNoIds : it->second;
}

void PageIndex::link(Links& links, const std::string& key, const std::string& id) {
  links[key].push_back(id);
}

void PageIndex::link_child(Entry& entry, const std::string& id) {
  auto& list = children_[entry.parent];
  entry.child_slot = static_cast<std::uint32_t>(list.size());
  list.push_back(id);
}

// O(1): a container's children are many (a layer holds the page), and a container that changes
// (a group growing for each member added) is unlinked and linked again each time.
void PageIndex::unlink_child(const Entry& entry, const std::string& id) {
  auto it = children_.find(entry.parent);
  if (it == children_.end()) return;
  auto& list = it->second;
  const std::size_t at = entry.child_slot;
  if (at >= list.size() || list[at] != id) return;
  if (at + 1 != list.size()) {
    list[at] = std::move(list.back());
    if (auto moved = entries_.find(list[at]); moved != entries_.end())
      moved->second.child_slot = static_cast<std::uint32_t>(at);
  }
  list.pop_back();
  if (list.empty()) children_.erase(it);
}

void PageIndex::unlink(Links& links, const std::string& key, const std::string& id) {
  auto it = links.find(key);
  if (it == links.end()) return;
  auto& list = it->second;
  // Swap-and-pop: order does not matter, and recently added edges are found near the end.
  for (std::size_t i = list.size(); i-- > 0;) {
    if (list[i] == id) {
      list[i] = std::move(list.back());
      list.pop_back();
      break;
    }
  }
  if (list.empty()) links.erase(it);
}

}  // namespace fcp::drawio

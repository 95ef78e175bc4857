// DrawioDocument's reports to the engine: status lines, runtime additions to the reference card,
// and the structural warnings after a batch (orphans, overlaps, labels too long, edges crossing
// groups). Warnings cost O(n + k) for a page of n shapes and a batch touching k cells.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/labels.hpp"

namespace fcp::drawio {
namespace {

constexpr std::size_t kMaxWarnings = 10;
constexpr std::size_t kMaxStatusEntries = 20;  // shapes per status line, group lines per page
constexpr std::size_t kMaxCrossingGroups = 200;
constexpr std::size_t kMaxNameLength = 40;
constexpr int kMaxDepth = 64;
constexpr double kCharWidth = 7;     // px per character at fontSize 12
constexpr double kLineHeight = 1.2;  // × fontSize
constexpr double kDefaultFontSize = 12;

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

// A cell's name for messages: its first label line (shortened), or #id.
std::string short_name(const Cell& cell) {
  std::string label = cell_label(cell);
  if (label.empty()) return "#" + cell.id;
  if (auto newline = label.find('\n'); newline != std::string::npos) label.resize(newline);
  if (utf8_length(label) > kMaxNameLength) {
    std::size_t bytes = 0, chars = 0;
    while (bytes < label.size() && chars < kMaxNameLength) {
      ++bytes;
      while (bytes < label.size() && (static_cast<unsigned char>(label[bytes]) & 0xC0) == 0x80)
        ++bytes;
      ++chars;
    }
    label = label.substr(0, bytes) + "…";
  }
  return label;
}

// The group a cell sits in (nearest container ancestor), or null.
const Cell* enclosing_group(const Page& page, const PageIndex& index, const Cell& cell) {
  const Cell* current = &cell;
  for (int depth = 0; depth < kMaxDepth && current->parent; ++depth) {
    const Cell* parent = page.find(*current->parent);
    if (parent == nullptr) return nullptr;
    const CellKind kind = index.kind(parent->id);
    if (kind == CellKind::group) return parent;
    if (kind == CellKind::layer || kind == CellKind::root) return nullptr;
    current = parent;
  }
  return nullptr;
}

// Ids of every ancestor of a cell (bounded).
std::vector<std::string_view> ancestors(const Page& page, const Cell& cell) {
  std::vector<std::string_view> out;
  const Cell* current = &cell;
  for (int depth = 0; depth < kMaxDepth && current->parent; ++depth) {
    out.emplace_back(*current->parent);
    current = page.find(*current->parent);
    if (current == nullptr) break;
  }
  return out;
}

bool contains(const std::vector<std::string_view>& ids, std::string_view id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// ---- status -----------------------------------------------------------------------------------

std::string capped_list(const std::vector<std::string>& entries, std::size_t total) {
  std::string out = join(entries, ", ");
  if (total > entries.size()) out += ", … " + std::to_string(total - entries.size()) + " more";
  return out;
}

// "  Group: A(svc), B(db)" lines for the shapes of a page, then "  Ungrouped: …".
std::vector<std::string> membership_lines(const Page& page, const PageIndex& index) {
  struct Bucket {
    std::string name;
    std::vector<std::string> entries;
    std::size_t total = 0;
  };
  std::vector<Bucket> buckets;
  std::unordered_map<std::string_view, std::size_t> bucket_of;
  Bucket ungrouped{"Ungrouped", {}, 0};
  for (const Cell& cell : page.cells()) {
    if (index.kind(cell.id) != CellKind::shape) continue;
    Bucket* bucket = &ungrouped;
    if (const Cell* group = enclosing_group(page, index, cell)) {
      auto [it, inserted] = bucket_of.try_emplace(group->id, buckets.size());
      if (inserted) buckets.push_back({short_name(*group), {}, 0});
      bucket = &buckets[it->second];
    }
    if (bucket->entries.size() < kMaxStatusEntries)
      bucket->entries.push_back(short_name(cell) + "(" + shape_type(cell) + ")");
    ++bucket->total;
  }
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < buckets.size() && i < kMaxStatusEntries; ++i)
    lines.push_back("  " + buckets[i].name + ": " +
                    capped_list(buckets[i].entries, buckets[i].total));
  if (buckets.size() > kMaxStatusEntries)
    lines.push_back("  … " + std::to_string(buckets.size() - kMaxStatusEntries) + " more groups");
  if (ungrouped.total > 0)
    lines.push_back("  Ungrouped: " + capped_list(ungrouped.entries, ungrouped.total));
  return lines;
}

std::string custom_type_text(const CustomType& type) {
  std::string text = type.name + " (base:" + type.base;
  if (!type.theme.empty()) text += " theme:" + type.theme;
  if (!type.badge.empty()) text += " badge:" + quote_token(type.badge);
  if (type.size)
    text += " size:" + format_number(type.size->first) + "x" + format_number(type.size->second);
  return text + ")";
}

std::string custom_theme_text(const CustomTheme& theme) {
  std::string text = theme.name + " (" + theme.fill + " / " + theme.stroke;
  if (!theme.font_color.empty()) text += " font:" + theme.font_color;
  return text + ")";
}

// ---- warnings ---------------------------------------------------------------------------------

// Counts every warning but keeps only the first kMaxWarnings texts.
class WarningList {
 public:
  bool wants_text() const { return total_ < kMaxWarnings; }
  void add(std::string text) {
    if (wants_text()) shown_.push_back(std::move(text));
    ++total_;
  }
  std::vector<std::string> take() {
    if (total_ > shown_.size())
      shown_.push_back("… and " + std::to_string(total_ - shown_.size()) + " more warnings");
    return std::move(shown_);
  }

 private:
  std::vector<std::string> shown_;
  std::size_t total_ = 0;
};

// The shapes of a page in a uniform grid, built once per warnings() call. A shape spanning too
// many grid cells is kept aside and checked against every query instead.
class ShapeGrid {
 public:
  struct Item {
    const Cell* cell;
    Rect rect;
  };

  ShapeGrid(const Page& page, const PageIndex& index) {
    double extent = 0;
    for (const Cell& cell : page.cells()) {
      if (index.kind(cell.id) != CellKind::shape) continue;
      const Rect rect = absolute_rect(page, cell);
      if (rect.width <= 0 || rect.height <= 0) continue;
      items_.push_back({&cell, rect});
      extent += std::max(rect.width, rect.height);
    }
    if (items_.empty()) return;
    cell_size_ = std::clamp(2 * extent / static_cast<double>(items_.size()), 32.0, 4096.0);
    for (std::size_t i = 0; i < items_.size(); ++i) {
      const Span span = span_of(items_[i].rect);
      if (span.cells() > kMaxSpan) {
        big_.push_back(i);
        continue;
      }
      for (std::int64_t gx = span.x0; gx <= span.x1; ++gx) {
        for (std::int64_t gy = span.y0; gy <= span.y1; ++gy)
          grid_[key(gx, gy)].push_back(i);
      }
    }
  }

  // Items whose box shares area with `rect` (each once).
  std::vector<const Item*> overlapping(const Rect& rect) const {
    std::vector<std::size_t> candidates = big_;
    const Span span = span_of(rect);
    if (span.cells() > kMaxSpan) {
      candidates.resize(items_.size());
      for (std::size_t i = 0; i < items_.size(); ++i)
        candidates[i] = i;
    } else {
      for (std::int64_t gx = span.x0; gx <= span.x1; ++gx) {
        for (std::int64_t gy = span.y0; gy <= span.y1; ++gy) {
          auto it = grid_.find(key(gx, gy));
          if (it != grid_.end())
            candidates.insert(candidates.end(), it->second.begin(), it->second.end());
        }
      }
      std::sort(candidates.begin(), candidates.end());
      candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    }
    std::vector<const Item*> out;
    for (std::size_t i : candidates) {
      if (items_[i].rect.overlaps(rect)) out.push_back(&items_[i]);
    }
    return out;
  }

 private:
  static constexpr std::int64_t kMaxSpan = 64;
  static constexpr double kMaxGrid = 1e9;
  struct Span {
    std::int64_t x0, y0, x1, y1;
    std::int64_t cells() const { return (x1 - x0 + 1) * (y1 - y0 + 1); }
  };

  std::int64_t grid_of(double value) const {
    return static_cast<std::int64_t>(
        std::clamp(std::floor(value / cell_size_), -kMaxGrid, kMaxGrid));
  }
  Span span_of(const Rect& r) const {
    return {grid_of(r.x), grid_of(r.y), grid_of(r.right()), grid_of(r.bottom())};
  }
  static std::uint64_t key(std::int64_t gx, std::int64_t gy) {
    return (static_cast<std::uint64_t>(gx) << 32) ^ static_cast<std::uint32_t>(gy);
  }

  std::vector<Item> items_;
  std::vector<std::size_t> big_;
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> grid_;
  double cell_size_ = 1;
};

double style_number(const Cell& cell, std::string_view key, double fallback) {
  auto text = cell.style_value(key);
  if (!text) return fallback;
  double value = 0;
  auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  return ec == std::errc() && ptr == text->data() + text->size() && value > 0 ? value : fallback;
}

// An estimate: 7 px per character at fontSize 12, lines of 1.2 × fontSize; wrapped labels are
// compared by their total height, unwrapped ones by their widest line and their line count.
bool label_too_long(const Cell& cell, const Rect& box) {
  if (box.width <= 0 || box.height <= 0 || cell.is_text()) return false;
  if (cell.style_value("autosize") == "1") return false;
  // Labels drawn beside the shape (stencil icons) are not limited by its box.
  if (auto position = cell.style_value("verticalLabelPosition"); position && *position != "middle")
    return false;
  if (auto position = cell.style_value("labelPosition"); position && *position != "center")
    return false;
  const std::string label = cell_label(cell);
  if (label.empty()) return false;
  const double font = style_number(cell, "fontSize", kDefaultFontSize);
  const double char_width = kCharWidth * font / kDefaultFontSize;
  const bool wrap = cell.style_value("whiteSpace") == "wrap";
  double rows = 0;
  std::string_view rest = label;
  while (true) {
    const auto newline = rest.find('\n');
    const double width = static_cast<double>(utf8_length(rest.substr(0, newline))) * char_width;
    if (wrap) {
      rows += std::max(1.0, std::ceil(width / box.width));
    } else {
      if (width > box.width) return true;
      rows += 1;
    }
    if (newline == std::string_view::npos) break;
    rest.remove_prefix(newline + 1);
  }
  return rows * font * kLineHeight > box.height;
}

// Whether the segment p→q passes through the inside of `r` (Liang–Barsky clipping).
bool segment_crosses(const Rect& r, double px, double py, double qx, double qy) {
  double t0 = 0, t1 = 1;
  const double dx = qx - px, dy = qy - py;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {px - r.x, r.right() - px, py - r.y, r.bottom() - py};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] <= 0) return false;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0) {
      t0 = std::max(t0, t);
    } else {
      t1 = std::min(t1, t);
    }
    if (t0 >= t1) return false;
  }
  return true;
}

bool contains_point(const Rect& r, double x, double y) {
  return x > r.x && x < r.right() && y > r.y && y < r.bottom();
}

// What a batch did to the active page: shapes created or changed, edges created.
struct BatchCells {
  std::vector<const Cell*> shapes;
  std::vector<const Cell*> new_edges;
};

BatchCells batch_cells(const Page& page, const PageIndex& index, std::size_t page_number,
                       std::span<const core::EventPtr> batch) {
  BatchCells out;
  std::unordered_set<std::string_view> seen;
  for (const auto& event : batch) {
    const auto* edit = dynamic_cast<const DiagramEdit*>(event.get());
    if (edit == nullptr) continue;
    for (const auto& change : edit->changes()) {
      const auto* cell_change = std::get_if<CellChange>(&change);
      if (cell_change == nullptr || cell_change->page != page_number || !cell_change->after)
        continue;
      const Cell* cell = page.find(cell_change->id);
      if (cell == nullptr) continue;
      const CellKind kind = index.kind(cell->id);
      const bool created = !cell_change->before;
      if (kind == CellKind::shape && seen.insert(cell->id).second) out.shapes.push_back(cell);
      if (kind == CellKind::edge && created && seen.insert(cell->id).second)
        out.new_edges.push_back(cell);
    }
  }
  return out;
}

void warn_orphans(const PageIndex& index, const BatchCells& cells, WarningList& warnings) {
  if (index.shapes() < 2 || index.edges() < 1) return;
  for (const Cell* cell : cells.shapes) {
    if (!cell->is_text() && index.incident_edges(cell->id).empty())
      warnings.add(short_name(*cell) + ": no connections");
  }
}

void warn_overlaps(const Page& page, const PageIndex& index, const BatchCells& cells,
                   WarningList& warnings) {
  if (cells.shapes.empty()) return;
  const ShapeGrid grid(page, index);
  std::unordered_set<std::string> reported;
  for (const Cell* cell : cells.shapes) {
    const Rect rect = absolute_rect(page, *cell);
    if (rect.width <= 0 || rect.height <= 0) continue;
    for (const ShapeGrid::Item* other : grid.overlapping(rect)) {
      if (other->cell == cell) continue;
      const std::string& a = std::min(cell->id, other->cell->id);
      const std::string& b = std::max(cell->id, other->cell->id);
      std::string pair = a;
      pair += '\0';
      pair += b;
      if (!reported.insert(std::move(pair)).second) continue;
      // A shape drawn inside another (nested vertices) is not an overlap.
      if (contains(ancestors(page, *cell), other->cell->id) ||
          contains(ancestors(page, *other->cell), cell->id))
        continue;
      warnings.add(short_name(*cell) + " overlaps " + short_name(*other->cell));
    }
  }
}

void warn_long_labels(const Page& page, const BatchCells& cells, WarningList& warnings) {
  for (const Cell* cell : cells.shapes) {
    const Rect box = absolute_rect(page, *cell);
    if (label_too_long(*cell, box))
      warnings.add("label of " + short_name(*cell) + " is too long for its " +
                   format_number(box.width) + "x" + format_number(box.height) + " box");
  }
}

void warn_crossings(const Page& page, const PageIndex& index, const BatchCells& cells,
                    WarningList& warnings) {
  if (cells.new_edges.empty() || index.groups() == 0) return;
  std::vector<std::pair<const Cell*, Rect>> groups;
  for (const Cell& cell : page.cells()) {
    if (groups.size() >= kMaxCrossingGroups) break;
    if (index.kind(cell.id) == CellKind::group)
      groups.emplace_back(&cell, absolute_rect(page, cell));
  }
  for (const Cell* edge : cells.new_edges) {
    const Cell* source = edge->source ? page.find(*edge->source) : nullptr;
    const Cell* target = edge->target ? page.find(*edge->target) : nullptr;
    if (source == nullptr || target == nullptr || source == target) continue;
    const Rect a = absolute_rect(page, *source), b = absolute_rect(page, *target);
    const auto source_up = ancestors(page, *source), target_up = ancestors(page, *target);
    for (const auto& [group, box] : groups) {
      if (group == source || group == target || contains(source_up, group->id) ||
          contains(target_up, group->id))
        continue;
      if (contains_point(box, a.center_x(), a.center_y()) ||
          contains_point(box, b.center_x(), b.center_y()))
        continue;
      if (segment_crosses(box, a.center_x(), a.center_y(), b.center_x(), b.center_y()))
        warnings.add("edge " + short_name(*source) + "->" + short_name(*target) +
                     " crosses group " + short_name(*group));
    }
  }
}

}  // namespace

std::vector<std::string> DrawioDocument::status_lines() const {
  std::vector<std::string> lines;
  const bool several = diagram_.pages().size() > 1;
  for (std::size_t i = 0; i < diagram_.pages().size(); ++i) {
    const PageIndex& idx = indexes_[i];
    std::string name(page(i).name());
    if (name.empty()) name = "Page-" + std::to_string(i + 1);
    const bool active = i == state_.active_page;
    lines.push_back("page: " + name + " (" + (several && active ? "active, " : "") +
                    std::to_string(idx.shapes()) + " shapes, " + std::to_string(idx.edges()) +
                    " edges, " + std::to_string(idx.groups()) + " groups)");
    if (active) {
      for (auto& line : membership_lines(page(i), idx))
        lines.push_back(std::move(line));
    }
  }
  if (!state_.title.empty()) lines.push_back("title: " + state_.title);
  if (!state_.custom_types.empty()) {
    std::vector<std::string> types;
    for (const auto& [name, type] : state_.custom_types)
      types.push_back(custom_type_text(type));
    lines.push_back("custom types: " + join(types, ", "));
  }
  if (!state_.custom_themes.empty()) {
    std::vector<std::string> themes;
    for (const auto& [name, theme] : state_.custom_themes)
      themes.push_back(custom_theme_text(theme));
    lines.push_back("custom themes: " + join(themes, ", "));
  }
  if (!state_.loaded_packs.empty()) lines.push_back("stencils: " + join(state_.loaded_packs, ", "));
  return lines;
}

std::string DrawioDocument::help_additions() const {
  if (state_.custom_types.empty() && state_.custom_themes.empty() && state_.loaded_packs.empty())
    return {};
  std::vector<std::string> lines{"### RUNTIME"};
  if (!state_.custom_types.empty()) {
    lines.emplace_back("Custom types (add TYPE LABEL):");
    for (const auto& [name, type] : state_.custom_types)
      lines.push_back("  " + custom_type_text(type));
  }
  if (!state_.custom_themes.empty()) {
    lines.emplace_back("Custom themes (theme:NAME):");
    for (const auto& [name, theme] : state_.custom_themes)
      lines.push_back("  " + custom_theme_text(theme));
  }
  for (const auto& pack_id : state_.loaded_packs) {
    const auto* pack = data::find_stencil_pack(pack_id);
    if (pack == nullptr) continue;
    lines.push_back("Stencils " + std::string(pack->id) + " — " + std::string(pack->name) +
                    " (add TYPE LABEL):");
    std::vector<std::pair<std::string_view, std::vector<std::string>>> categories;
    for (const auto& entry : pack->entries) {
      auto it = std::find_if(categories.begin(), categories.end(),
                             [&](const auto& c) { return c.first == entry.category; });
      if (it == categories.end()) it = categories.insert(categories.end(), {entry.category, {}});
      it->second.emplace_back(entry.id);
    }
    for (const auto& [category, ids] : categories)
      lines.push_back("  " + std::string(category) + ": " + join(ids, ", "));
  }
  return join(lines, "\n");
}

std::vector<std::string> DrawioDocument::warnings(std::span<const core::EventPtr> batch) const {
  const Page& p = page();
  const PageIndex& idx = index();
  const BatchCells cells = batch_cells(p, idx, state_.active_page, batch);
  if (cells.shapes.empty() && cells.new_edges.empty()) return {};
  WarningList warnings;
  warn_orphans(idx, cells, warnings);
  warn_overlaps(p, idx, cells, warnings);
  warn_long_labels(p, cells, warnings);
  warn_crossings(p, idx, cells, warnings);
  return warnings.take();
}

}  // namespace fcp::drawio

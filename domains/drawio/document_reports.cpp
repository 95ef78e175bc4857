// DrawioDocument's reports to the engine: status lines and runtime additions to the reference
// card (the warnings after a batch are in batch_warnings.cpp).
#include <algorithm>
#include <unordered_map>

#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/document.hpp"
#include "domains/drawio/labels.hpp"

namespace fcp::drawio {
namespace {

constexpr std::size_t kMaxStatusEntries = 20;  // shapes per status line, group lines per page
constexpr int kMaxDepth = 64;

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
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
      if (inserted) buckets.push_back({message_name(*group), {}, 0});
      bucket = &buckets[it->second];
    }
    if (bucket->entries.size() < kMaxStatusEntries)
      bucket->entries.push_back(message_name(cell) + "(" + shape_type(cell) + ")");
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

}  // namespace fcp::drawio

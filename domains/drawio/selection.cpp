#include "domains/drawio/selection.hpp"

#include <algorithm>
#include <unordered_set>

#include "core/resolve.hpp"
#include "core/response.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/references.hpp"

namespace fcp::drawio {
namespace {

constexpr std::size_t kMaxDescribed = 6;  // shapes named in a nothing-matched answer
constexpr std::size_t kMaxHints = 3;
constexpr int kMaxDepth = 64;  // nesting walks (files can be cyclic)

// The shapes of one page, in document order.
class ShapeScope final : public core::SelectorScope {
 public:
  ShapeScope(const DrawioDocument& doc, std::size_t page, std::string_view written)
      : doc_(doc), page_(doc.page(page)), index_(doc.index(page)), written_(written) {
    shapes_.reserve(index_.shapes());
    for (const Cell& cell : page_.cells()) {
      if (index_.kind(cell.id) == CellKind::shape) shapes_.push_back(&cell);
    }
  }

  const core::SelectorCatalog& catalog() const override { return selector_catalog(); }
  std::size_t size() const override { return shapes_.size(); }
  std::string type_of(std::size_t i) const override { return shape_type(*shapes_[i]); }
  std::string key_of(std::size_t i) const override { return shapes_[i]->id; }
  std::string describe(std::span<const std::size_t> members) const override {
    std::string out = core::plural(members.size(), "shape") + ":";
    for (std::size_t n = 0; n < members.size() && n < kMaxDescribed; ++n) {
      const Cell& cell = *shapes_[members[n]];
      std::string label = cell_label(cell);
      std::replace(label.begin(), label.end(), '\n', ' ');
      out +=
          (n ? ", " : " ") + (label.empty() ? "#" + cell.id : label) + "(" + shape_type(cell) + ")";
    }
    if (members.size() > kMaxDescribed) out += ", …";
    return out;
  }

  const std::string& id(std::size_t i) const { return shapes_[i]->id; }
  // Names in selector values resolve as references in ops do.
  PageReferences references() const { return {doc_, page_, index_, written_}; }
  std::string_view written() const { return written_; }
  const Page& page() const { return page_; }
  const PageIndex& index() const { return index_; }
  // True when `id` sits (at any depth) inside the cell `ancestor`.
  bool inside(std::string_view id, std::string_view ancestor) const {
    const Cell* cell = page_.find(id);
    for (int depth = 0; cell != nullptr && cell->parent && depth < kMaxDepth; ++depth) {
      if (*cell->parent == ancestor) return true;
      cell = page_.find(*cell->parent);
    }
    return false;
  }

 private:
  const DrawioDocument& doc_;
  const Page& page_;
  const PageIndex& index_;
  std::string_view written_;
  std::vector<const Cell*> shapes_;
};

core::Result<core::EntityTest> orphan_test(const ShapeScope& scope, std::string_view) {
  return core::EntityTest(
      [&scope](std::size_t i) { return scope.index().incident_edges(scope.id(i)).empty(); });
}

core::Result<core::EntityTest> group_test(const ShapeScope& scope, std::string_view value) {
  auto group = resolve_group(scope.references(), value);
  if (!group) return group.error();
  return core::EntityTest(
      [&scope, group = *group](std::size_t i) { return scope.inside(scope.id(i), group); });
}

core::Result<core::EntityTest> connected_test(const ShapeScope& scope, std::string_view value) {
  auto shape = resolve_shape(scope.references(), value);
  if (!shape) return shape.error();
  const std::string& center = *shape;
  std::unordered_set<std::string> neighbours;
  for (const auto& edge_id : scope.index().incident_edges(center)) {
    const auto entry = scope.index().entry(edge_id);
    if (!entry) continue;
    neighbours.emplace(entry->source == center ? entry->target : entry->source);
  }
  neighbours.erase(center);
  return core::EntityTest([&scope, neighbours = std::move(neighbours)](std::size_t i) {
    return neighbours.contains(scope.id(i));
  });
}

core::Result<core::EntityTest> layer_test(const ShapeScope& scope, std::string_view value) {
  const std::string wanted = core::to_lower(value);
  std::vector<std::string> names;
  const auto layers = scope.page().layers();
  for (const Cell* layer : layers) {
    std::string name = cell_label(*layer);
    if (name.empty()) name = layer == layers.front() ? "Default" : "Layer-" + layer->id;
    if (core::to_lower(name) == wanted || layer->id == value) {
      return core::EntityTest([&scope, layer_id = layer->id](std::size_t i) {
        return scope.inside(scope.id(i), layer_id);
      });
    }
    names.push_back(std::move(name));
  }
  return core::unknown_reference({"layer", scope.written()}, value, names);
}

core::Result<core::EntityTest> page_test(const ShapeScope&, std::string_view value) {
  return core::make_error("@page:" + std::string(value) +
                              " names shapes of another page; ops change the active page only",
                          {"page switch " + quote_token(value)});
}

}  // namespace

const core::SelectorCatalog& selector_catalog() {
  using core::SelectorValue;
  static const core::SelectorCatalog catalog{
      "shape",
      "T",
      "node type (svc db actor …, a custom or stencil type)",
      "",
      {{"orphan", SelectorValue::none, "", "shapes without edges", "",
        core::scoped_compile(&orphan_test)},
       {"group", SelectorValue::required, "NAME", "shapes inside the group, at any depth", "",
        core::scoped_compile(&group_test)},
       {"connected", SelectorValue::required, "REF", "shapes with an edge to or from REF", "",
        core::scoped_compile(&connected_test)},
       {"layer", SelectorValue::required, "NAME", "shapes on the layer", "",
        core::scoped_compile(&layer_test)},
       {"page", SelectorValue::required, "NAME",
        "queries only: read that page instead of the active one", "",
        core::scoped_compile(&page_test)}},
      true};
  return catalog;
}

core::Result<ShapeSelection> select_shapes(const DrawioDocument& doc, std::size_t page,
                                           std::span<const core::Selector> selectors,
                                           const core::EventLog& log, std::string_view written) {
  const ShapeScope scope(doc, page, written);
  auto selection = core::select(selectors, scope, log, written);
  if (!selection) return selection.error();
  ShapeSelection out;
  out.ids.reserve(selection->members.size());
  for (std::size_t i : selection->members)
    out.ids.push_back(scope.id(i));
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

core::Result<std::size_t> page_selector(const DrawioDocument& doc,
                                        std::vector<core::Selector>& selectors,
                                        std::string_view verb) {
  std::size_t page = doc.active_page_index();
  for (auto it = selectors.begin(); it != selectors.end();) {
    if (it->type != "page" || it->negated) {
      ++it;
      continue;
    }
    const std::string wanted = core::to_lower(it->value);
    bool found = false;
    for (std::size_t i = 0; i < doc.diagram().pages().size() && !found; ++i) {
      if (core::to_lower(doc.page(i).name()) == wanted) {
        page = i;
        found = true;
      }
    }
    if (!found) {
      std::vector<std::string> hints;
      for (std::size_t i = 0; i < doc.diagram().pages().size() && hints.size() < kMaxHints; ++i)
        hints.push_back(std::string(verb) + " @page:" + quote_token(doc.page(i).name()));
      return core::make_error("unknown page \"" + it->value + "\"", std::move(hints));
    }
    it = selectors.erase(it);
  }
  return page;
}

}  // namespace fcp::drawio

#include "domains/drawio/references.hpp"

#include <optional>
#include <vector>

#include "core/resolve.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/scene.hpp"

namespace fcp::drawio {
namespace {

constexpr int kMaxDepth = 64;  // nesting walks (files can be cyclic)

bool is_known_type(const DrawioDocument& doc, std::string_view name) {
  if (data::find_node_type(name) != nullptr || name == "text" || name == "group") return true;
  if (doc.state().custom_types.contains(std::string(name))) return true;
  for (const auto& pack_id : doc.state().loaded_packs) {
    if (const auto* pack = data::find_stencil_pack(pack_id);
        pack != nullptr && data::find_stencil(*pack, name) != nullptr)
      return true;
  }
  return false;
}

bool inside(const Page& page, std::string_view id, std::string_view ancestor) {
  const Cell* cell = page.find(id);
  for (int depth = 0; cell != nullptr && cell->parent && depth < kMaxDepth; ++depth) {
    if (*cell->parent == ancestor) return true;
    cell = page.find(*cell->parent);
  }
  return false;
}

template <class Keep>
std::vector<std::string> filter(const std::vector<std::string>& ids, Keep keep) {
  std::vector<std::string> out;
  for (const auto& id : ids) {
    if (keep(id)) out.push_back(id);
  }
  return out;
}

// A reference that names exactly `id` among the ambiguous `ids`: its label when that is unique
// on the page, else type:Label or Group/Label when they tell it apart, else #id.
std::string pasteable_ref(const PageReferences& refs, const std::string& id,
                          const std::vector<std::string>& ids) {
  const Cell* cell = refs.page.find(id);
  if (cell == nullptr) return "#" + id;
  const std::string label = cell_label(*cell);
  if (label.empty()) return "#" + id;
  const auto exact = refs.index.shape_names().lookup(label);
  if (exact.level == core::MatchLevel::exact && exact.ids.size() == 1) return quote_token(label);
  const std::string type = shape_type(*cell);
  const std::string group = parent_group(refs.page, refs.index, id);
  std::size_t same_type = 0, same_group = 0;
  for (const auto& other : ids) {
    if (const Cell* o = refs.page.find(other); o != nullptr && shape_type(*o) == type) ++same_type;
    if (parent_group(refs.page, refs.index, other) == group) ++same_group;
  }
  if (same_type == 1 && data::find_node_type(type) != nullptr)
    return quote_token(type + ":" + label);
  if (const Cell* g = refs.page.find(group);
      same_group == 1 && g != nullptr && !cell_label(*g).empty())
    return quote_token(cell_label(*g) + "/" + label);
  return "#" + id;
}

core::Error ambiguous(const PageReferences& refs, std::string_view noun, std::string_view ref,
                      const std::vector<std::string>& ids) {
  std::vector<std::string> described, tokens;
  for (const auto& id : ids) {
    if (const Cell* cell = refs.page.find(id))
      described.push_back(quote_token(cell_label(*cell)) + "(" + shape_type(*cell) + ")");
    tokens.push_back(pasteable_ref(refs, id, ids));
  }
  return core::ambiguous_reference({noun, refs.written}, ref, ids.size(), described, tokens);
}

core::Error not_found(const PageReferences& refs, std::string_view noun, std::string_view ref,
                      const std::vector<std::string>& names) {
  const std::string when_none = "this page has no " + std::string(noun) + "s";
  return core::unknown_reference({noun, refs.written, when_none}, ref, names);
}

// `Group/Label` or `type:Label`: the one shape it names, an error, or nullopt when `ref` is
// neither form or names nothing that way.
std::optional<core::Result<std::string>> qualified(const PageReferences& refs,
                                                   std::string_view ref) {
  if (auto slash = ref.find('/'); slash != std::string_view::npos && slash > 0) {
    auto group = refs.index.group_names().lookup(ref.substr(0, slash));
    if (group.ids.size() == 1) {
      auto found = refs.index.shape_names().lookup(ref.substr(slash + 1));
      auto members = filter(found.ids, [&](const std::string& id) {
        return inside(refs.page, id, group.ids.front());
      });
      if (members.size() == 1) return members.front();
      if (members.size() > 1) return ambiguous(refs, "shape", ref, members);
    }
  }
  if (auto colon = ref.find(':'); colon != std::string_view::npos && colon > 0 &&
                                  colon + 1 < ref.size() && ref[colon + 1] != ' ') {
    const std::string_view type = ref.substr(0, colon);
    if (type.find(' ') == std::string_view::npos && is_known_type(refs.doc, type)) {
      auto found = refs.index.shape_names().lookup(ref.substr(colon + 1));
      auto typed = filter(found.ids, [&](const std::string& id) {
        const Cell* cell = refs.page.find(id);
        return cell != nullptr && shape_type(*cell) == type;
      });
      if (typed.size() == 1) return typed.front();
      if (typed.size() > 1) return ambiguous(refs, "shape", ref, typed);
    }
  }
  return std::nullopt;
}

std::vector<std::string> shape_and_group_names(const PageIndex& index) {
  auto names = index.shape_names().names();
  for (auto& name : index.group_names().names())
    names.push_back(std::move(name));
  return names;
}

}  // namespace

std::string parent_group(const Page& page, const PageIndex& index, std::string_view id) {
  const Cell* cell = page.find(id);
  if (cell == nullptr || !cell->parent) return {};
  return index.kind(*cell->parent) == CellKind::group ? *cell->parent : std::string();
}

core::Result<std::string> resolve_shape(const PageReferences& refs, std::string_view ref) {
  if (ref.empty()) return core::make_error("empty reference");
  if (ref.starts_with('#')) {
    const std::string id(ref.substr(1));
    const CellKind kind = refs.index.kind(id);
    if (kind == CellKind::shape || kind == CellKind::group) return id;
    return core::make_error("no shape with id \"" + id + "\" on this page");
  }
  auto found = refs.index.shape_names().lookup(ref);
  if (found.level != core::MatchLevel::exact) {
    if (auto named = qualified(refs, ref)) return *named;
  }
  // A name that is exactly a group's (in any case) names that group, never a shape whose name
  // merely starts like it: "Data" is the group Data, not the shape "Data warehouse".
  if (found.level > core::MatchLevel::case_insensitive) {
    const auto groups = refs.index.group_names().lookup(ref);
    if (groups.level <= core::MatchLevel::case_insensitive) {
      if (groups.ids.size() == 1) return groups.ids.front();
      return ambiguous(refs, "group", ref, groups.ids);
    }
  }
  if (found.ids.size() == 1) return found.ids.front();
  if (found.ids.size() > 1) return ambiguous(refs, "shape", ref, found.ids);
  return not_found(refs, "shape", ref, refs.index.shape_names().names());
}

core::Result<std::string> resolve_group(const PageReferences& refs, std::string_view ref) {
  if (ref.starts_with('#')) {
    const std::string id(ref.substr(1));
    if (refs.index.kind(id) == CellKind::group) return id;
    return core::make_error("no group with id \"" + id + "\" on this page");
  }
  auto found = refs.index.group_names().lookup(ref);
  if (found.ids.size() == 1) return found.ids.front();
  if (found.ids.size() > 1) return ambiguous(refs, "group", ref, found.ids);
  return not_found(refs, "group", ref, refs.index.group_names().names());
}

core::Result<std::string> resolve_shape_or_group(const PageReferences& refs, std::string_view ref) {
  if (ref.empty() || ref.starts_with('#')) return resolve_shape(refs, ref);
  const auto shapes = refs.index.shape_names().lookup(ref);
  if (shapes.level != core::MatchLevel::exact) {
    if (auto named = qualified(refs, ref)) return *named;
  }
  const auto groups = refs.index.group_names().lookup(ref);
  if (!groups.ids.empty() && (shapes.ids.empty() || groups.level < shapes.level)) {
    if (groups.ids.size() == 1) return groups.ids.front();
    return ambiguous(refs, "group", ref, groups.ids);
  }
  if (shapes.ids.size() == 1) return shapes.ids.front();
  if (shapes.ids.size() > 1) return ambiguous(refs, "shape", ref, shapes.ids);
  return not_found(refs, "shape", ref, shape_and_group_names(refs.index));
}

}  // namespace fcp::drawio

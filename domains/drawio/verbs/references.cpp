// Reference resolution for drawio ops: the engine's cascade plus qualifiers (type:Label,
// Group/Label, #id), targets (references united with what the op's selectors choose), and
// errors whose hints are the op with the reference fixed.
#include <algorithm>
#include <unordered_set>

#include "core/tokenizer.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/data/stencils.hpp"
#include "domains/drawio/labels.hpp"
#include "domains/drawio/selection.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {
namespace {

// The op with `ref` replaced by `replacement` (already an op token), for try: hints.
std::string replace_ref(const core::ParsedOp& op, std::string_view ref,
                        const std::string& replacement) {
  std::string raw = op.raw;
  const std::string quoted = "\"" + std::string(ref) + "\"";
  if (auto at = raw.find(quoted); at != std::string::npos)
    return raw.replace(at, quoted.size(), replacement);
  std::size_t at = 0;
  while ((at = raw.find(ref, at)) != std::string::npos) {
    const bool starts = at == 0 || raw[at - 1] == ' ' || raw[at - 1] == ':';
    const std::size_t end = at + ref.size();
    const bool ends = end == raw.size() || raw[end] == ' ';
    if (starts && ends && !ref.empty()) return raw.replace(at, ref.size(), replacement);
    at = end;
  }
  return raw;
}

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

// `Label(type)` list for ambiguity messages.
std::string describe_candidates(const OpContext& ctx, const std::vector<std::string>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size() && i < 8; ++i) {
    const Cell* cell = ctx.page().find(ids[i]);
    if (cell == nullptr) continue;
    if (!out.empty()) out += ", ";
    out += cell_label(*cell) + "(" + shape_type(*cell) + ")";
  }
  if (ids.size() > 8) out += ", …";
  return out;
}

// A pasteable reference that picks exactly `id` among `ids`: type:Label when the type tells
// them apart, Group/Label when the group does, else #id.
std::string qualified_ref(const OpContext& ctx, const std::string& id,
                          const std::vector<std::string>& ids) {
  const Cell* cell = ctx.page().find(id);
  if (cell == nullptr) return "#" + id;
  const std::string label = cell_label(*cell);
  const std::string type = shape_type(*cell);
  const std::string group = parent_group(ctx, id);
  std::size_t same_type = 0, same_group = 0;
  for (const auto& other : ids) {
    const Cell* o = ctx.page().find(other);
    if (o == nullptr) continue;
    if (shape_type(*o) == type) ++same_type;
    if (parent_group(ctx, other) == group) ++same_group;
  }
  if (same_type == 1 && data::find_node_type(type) != nullptr)
    return quote_token(type + ":" + label);
  if (same_group == 1 && !group.empty()) {
    const Cell* g = ctx.page().find(group);
    if (g != nullptr && !cell_label(*g).empty()) return quote_token(cell_label(*g) + "/" + label);
  }
  return "#" + id;
}

core::Error ambiguous(const OpContext& ctx, std::string_view ref,
                      const std::vector<std::string>& ids) {
  std::vector<std::string> hints;
  for (std::size_t i = 0; i < ids.size() && i < 3; ++i)
    hints.push_back(replace_ref(ctx.op, ref, qualified_ref(ctx, ids[i], ids)));
  return core::make_error("\"" + std::string(ref) + "\" matches " + std::to_string(ids.size()) +
                              ": " + describe_candidates(ctx, ids),
                          std::move(hints));
}

core::Error not_found(const OpContext& ctx, std::string_view kind, std::string_view ref,
                      const core::NameIndex<std::string>& names) {
  std::vector<std::string> hints;
  const auto closest = core::closest_matches(ref, names.names());
  for (const auto& name : closest)
    hints.push_back(replace_ref(ctx.op, ref, quote_token(name)));
  std::string message = "unknown " + std::string(kind) + " \"" + std::string(ref) + "\"";
  if (names.empty()) {
    message += kind == "group" ? ": this page has no groups" : ": this page has no shapes";
  } else if (!closest.empty()) {
    message += ". Did you mean \"" + closest.front() + "\"?";
  }
  return core::make_error(std::move(message), std::move(hints));
}

// Keeps the ids among `ids` that satisfy `keep`.
template <class Fn>
std::vector<std::string> filter(const std::vector<std::string>& ids, Fn keep) {
  std::vector<std::string> out;
  for (const auto& id : ids) {
    if (keep(id)) out.push_back(id);
  }
  return out;
}

bool inside(const Page& page, std::string_view id, std::string_view ancestor) {
  const Cell* cell = page.find(id);
  for (int depth = 0; cell != nullptr && cell->parent && depth < 64; ++depth) {
    if (*cell->parent == ancestor) return true;
    cell = page.find(*cell->parent);
  }
  return false;
}

}  // namespace

bool OpToken::is_arrow() const {
  return !quoted && core::is_arrow(text);
}

std::vector<OpToken> ordered_tokens(const core::ParsedOp& op) {
  std::vector<OpToken> out;
  auto tokens = core::tokenize(op.raw);
  if (!tokens || tokens->empty()) return out;
  // Positionals in ParsedOp order; selectors and arrows interleaved as the tokenizer saw them.
  std::size_t positional = 0;
  for (std::size_t i = 1; i < tokens->size(); ++i) {
    const core::Token& token = (*tokens)[i];
    if (!token.text.empty() && token.text.front() == '@') {
      out.push_back({token.text, false});
      continue;
    }
    if (positional < op.positionals.size() && op.positionals[positional] == token.text) {
      out.push_back({token.text, op.is_quoted(positional)});
      ++positional;
    }
  }
  return out;
}

core::Result<std::string> resolve_shape(const OpContext& ctx, std::string_view ref) {
  if (ref.empty()) return core::make_error("empty reference");
  const PageIndex& idx = ctx.index();
  if (ref.starts_with('#')) {
    const std::string id(ref.substr(1));
    const CellKind kind = idx.kind(id);
    if (kind == CellKind::shape || kind == CellKind::group) return id;
    return core::make_error("no shape with id \"" + id + "\" on this page");
  }
  // Group/Label
  if (auto slash = ref.find('/'); slash != std::string_view::npos && slash > 0) {
    auto group = idx.group_names().lookup(ref.substr(0, slash));
    if (group.ids.size() == 1) {
      const std::string& group_id = group.ids.front();
      auto found = idx.shape_names().lookup(ref.substr(slash + 1));
      auto members = filter(
          found.ids, [&](const std::string& id) { return inside(ctx.page(), id, group_id); });
      if (members.size() == 1) return members.front();
      if (members.size() > 1) return ambiguous(ctx, ref, members);
    }
  }
  // type:Label
  if (auto colon = ref.find(':'); colon != std::string_view::npos && colon > 0 &&
                                  colon + 1 < ref.size() && ref[colon + 1] != ' ') {
    const std::string_view type = ref.substr(0, colon);
    if (type.find(' ') == std::string_view::npos && is_known_type(ctx.doc, type)) {
      auto found = idx.shape_names().lookup(ref.substr(colon + 1));
      auto typed = filter(found.ids, [&](const std::string& id) {
        const Cell* cell = ctx.page().find(id);
        return cell != nullptr && shape_type(*cell) == type;
      });
      if (typed.size() == 1) return typed.front();
      if (typed.size() > 1) return ambiguous(ctx, ref, typed);
      if (found.ids.size() == 1) return found.ids.front();
    }
  }
  auto found = idx.shape_names().lookup(ref);
  if (found.ids.size() == 1) return found.ids.front();
  if (found.ids.size() > 1) return ambiguous(ctx, ref, found.ids);
  return not_found(ctx, "shape", ref, idx.shape_names());
}

core::Result<std::string> resolve_group(const OpContext& ctx, std::string_view ref) {
  if (ref.starts_with('#')) {
    const std::string id(ref.substr(1));
    if (ctx.index().kind(id) == CellKind::group) return id;
    return core::make_error("no group with id \"" + id + "\" on this page");
  }
  auto found = ctx.index().group_names().lookup(ref);
  if (found.ids.size() == 1) return found.ids.front();
  if (found.ids.size() > 1) return ambiguous(ctx, ref, found.ids);
  return not_found(ctx, "group", ref, ctx.index().group_names());
}

core::Result<std::string> resolve_shape_or_group(const OpContext& ctx, std::string_view ref) {
  auto shape = resolve_shape(ctx, ref);
  if (shape) return shape;
  if (ref.starts_with('#')) return shape;
  auto group = ctx.index().group_names().lookup(ref);
  if (group.ids.size() == 1 && group.level <= core::MatchLevel::case_insensitive)
    return group.ids.front();
  return shape;
}

core::Result<Targets> resolve_targets(const OpContext& ctx, std::span<const OpToken> tokens,
                                      ReferenceResolver resolve) {
  Targets out;
  std::unordered_set<std::string> seen;
  std::vector<core::Selector> selectors;
  for (const auto& token : tokens) {
    if (token.is_selector()) {
      selectors.push_back(core::parse_selector(token.text));
      continue;
    }
    auto id = resolve(ctx, token.text);
    if (!id) return id.error();
    if (seen.insert(*id).second) out.ids.push_back(std::move(*id));
  }
  if (selectors.empty()) return out;
  auto selection =
      select_shapes(ctx.doc, ctx.edit.page_index(), selectors, ctx.call.log, ctx.op.raw);
  if (!selection) return selection.error();
  for (auto& id : selection->ids) {
    if (seen.insert(id).second) out.ids.push_back(std::move(id));
  }
  out.nothing_matched = std::move(selection->nothing_matched);
  return out;
}

bool nothing_to_change(OpContext& ctx, const Targets& targets) {
  if (targets.nothing_matched.empty()) return targets.ids.empty();
  // With named references left, the op goes on with them: only the selectors came up empty.
  ctx.lines.push_back(targets.ids.empty()
                          ? core::nothing_matched_warning(targets.nothing_matched, ctx.op.verb)
                          : core::warning_line(targets.nothing_matched));
  return targets.ids.empty();
}

}  // namespace fcp::drawio

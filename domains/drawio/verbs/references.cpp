// References in drawio ops: the op's tokens in order, and targets (references, resolved as
// references.hpp says, united with what the op's selectors choose).
#include <algorithm>
#include <unordered_set>

#include "core/tokenizer.hpp"
#include "domains/drawio/selection.hpp"
#include "domains/drawio/verbs/verbs.hpp"

namespace fcp::drawio {

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
      out.push_back({token.text, false, token.value_quoted});
      continue;
    }
    if (positional < op.positionals.size() && op.positionals[positional] == token.text) {
      out.push_back({token.text, op.is_quoted(positional)});
      ++positional;
    }
  }
  return out;
}

PageReferences references_of(const OpContext& ctx) {
  return {ctx.doc, ctx.page(), ctx.index(), ctx.op.raw};
}

core::Result<std::string> resolve_shape(const OpContext& ctx, std::string_view ref) {
  return resolve_shape(references_of(ctx), ref);
}

core::Result<std::string> resolve_group(const OpContext& ctx, std::string_view ref) {
  return resolve_group(references_of(ctx), ref);
}

core::Result<std::string> resolve_shape_or_group(const OpContext& ctx, std::string_view ref) {
  return resolve_shape_or_group(references_of(ctx), ref);
}

core::Result<Targets> resolve_targets(const OpContext& ctx, std::span<const OpToken> tokens,
                                      ReferenceResolver resolve) {
  Targets out;
  std::unordered_set<std::string> seen;
  std::vector<core::Selector> selectors;
  for (const auto& token : tokens) {
    if (token.is_selector()) {
      core::append_selectors(selectors, token.text, token.value_quoted);
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

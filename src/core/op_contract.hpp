// The op contract: checks a parsed op against its verb's declared keys before any handler runs,
// and builds the errors and pasteable `try:` ops for what does not fit (undeclared keys, missing
// required keys, bad values, unknown verbs, arrows written without spaces).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/parsed_op.hpp"
#include "core/result.hpp"
#include "core/verb_registry.hpp"

namespace fcp::core {

// `connect A->B`, `wire a->b`: when `spec` takes arrows, the op text with spaces around every
// arrow glued to a word (outside quotes and outside key:value tokens); nullopt when none is.
std::optional<std::string> space_glued_arrows(std::string_view op_text, const VerbSpec& spec);

// Checks `op`'s keys against `spec` and rewrites declared aliases to the key's name. Errors:
// an undeclared key (naming it, listing the verb's keys, `try:` the op with the first fitting
// synonym or the closest key, else without it), a key of another form of the verb, a missing
// required key, a value of the wrong kind or outside the choices.
Result<void> check_op_keys(const VerbSpec& spec, ParsedOp& op, std::span<const Synonym> synonyms);

// The error for a verb the registry does not have: a synonym's complete op first, then close
// spellings (never a destructive verb for a word that only looks like it), else the verb list.
// `extra_verbs` are verbs the engine itself answers (checkpoint).
Error unknown_verb_error(const VerbRegistry& registry, const ParsedOp& op,
                         std::string_view domain_name,
                         std::span<const std::string_view> extra_verbs = {});

// `raw` with the key:value token of `key` replaced by `replacement` ("" removes it).
std::string replace_param_token(std::string_view raw, std::string_view key,
                                std::string_view replacement);
// The value of `key`'s token as written in `raw` (quotes kept), or "".
std::string param_token_value(std::string_view raw, std::string_view key);

}  // namespace fcp::core

// ParsedOp: one op string classified into verb, positionals, params, selectors, arrows (§2).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// @[not:]TYPE[:VALUE], e.g. @all, @recent:5, @not:pitch:C4.
struct Selector {
  std::string type;
  std::string value;
  bool negated = false;
  std::string raw;  // the token as written, with the leading '@'
};

struct Param {
  std::string key;
  std::string value;
  bool quoted = false;  // the value part was quoted (label:"a:b")
};

struct ParsedOp {
  std::string verb;                      // first token, lowercased
  std::vector<std::string> positionals;  // arrows included, in order
  std::vector<bool> positional_quoted;   // parallel to positionals; may be shorter (= false)
  std::vector<Param> params;             // insertion order; a repeated key keeps the last value
  std::vector<Selector> selectors;
  std::vector<std::string> arrows;  // "->", "<->", "--" in order of appearance
  std::string raw;                  // the input, trimmed

  const std::string* param(std::string_view key) const;
  bool has_param(std::string_view key) const { return param(key) != nullptr; }
  std::string param_or(std::string_view key, std::string_view fallback) const;
  // The value of an integer or number key (the engine checked its kind and range before the
  // handler runs); nullopt when the op leaves the key out.
  std::optional<long long> integer(std::string_view key) const;
  std::optional<double> number(std::string_view key) const;
  bool is_quoted(std::size_t positional) const {
    return positional < positional_quoted.size() && positional_quoted[positional];
  }
};

// Numbers as ops write them: "42", "+3", "-1"; "0.5", "1e3". nullopt for anything else
// (trailing text, an empty string, inf or nan).
std::optional<long long> to_integer(std::string_view text);
std::optional<double> to_number(std::string_view text);

// Domain hook: tokens this returns true for stay positionals even if they look like key:value
// (a domain's own range syntax, for instance). Checked after selectors and quoted tokens.
struct ParseHooks {
  std::function<bool(std::string_view token)> is_positional;
};

// Errors: empty input, whitespace-only input, unterminated quote.
Result<ParsedOp> parse_op(std::string_view input, const ParseHooks* hooks = nullptr);

// Token classification rules, exposed for domains and tests.
bool is_arrow(std::string_view token);
bool is_cell_range(std::string_view token);  // A1:F1, Sheet2!A1:B10, 1:5
bool is_key_value(std::string_view token);   // key:value per §2 (not arrow, range, formula, @)
Selector parse_selector(std::string_view token);  // token starts with '@'
// The selectors one token writes: `@type:svc,db` is `@type:svc @type:db` (alternatives of one
// type unite), unless the value was quoted (`@group:"Sales, EU"` is one name).
void append_selectors(std::vector<Selector>& out, std::string_view token,
                      bool value_quoted = false);

}  // namespace fcp::core

#include "core/parsed_op.hpp"

#include <utility>

#include "core/resolve.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// [A-Za-z]{1,3}[0-9]+
bool is_cell_ref(std::string_view text) {
  std::size_t letters = 0;
  while (letters < text.size() && is_letter(text[letters])) ++letters;
  if (letters < 1 || letters > 3 || letters == text.size()) return false;
  for (std::size_t i = letters; i < text.size(); ++i) {
    if (!is_digit(text[i])) return false;
  }
  return true;
}

bool is_number(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!is_digit(c)) return false;
  }
  return true;
}

// `label:""`: an explicitly empty quoted value is still a param (unlike a bare `label:`).
bool is_empty_quoted_value(const Token& token) {
  const std::string_view text = token.text;
  return token.value_quoted && text.size() > 1 && text.find(':') == text.size() - 1 &&
         text.front() != '=' && text.front() != '@';
}

void add_positional(ParsedOp& op, std::string text, bool quoted) {
  op.positionals.push_back(std::move(text));
  if (quoted) {
    op.positional_quoted.resize(op.positionals.size(), false);
    op.positional_quoted.back() = true;
  }
}

void add_param(ParsedOp& op, std::string_view text, bool quoted) {
  const std::size_t colon = text.find(':');
  const std::string_view key = text.substr(0, colon);
  const std::string_view value = text.substr(colon + 1);
  for (Param& param : op.params) {
    if (param.key == key) {
      param.value.assign(value);
      param.quoted = quoted;
      return;
    }
  }
  op.params.push_back(Param{std::string(key), std::string(value), quoted});
}

// §2 classification; the first matching rule wins.
void classify(ParsedOp& op, Token& token, const ParseHooks* hooks) {
  const std::string_view text = token.text;
  if (!text.empty() && text.front() == '@') {
    op.selectors.push_back(parse_selector(text));
    return;
  }
  if (token.quoted) {
    add_positional(op, std::move(token.text), true);
    return;
  }
  const bool hooked = hooks != nullptr && hooks->is_positional && hooks->is_positional(text);
  if (!hooked && (is_key_value(text) || is_empty_quoted_value(token))) {
    add_param(op, text, token.value_quoted);
    return;
  }
  if (is_arrow(text)) op.arrows.emplace_back(text);
  add_positional(op, std::move(token.text), token.value_quoted);
}

}  // namespace

const std::string* ParsedOp::param(std::string_view key) const {
  for (const Param& p : params) {
    if (p.key == key) return &p.value;
  }
  return nullptr;
}

std::string ParsedOp::param_or(std::string_view key, std::string_view fallback) const {
  const std::string* value = param(key);
  return value != nullptr ? *value : std::string(fallback);
}

Result<ParsedOp> parse_op(std::string_view input, const ParseHooks* hooks) {
  const std::string_view trimmed = trim(input);
  if (trimmed.empty()) return make_error(input.empty() ? "empty op" : "empty op (only whitespace)");
  auto tokens = tokenize(trimmed);
  if (!tokens) return tokens.error();
  ParsedOp op;
  op.raw.assign(trimmed);
  op.verb = to_lower(tokens->front().text);
  for (std::size_t i = 1; i < tokens->size(); ++i) classify(op, (*tokens)[i], hooks);
  return op;
}

bool is_arrow(std::string_view token) { return token == "->" || token == "<->" || token == "--"; }

bool is_cell_range(std::string_view token) {
  if (const std::size_t bang = token.find('!'); bang != std::string_view::npos) {
    const std::string_view sheet = token.substr(0, bang);
    if (sheet.empty() || sheet.find(':') != std::string_view::npos) return false;
    token.remove_prefix(bang + 1);
  }
  const std::size_t colon = token.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view left = token.substr(0, colon);
  const std::string_view right = token.substr(colon + 1);
  return (is_cell_ref(left) && is_cell_ref(right)) || (is_number(left) && is_number(right));
}

bool is_key_value(std::string_view token) {
  if (token.empty() || token.front() == '=' || token.front() == '@') return false;
  const std::size_t colon = token.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 >= token.size()) return false;
  return !is_arrow(token) && !is_cell_range(token);
}

Selector parse_selector(std::string_view token) {
  Selector selector;
  selector.raw.assign(token);
  if (!token.empty() && token.front() == '@') token.remove_prefix(1);
  if (token.size() >= 4 && to_lower(token.substr(0, 4)) == "not:") {
    selector.negated = true;
    token.remove_prefix(4);
  }
  const std::size_t colon = token.find(':');
  selector.type = to_lower(token.substr(0, colon));
  if (colon != std::string_view::npos) selector.value.assign(token.substr(colon + 1));
  return selector;
}

}  // namespace fcp::core

#include "core/parsed_op.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <unordered_map>
#include <utility>

#include "core/resolve.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// [A-Za-z]{1,3}[0-9]+
bool is_cell_ref(std::string_view text) {
  std::size_t letters = 0;
  while (letters < text.size() && is_letter(text[letters]))
    ++letters;
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
bool is_empty_quoted_value(const TokenView& token) {
  const std::string_view text = token.text;
  return token.value_quoted && text.size() > 1 && text.find(':') == text.size() - 1 &&
         text.front() != '=' && text.front() != '@';
}

// A short op has a handful of each kind: one allocation instead of growing 1, 2, 4.
template <class T>
void reserve_first(std::vector<T>& items) {
  if (items.capacity() == 0) items.reserve(4);
}

void add_positional(ParsedOp& op, std::string_view text, bool quoted) {
  reserve_first(op.positionals);
  op.positionals.emplace_back(text);
  if (quoted) {
    op.positional_quoted.resize(op.positionals.size(), false);
    op.positional_quoted.back() = true;
  }
}

// Finds a param by key: a linear scan for the usual handful, a hash index past that so a
// pathological op with thousands of params stays linear overall.
class ParamSlots {
 public:
  std::optional<std::size_t> find(std::string_view key, const std::vector<Param>& params) const {
    if (params.size() > linear_limit) {
      auto it = index_->find(std::string(key));
      if (it == index_->end()) return std::nullopt;
      return it->second;
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (params[i].key == key) return i;
    }
    return std::nullopt;
  }

  void added(const std::vector<Param>& params) {
    if (params.size() <= linear_limit) return;
    if (!index_) {
      index_.emplace();
      for (std::size_t i = 0; i < params.size(); ++i)
        index_->emplace(params[i].key, i);
    } else {
      index_->emplace(params.back().key, params.size() - 1);
    }
  }

 private:
  static constexpr std::size_t linear_limit = 16;
  std::optional<std::unordered_map<std::string, std::size_t>> index_;  // built past the limit
};

// Both sides of the first ':' are cells (optionally after `Sheet!`) or both are row numbers.
bool is_cell_range_at(std::string_view token, std::size_t colon) {
  std::string_view left = token.substr(0, colon);
  const std::string_view right = token.substr(colon + 1);
  if (const std::size_t bang = left.find('!'); bang != std::string_view::npos) {
    if (bang == 0) return false;
    left.remove_prefix(bang + 1);
  }
  return (is_cell_ref(left) && is_cell_ref(right)) || (is_number(left) && is_number(right));
}

bool is_key_value_at(std::string_view token, std::size_t colon) {
  if (colon == 0 || colon + 1 >= token.size()) return false;
  if (token.front() == '=' || token.front() == '@') return false;
  return !is_cell_range_at(token, colon);  // an arrow has no ':'
}

void add_param(ParsedOp& op, ParamSlots& slots, std::string_view text, std::size_t colon,
               bool quoted) {
  const std::string_view key = text.substr(0, colon);
  const std::string_view value = text.substr(colon + 1);
  if (const auto slot = slots.find(key, op.params)) {
    op.params[*slot].value.assign(value);
    op.params[*slot].quoted = quoted;
    return;
  }
  reserve_first(op.params);
  op.params.push_back(Param{std::string(key), std::string(value), quoted});
  slots.added(op.params);
}

// §2 classification; the first matching rule wins.
void classify(ParsedOp& op, ParamSlots& slots, const TokenView& token, const ParseHooks* hooks) {
  const std::string_view text = token.text;
  if (!text.empty() && text.front() == '@') {
    append_selectors(op.selectors, text, token.quoted || token.value_quoted);
    return;
  }
  if (token.quoted) {
    add_positional(op, text, true);
    return;
  }
  const std::size_t colon = text.find(':');
  const bool hooked = hooks != nullptr && hooks->is_positional && hooks->is_positional(text);
  if (colon != std::string_view::npos && !hooked &&
      (is_key_value_at(text, colon) || is_empty_quoted_value(token))) {
    add_param(op, slots, text, colon, token.value_quoted);
    return;
  }
  if (is_arrow(text)) op.arrows.emplace_back(text);
  add_positional(op, text, token.value_quoted);
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

std::optional<long long> ParsedOp::integer(std::string_view key) const {
  const std::string* value = param(key);
  return value != nullptr ? to_integer(*value) : std::nullopt;
}

std::optional<double> ParsedOp::number(std::string_view key) const {
  const std::string* value = param(key);
  return value != nullptr ? to_number(*value) : std::nullopt;
}

std::optional<long long> to_integer(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> to_number(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

Result<ParsedOp> parse_op(std::string_view input, const ParseHooks* hooks) {
  const std::string_view trimmed = trim(input);
  if (trimmed.empty()) return make_error(input.empty() ? "empty op" : "empty op (only whitespace)");
  TokenStream stream(trimmed);
  TokenView token;
  if (auto first = stream.next(token); !first) return first.error();
  ParsedOp op;
  op.raw.assign(trimmed);
  op.verb.assign(token.text);
  for (char& c : op.verb)
    c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  ParamSlots slots;
  for (;;) {
    auto more = stream.next(token);
    if (!more) return more.error();
    if (!*more) return op;
    classify(op, slots, token, hooks);
  }
}

bool is_arrow(std::string_view token) {
  return token == "->" || token == "<->" || token == "--";
}

bool is_cell_range(std::string_view token) {
  const std::size_t colon = token.find(':');
  return colon != std::string_view::npos && is_cell_range_at(token, colon);
}

bool is_key_value(std::string_view token) {
  const std::size_t colon = token.find(':');
  return colon != std::string_view::npos && is_key_value_at(token, colon);
}

Selector parse_selector(std::string_view token) {
  Selector selector;
  selector.raw.assign(token);
  if (!token.empty() && token.front() == '@') token.remove_prefix(1);
  if (token.size() >= 4 && (token[0] | 0x20) == 'n' && (token[1] | 0x20) == 'o' &&
      (token[2] | 0x20) == 't' && token[3] == ':') {
    selector.negated = true;
    token.remove_prefix(4);
  }
  const std::size_t colon = token.find(':');
  selector.type = to_lower(token.substr(0, colon));
  if (colon != std::string_view::npos) selector.value.assign(token.substr(colon + 1));
  return selector;
}

void append_selectors(std::vector<Selector>& out, std::string_view token, bool value_quoted) {
  Selector whole = parse_selector(token);
  if (value_quoted || whole.value.find(',') == std::string::npos) {
    out.push_back(std::move(whole));
    return;
  }
  // The prefix each alternative is written with: "@type:" or "@not:type:".
  const std::string prefix(token.substr(0, token.size() - whole.value.size()));
  std::string_view values = whole.value;
  while (true) {
    const std::size_t comma = values.find(',');
    const std::string_view value = values.substr(0, comma);
    if (!value.empty()) out.push_back(parse_selector(prefix + std::string(value)));
    if (comma == std::string_view::npos) break;
    values.remove_prefix(comma + 1);
  }
}

}  // namespace fcp::core

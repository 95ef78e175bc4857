#include "domains/drawio/model/style.hpp"

#include <algorithm>

namespace fcp::drawio {

Style Style::parse(std::string_view text) {
  Style style;
  style.trailing_semicolon_ = !text.empty() && text.back() == ';';
  if (style.trailing_semicolon_) text.remove_suffix(1);
  if (text.empty()) return style;
  style.tokens_.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), ';')) + 1);
  while (true) {
    const std::size_t end = text.find(';');
    const std::string_view token = text.substr(0, end);
    const std::size_t eq = token.find('=');
    if (eq == std::string_view::npos) {
      style.tokens_.push_back(StyleToken{std::string(token), std::nullopt});
    } else {
      style.tokens_.push_back(
          StyleToken{std::string(token.substr(0, eq)), std::string(token.substr(eq + 1))});
    }
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return style;
}

StyleToken* Style::last(std::string_view key) {
  for (auto it = tokens_.rbegin(); it != tokens_.rend(); ++it) {
    if (it->value && it->key == key) return &*it;
  }
  return nullptr;
}

const StyleToken* Style::last(std::string_view key) const {
  for (auto it = tokens_.rbegin(); it != tokens_.rend(); ++it) {
    if (it->value && it->key == key) return &*it;
  }
  return nullptr;
}

std::optional<std::string_view> Style::get(std::string_view key) const {
  const StyleToken* token = last(key);
  if (token == nullptr) return std::nullopt;
  return std::string_view(*token->value);
}

bool Style::has_key(std::string_view key) const {
  return std::any_of(tokens_.begin(), tokens_.end(),
                     [&](const StyleToken& t) { return t.key == key; });
}

bool Style::has(std::string_view bare) const {
  return std::any_of(tokens_.begin(), tokens_.end(),
                     [&](const StyleToken& t) { return !t.value && t.key == bare; });
}

void Style::set(std::string_view key, std::string_view value) {
  if (StyleToken* token = last(key)) {
    token->value = std::string(value);
    return;
  }
  if (tokens_.empty()) trailing_semicolon_ = true;
  tokens_.push_back(StyleToken{std::string(key), std::string(value)});
}

void Style::add_bare(std::string_view bare) {
  if (has(bare)) return;
  if (tokens_.empty()) trailing_semicolon_ = true;
  tokens_.push_back(StyleToken{std::string(bare), std::nullopt});
}

bool Style::erase(std::string_view key) {
  return std::erase_if(tokens_, [&](const StyleToken& t) { return t.key == key; }) > 0;
}

std::string Style::str() const {
  std::size_t length = tokens_.size() + 1;
  for (const StyleToken& token : tokens_) {
    length += token.key.size() + (token.value ? token.value->size() + 1 : 0);
  }
  std::string out;
  out.reserve(length);
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (i > 0) out += ';';
    out += tokens_[i].key;
    if (tokens_[i].value) {
      out += '=';
      out += *tokens_[i].value;
    }
  }
  if (trailing_semicolon_) out += ';';
  return out;
}

}  // namespace fcp::drawio

// A draw.io style string ("rounded=1;whiteSpace=wrap;text;") as an ordered, lossless token list.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::drawio {

// One `;`-separated token: `key=value` (split at the first `=`), or a bare token such as
// `text`, `swimlane`, `edgeLabel` or `ellipse` (a named stylesheet style) with no value.
struct StyleToken {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const StyleToken&) const = default;
};

// Tokens keep their input order, spelling and duplicates, so str() of an unmodified Style is
// exactly the string it was parsed from. draw.io does not escape `;` inside values (data URIs
// in styles are written without `;base64`), so splitting on every `;` is faithful.
// Like mxGraph, the LAST occurrence of a duplicated key is the effective one.
class Style {
 public:
  Style() = default;
  static Style parse(std::string_view text);

  // The effective value of `key` (its last occurrence); nullopt when absent or bare.
  std::optional<std::string_view> get(std::string_view key) const;
  // True when a `key=value` token or a bare token called `key` is present.
  bool has_key(std::string_view key) const;
  // True when the bare token `name` (no `=`) is present, e.g. has("text").
  bool has(std::string_view bare) const;
  // Replaces the value of the last occurrence of `key` in place, or appends `key=value`.
  void set(std::string_view key, std::string_view value);
  // Appends a bare token unless it is already there.
  void add_bare(std::string_view bare);
  // Removes every token called `key` (valued or bare); returns whether one was there.
  bool erase(std::string_view key);

  std::string str() const;

  const std::vector<StyleToken>& tokens() const { return tokens_; }
  std::size_t size() const { return tokens_.size(); }
  bool empty() const { return tokens_.empty(); }
  bool trailing_semicolon() const { return trailing_semicolon_; }
  void set_trailing_semicolon(bool on) { trailing_semicolon_ = on; }

  bool operator==(const Style&) const = default;

 private:
  StyleToken* last(std::string_view key);
  const StyleToken* last(std::string_view key) const;

  std::vector<StyleToken> tokens_;
  // draw.io ends styles with ';'; a style that gains its first token gets one too.
  bool trailing_semicolon_ = false;
};

}  // namespace fcp::drawio

#include "domains/drawio/model/label_markup.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <utility>

#include "core/utf8.hpp"

namespace fcp::drawio {
namespace {

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kEntities = {{
    {"amp", "&"},
    {"lt", "<"},
    {"gt", ">"},
    {"quot", "\""},
    {"apos", "'"},
    {"nbsp", " "},
    {"ndash", "\u2013"},
    {"mdash", "\u2014"},
    {"hellip", "\u2026"},
    {"bull", "\u2022"},
    {"copy", "\u00A9"},
    {"reg", "\u00AE"},
    {"larr", "\u2190"},
    {"rarr", "\u2192"},
    {"laquo", "\u00AB"},
    {"raquo", "\u00BB"},
}};

}  // namespace

std::size_t decode_html_entity(std::string_view html, std::size_t i, std::string& out) {
  const std::size_t semicolon = html.find(';', i);
  if (semicolon == std::string_view::npos || semicolon - i > 12) return 0;
  const std::string_view name = html.substr(i + 1, semicolon - i - 1);
  if (name.size() >= 2 && name[0] == '#') {
    const bool hex = name[1] == 'x' || name[1] == 'X';
    const std::string_view digits = name.substr(hex ? 2 : 1);
    std::uint32_t code = 0;
    const auto [end, ec] =
        std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
    if (ec != std::errc() || end != digits.data() + digits.size()) return 0;
    // NUL cannot stand in a label; a no-break space is a space to a reader.
    core::append_utf8(out, code == 0 ? 0xFFFD : code == 0xA0 ? 0x20 : code);
    return semicolon - i + 1;
  }
  for (const auto& [entity, text] : kEntities) {
    if (entity == name) {
      out += text;
      return semicolon - i + 1;
    }
  }
  return 0;
}

namespace {

bool is_block(std::string_view tag) {
  for (std::string_view block : {"div", "p", "li", "tr", "ul", "ol", "table", "h1", "h2", "h3",
                                 "h4", "h5", "h6", "blockquote", "pre", "hr"}) {
    if (tag == block) return true;
  }
  return false;
}

// State of the HTML reduction: text so far, pending whitespace.
class TextBuilder {
 public:
  void character(char c) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space_ = true;
      return;
    }
    flush_space();
    out_ += c;
  }
  void text(std::string_view text) {
    for (char c : text)
      character(c);
  }
  void line_break() {
    space_ = false;
    out_ += '\n';
  }
  // A block boundary: a line break unless the current line is still empty.
  void block_break() {
    space_ = false;
    if (!out_.empty() && out_.back() != '\n') out_ += '\n';
  }
  std::string take() {
    while (!out_.empty() && out_.back() == '\n')
      out_.pop_back();
    return std::move(out_);
  }

 private:
  void flush_space() {
    if (space_ && !out_.empty() && out_.back() != '\n') out_ += ' ';
    space_ = false;
  }
  std::string out_;
  bool space_ = false;
};

// Handles the tag starting at html[i] ('<'); returns the index after it.
std::size_t handle_tag(std::string_view html, std::size_t i, TextBuilder& text) {
  if (html.substr(i, 4) == "<!--") {
    const std::size_t end = html.find("-->", i + 4);
    return end == std::string_view::npos ? html.size() : end + 3;
  }
  std::size_t end = i + 1;
  char quote = 0;
  while (end < html.size() && (quote != 0 || html[end] != '>')) {
    if (quote == 0 && (html[end] == '"' || html[end] == '\'')) {
      quote = html[end];
    } else if (quote != 0 && html[end] == quote) {
      quote = 0;
    }
    ++end;
  }
  std::size_t name_start = i + 1;
  const bool closing = name_start < html.size() && html[name_start] == '/';
  if (closing) ++name_start;
  std::string name;
  for (std::size_t k = name_start; k < end && std::isalnum(static_cast<unsigned char>(html[k]));
       ++k) {
    name += lower(html[k]);
  }
  const std::size_t after = std::min(end + 1, html.size());
  if (name == "br") {
    text.line_break();
  } else if (name == "style" || name == "script") {
    if (!closing) {
      const std::size_t close = html.find("</", after);
      return close == std::string_view::npos ? html.size() : close;
    }
  } else if (is_block(name)) {
    text.block_break();
    if (name == "li" && !closing) text.text("\u2022 ");
  } else if (name == "td" || name == "th") {
    if (closing) text.character(' ');
  }
  return after;
}

}  // namespace

std::string html_to_text(std::string_view html) {
  TextBuilder text;
  std::size_t i = 0;
  while (i < html.size()) {
    const char c = html[i];
    if (c == '<' && i + 1 < html.size() &&
        (std::isalpha(static_cast<unsigned char>(html[i + 1])) || html[i + 1] == '/' ||
         html[i + 1] == '!')) {
      i = handle_tag(html, i, text);
      continue;
    }
    if (c == '&') {
      std::string decoded;
      if (const std::size_t used = decode_html_entity(html, i, decoded); used > 0) {
        text.text(decoded);
        i += used;
        continue;
      }
    }
    text.character(c);
    ++i;
  }
  return text.take();
}

}  // namespace fcp::drawio

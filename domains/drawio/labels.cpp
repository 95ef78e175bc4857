#include "domains/drawio/labels.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace fcp::drawio {
namespace {

void append_utf8(std::string& out, std::uint32_t code) {
  if (code == 0 || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) code = 0xFFFD;
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

// Decodes the entity starting at text[i] ('&'); returns the bytes consumed (0: not an entity).
std::size_t decode_entity(std::string_view text, std::size_t i, std::string& out) {
  const auto end = text.find(';', i);
  if (end == std::string_view::npos || end - i > 10) return 0;
  const std::string_view name = text.substr(i + 1, end - i - 1);
  if (name.size() > 1 && name[0] == '#') {
    std::uint32_t code = 0;
    const bool hex = name[1] == 'x' || name[1] == 'X';
    const char* first = name.data() + (hex ? 2 : 1);
    const char* last = name.data() + name.size();
    auto [ptr, ec] = std::from_chars(first, last, code, hex ? 16 : 10);
    if (ec != std::errc() || ptr != last) return 0;
    append_utf8(out, code);
    return end - i + 1;
  }
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> named{
      {{"amp", "&"}, {"lt", "<"}, {"gt", ">"}, {"quot", "\""}, {"apos", "'"}, {"nbsp", " "}}};
  for (const auto& [entity, replacement] : named) {
    if (name == entity) {
      out += replacement;
      return end - i + 1;
    }
  }
  return 0;
}

bool is_line_break_tag(std::string_view tag) {
  // tag is the text between '<' and '>', e.g. "br", "/div", "div style=…", "br/".
  std::size_t start = tag.starts_with('/') ? 1 : 0;
  std::size_t stop = start;
  while (stop < tag.size() && (std::isalnum(static_cast<unsigned char>(tag[stop])) != 0))
    ++stop;
  std::string name;
  for (char c : tag.substr(start, stop - start))
    name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name == "br") return true;
  // A block element starts a new line where it opens (after text) and where it closes.
  return name == "div" || name == "p" || name == "li" || name == "tr" || name == "h1" ||
         name == "h2" || name == "h3";
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0)
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0)
    text.remove_suffix(1);
  return text;
}

}  // namespace

std::string label_text(std::string_view value, bool html) {
  std::string out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (html && c == '<') {
      const auto close = value.find('>', i);
      if (close == std::string_view::npos) {
        out += c;
        continue;
      }
      if (is_line_break_tag(value.substr(i + 1, close - i - 1)) && !out.empty() &&
          out.back() != '\n')
        out += '\n';
      i = close;
    } else if (c == '&') {
      const std::size_t used = decode_entity(value, i, out);
      if (used == 0) {
        out += c;
      } else {
        i += used - 1;
      }
    } else if (c == '\\' && i + 1 < value.size() && value[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else if (c == '\r') {
      continue;
    } else {
      out += c;
    }
  }
  return std::string(trim(out));
}

std::string quote_token(std::string_view text) {
  bool plain = !text.empty() && text.front() != '@' && text.front() != '"';
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0 || c == '"' || c == ':' || c == '\\' ||
        c == '\'') {
      plain = false;
      break;
    }
  }
  if (plain && text != "->" && text != "<->" && text != "--") return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::size_t utf8_length(std::string_view text) {
  std::size_t count = 0;
  for (char c : text)
    count += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

std::string format_number(double value) {
  if (!std::isfinite(value)) return "0";
  const double rounded = std::round(value * 100.0) / 100.0;
  if (rounded == 0.0) return "0";  // also turns -0 into 0
  std::array<char, 64> buffer{};
  auto [ptr, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rounded,
                                 std::chars_format::fixed);
  if (ec != std::errc()) return "0";
  std::string text(buffer.data(), ptr);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0')
      text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

}  // namespace fcp::drawio

#include "domains/drawio/export/svg_xml.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "core/utf8.hpp"

namespace fcp::drawio::render::detail {
namespace {

// Decodes one UTF-8 sequence at text[i]; returns the code point (U+FFFD when invalid) and
// advances i past the bytes consumed (at least one).
char32_t decode_utf8(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<std::uint8_t>(text[k]); };
  const std::uint8_t lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  int length = 0;
  char32_t code = 0;
  char32_t minimum = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, code = lead & 0x1Fu, minimum = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, code = lead & 0x0Fu, minimum = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, code = lead & 0x07u, minimum = 0x10000;
  } else {
    ++i;
    return 0xFFFD;
  }
  if (i + static_cast<std::size_t>(length) > text.size()) {
    ++i;
    return 0xFFFD;
  }
  for (int k = 1; k < length; ++k) {
    const std::uint8_t next = byte(i + static_cast<std::size_t>(k));
    if ((next & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    code = (code << 6) | (next & 0x3Fu);
  }
  i += static_cast<std::size_t>(length);
  if (code < minimum || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0xFFFD;
  return code;
}

void escape(std::string& out, std::string_view text, bool whitespace_references) {
  out.reserve(out.size() + text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (static_cast<std::uint8_t>(c) >= 0x80) {
      const char32_t code = decode_utf8(text, i);
      if (code != 0xFFFE && code != 0xFFFF) core::append_utf8(out, code);
      continue;
    }
    ++i;
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\n':
        out += whitespace_references ? "&#10;" : "\n";
        break;
      case '\t':
        out += whitespace_references ? "&#9;" : "\t";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (static_cast<std::uint8_t>(c) >= 0x20) out += c;
        break;
    }
  }
}

}  // namespace

double clamp_coordinate(double value) {
  if (std::isnan(value)) return 0;
  return std::clamp(value, -kMaxCoordinate, kMaxCoordinate);
}

std::string format_number(double value) {
  double rounded = std::round(clamp_coordinate(value) * 100.0) / 100.0;
  if (rounded == 0) rounded = 0;  // no "-0"
  std::array<char, 48> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rounded,
                                 std::chars_format::fixed, 2);
  if (ec != std::errc()) return "0";
  std::string text(buffer.data(), end);
  while (text.back() == '0')
    text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

void append_escaped(std::string& out, std::string_view text) {
  escape(out, text, true);
}

void append_escaped_text(std::string& out, std::string_view text) {
  escape(out, text, false);
}

SvgWriter& SvgWriter::start(std::string_view name) {
  out_ += '<';
  out_ += name;
  return *this;
}

SvgWriter& SvgWriter::attr(std::string_view name, std::string_view value) {
  out_ += ' ';
  out_ += name;
  out_ += "=\"";
  append_escaped(out_, value);
  out_ += '"';
  return *this;
}

SvgWriter& SvgWriter::attr(std::string_view name, double value) {
  return attr(name, std::string_view(format_number(value)));
}

SvgWriter& SvgWriter::raw_attr(std::string_view text) {
  out_ += text;
  return *this;
}

void SvgWriter::end() {
  out_ += "/>\n";
}

void SvgWriter::open(bool newline) {
  out_ += newline ? ">\n" : ">";
}

void SvgWriter::close(std::string_view name, bool newline) {
  out_ += "</";
  out_ += name;
  out_ += newline ? ">\n" : ">";
}

void SvgWriter::text(std::string_view content) {
  append_escaped_text(out_, content);
}

}  // namespace fcp::drawio::render::detail

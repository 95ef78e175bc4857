#include "domains/drawio/io/xml_out.hpp"

#include <array>
#include <charconv>

namespace fcp::drawio::detail {

void append_escaped(std::string& out, std::string_view text, bool attribute) {
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string_view replacement;
    switch (text[i]) {
      case '&':
        replacement = "&amp;";
        break;
      case '<':
        replacement = "&lt;";
        break;
      case '>':
        replacement = "&gt;";
        break;
      case '\r':
        replacement = "&#13;";
        break;
      case '"':
        replacement = attribute ? "&quot;" : "";
        break;
      case '\n':
        replacement = attribute ? "&#10;" : "";
        break;
      case '\t':
        replacement = attribute ? "&#9;" : "";
        break;
      default:
        // XML 1.0 cannot hold other C0 controls, not even as references: write U+FFFD.
        if (static_cast<unsigned char>(text[i]) < 0x20) replacement = "\xEF\xBF\xBD";
        // U+FFFE and U+FFFF (EF BF BE / EF BF BF) are not XML characters either.
        if (static_cast<unsigned char>(text[i]) == 0xEF && i + 2 < text.size() &&
            static_cast<unsigned char>(text[i + 1]) == 0xBF &&
            (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xBE) {
          out.append(text.data() + start, i - start);
          out += "\xEF\xBF\xBD";
          i += 2;
          start = i + 1;
          continue;
        }
        break;
    }
    if (replacement.empty()) continue;
    out.append(text.data() + start, i - start);
    out += replacement;
    start = i + 1;
  }
  out.append(text.data() + start, text.size() - start);
}

std::string format_number(double value) {
  std::array<char, 32> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (ec != std::errc()) return "0";
  return std::string(buffer.data(), end);
}

void XmlOut::flush() {
  if (sink_ == nullptr || out_.empty()) return;
  if (!failed_) failed_ = !(*sink_)(out_);
  out_.clear();
}

void XmlOut::new_line(int depth) {
  if (!indent_ || inline_) return;
  if (started_) out_ += '\n';
  out_.append(static_cast<std::size_t>(depth) * 2, ' ');
}

void XmlOut::open(std::string_view name, int depth) {
  new_line(depth);
  started_ = true;
  out_ += '<';
  out_ += name;
}

void XmlOut::attribute(std::string_view name, std::string_view value) {
  out_ += ' ';
  out_ += name;
  out_ += "=\"";
  append_escaped(out_, value, true);
  out_ += '"';
}

void XmlOut::number_attribute(std::string_view name, double value) {
  attribute(name, std::string_view(format_number(value)));
}

void XmlOut::end_open(bool has_children) {
  out_ += has_children ? ">" : "/>";
}

void XmlOut::close(std::string_view name, int depth) {
  new_line(depth);
  out_ += "</";
  out_ += name;
  out_ += '>';
}

void XmlOut::text(std::string_view text) {
  append_escaped(out_, text, false);
}

void XmlOut::cdata(std::string_view text) {
  // "]]>" cannot appear inside a CDATA section: split it across two sections.
  std::size_t start = 0;
  out_ += "<![CDATA[";
  for (std::size_t at = text.find("]]>"); at != std::string_view::npos;
       at = text.find("]]>", start)) {
    out_.append(text.data() + start, at + 2 - start);
    out_ += "]]><![CDATA[";
    start = at + 2;
  }
  out_.append(text.data() + start, text.size() - start);
  out_ += "]]>";
}

}  // namespace fcp::drawio::detail

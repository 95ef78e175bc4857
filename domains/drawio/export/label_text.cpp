#include "domains/drawio/export/label_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>

#include "domains/drawio/model/label_markup.hpp"

namespace fcp::drawio::render::detail {

std::vector<std::string> label_lines(std::string_view value, bool html) {
  const std::string_view input = value.substr(0, std::min(value.size(), kMaxLabelInput));
  const std::string text = html ? html_to_text(input) : std::string(input);
  std::vector<std::string> lines;
  std::size_t total = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.size() == kMaxLabelLines || total + line.size() > kMaxLabelChars) {
      std::string cut = line.substr(0, kMaxLabelChars > total ? kMaxLabelChars - total : 0);
      // Do not cut inside a UTF-8 sequence.
      while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0) == 0x80)
        cut.pop_back();
      if (!cut.empty() && static_cast<unsigned char>(cut.back()) >= 0xC0) cut.pop_back();
      if (lines.size() < kMaxLabelLines) {
        lines.push_back(cut + "\u2026");
      } else if (!lines.empty()) {
        lines.back() += "\u2026";
      }
      break;
    }
    total += line.size();
    lines.push_back(std::move(line));
    start = end + 1;
  }
  while (!lines.empty() && lines.back().find_first_not_of(" \t") == std::string::npos) {
    lines.pop_back();
  }
  return lines;
}

double text_width(std::string_view text, double font_size, bool bold) {
  double em = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    if (c >= 0xE3 && c <= 0xED) {
      em += 1.0;  // CJK and other wide scripts
    } else if (c >= 0x80) {
      em += 0.6;
    } else if (std::strchr("iljtf.,;:!|'I ", static_cast<char>(c)) != nullptr) {
      em += 0.3;
    } else if (std::strchr("mwMW@", static_cast<char>(c)) != nullptr) {
      em += 0.88;
    } else if (std::isupper(c) != 0) {
      em += 0.68;
    } else {
      em += 0.56;
    }
  }
  return em * font_size * (bold ? 1.08 : 1.0);
}

std::vector<std::string> wrap_lines(const std::vector<std::string>& lines, double max_width,
                                    double font_size, bool bold) {
  std::vector<std::string> out;
  const double space = text_width(" ", font_size, bold);
  for (const std::string& line : lines) {
    if (out.size() >= kMaxLabelLines) break;
    std::string current;
    double width = 0;  // of `current`; widths add up, so each word is measured once
    std::size_t start = 0;
    while (start < line.size()) {
      std::size_t end = line.find(' ', start);
      if (end == std::string::npos) end = line.size();
      const std::string_view word = std::string_view(line).substr(start, end - start);
      start = end + 1;
      if (word.empty()) continue;
      const double word_width = text_width(word, font_size, bold);
      if (current.empty() || width + space + word_width <= max_width) {
        width += (current.empty() ? 0 : space) + word_width;
        current += current.empty() ? "" : " ";
        current += word;
        continue;
      }
      // Like a browser with overflow-wrap: normal, a word wider than the line overflows it.
      out.push_back(std::move(current));
      current = std::string(word);
      width = word_width;
    }
    out.push_back(std::move(current));
  }
  if (out.size() > kMaxLabelLines) out.resize(kMaxLabelLines);
  return out;
}

}  // namespace fcp::drawio::render::detail

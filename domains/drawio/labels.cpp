#include "domains/drawio/labels.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "domains/drawio/model/label_markup.hpp"

namespace fcp::drawio {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0)
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0)
    text.remove_suffix(1);
  return text;
}

}  // namespace

std::string label_text(std::string_view value, bool html) {
  const std::string text = html ? html_to_text(value) : std::string(value);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '&' && !html) {  // html_to_text has decoded them already
      if (const std::size_t used = decode_html_entity(text, i, out); used > 0) {
        i += used - 1;
        continue;
      }
      out += c;
    } else if (c == '\\' && i + 1 < text.size() && text[i + 1] == 'n') {
      out += '\n';
      ++i;
    } else if (c != '\r') {
      out += c;
    }
  }
  return std::string(trim(out));
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

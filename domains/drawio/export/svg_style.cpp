#include "domains/drawio/export/svg_style.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

namespace fcp::drawio::render::detail {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool all_of(std::string_view text, bool (*ok)(char)) {
  for (char c : text) {
    if (!ok(c)) return false;
  }
  return true;
}

bool is_hex(char c) {
  return std::isxdigit(static_cast<unsigned char>(c)) != 0;
}
bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_function_argument(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0 || c == ' ' || c == ',' || c == '.' ||
         c == '%' || c == '-';
}

// "light-dark(#fff, #000)" → "#fff" (the light-theme colour), or nullopt.
std::optional<std::string_view> light_part(std::string_view value) {
  constexpr std::string_view kPrefix = "light-dark(";
  if (!value.starts_with(kPrefix) || !value.ends_with(')')) return std::nullopt;
  const std::string_view inner = value.substr(kPrefix.size(), value.size() - kPrefix.size() - 1);
  int depth = 0;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '(') ++depth;
    if (inner[i] == ')') --depth;
    if (inner[i] == ',' && depth == 0) return trim(inner.substr(0, i));
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> css_color(std::string_view value) {
  value = trim(value);
  if (value == "none") return std::string();
  if (auto light = light_part(value)) return css_color(*light);
  if (value.size() > 64 || value.empty()) return std::nullopt;
  if (value.front() == '#') {
    const std::string_view digits = value.substr(1);
    if (!all_of(digits, is_hex)) return std::nullopt;
    // SVG 1.1 knows #rgb and #rrggbb; an alpha part is dropped.
    if (digits.size() == 3 || digits.size() == 6) return std::string(value);
    if (digits.size() == 4 || digits.size() == 8) {
      return std::string(value.substr(0, digits.size() == 4 ? 4 : 7));
    }
    return std::nullopt;
  }
  for (std::string_view function : {"rgb(", "rgba(", "hsl(", "hsla("}) {
    if (value.starts_with(function) && value.ends_with(')') &&
        all_of(value.substr(function.size(), value.size() - function.size() - 1),
               is_function_argument)) {
      return std::string(value);
    }
  }
  if (value.size() <= 32 && all_of(value, is_alpha) && value != "default" && value != "inherit") {
    return std::string(value);
  }
  return std::nullopt;
}

std::string font_family(std::string_view value) {
  std::string family;
  for (char c : value.substr(0, 80)) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == ' ' || c == '-' || c == '_') {
      family += c;
    } else if (c == ',') {
      break;  // draw.io stores one family; keep the first of a list
    }
  }
  family = std::string(trim(family));
  if (family.empty() || family == "Helvetica") return "Helvetica, Arial, sans-serif";
  return family + ", Helvetica, Arial, sans-serif";
}

std::optional<std::string_view> StyleView::get(std::string_view key) const {
  if (cell_.style) {
    const auto& tokens = cell_.style->tokens();
    for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) {
      if (it->value) {
        if (it->key == key) return std::string_view(*it->value);
        continue;
      }
      for (const NamedStyleEntry& entry : named_styles()) {
        if (entry.style == it->key && entry.key == key) return entry.value;
      }
    }
  }
  return base_default(edge_, key);
}

std::string_view StyleView::text(std::string_view key, std::string_view fallback) const {
  return get(key).value_or(fallback);
}

double StyleView::number(std::string_view key, double fallback) const {
  const auto value = get(key);
  if (!value) return fallback;
  const std::string_view text = trim(*value);
  double result = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), result);
  if (ec != std::errc() || end == text.data() || !std::isfinite(result)) return fallback;
  return result;
}

bool StyleView::flag(std::string_view key, bool fallback) const {
  const auto value = get(key);
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  return fallback;
}

std::string StyleView::color(std::string_view key, std::string_view fallback) const {
  const auto value = get(key);
  if (!value) return std::string(fallback);
  return css_color(*value).value_or(std::string(fallback));
}

std::string_view StyleView::shape() const {
  const std::string_view shape = text("shape", edge_ ? "connector" : "rectangle");
  return shape.empty() ? std::string_view(edge_ ? "connector" : "rectangle") : shape;
}

}  // namespace fcp::drawio::render::detail

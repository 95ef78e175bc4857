#include "domains/drawio/data/themes.hpp"

#include <algorithm>
#include <array>

#include "domains/drawio/data/ascii.hpp"

namespace fcp::drawio::data {
namespace {

constexpr std::array<Theme, 9> builtin_themes{{
    {"blue", "#dae8fc", "#6c8ebf", ""},
    {"green", "#d5e8d4", "#82b366", ""},
    {"red", "#f8cecc", "#b85450", ""},
    {"yellow", "#fff2cc", "#d6b656", ""},
    {"orange", "#ffe6cc", "#d79b00", ""},
    {"purple", "#e1d5e7", "#9673a6", ""},
    {"gray", "#f5f5f5", "#666666", ""},
    {"dark", "#1a1a2e", "#16213e", "#e0e0e0"},
    {"white", "#ffffff", "#000000", ""},
}};

}  // namespace

std::span<const Theme> themes() {
  return builtin_themes;
}

const Theme* find_theme(std::string_view name) {
  const auto it = std::find_if(builtin_themes.begin(), builtin_themes.end(),
                               [&](const Theme& t) { return detail::iequals(t.name, name); });
  return it == builtin_themes.end() ? nullptr : &*it;
}

const Theme* theme_with_fill(std::string_view fill) {
  const auto it = std::find_if(builtin_themes.begin(), builtin_themes.end(),
                               [&](const Theme& t) { return detail::iequals(t.fill, fill); });
  return it == builtin_themes.end() ? nullptr : &*it;
}

}  // namespace fcp::drawio::data

#include "domains/drawio/data/regions.hpp"

#include <array>
#include <cstddef>

#include "domains/drawio/data/ascii.hpp"

namespace fcp::drawio::data {
namespace {

constexpr std::array<std::string_view, 8> direction_name_table{
    "below", "above", "left", "right", "below-right", "below-left", "above-right", "above-left"};

struct DirectionAlias {
  std::string_view name;
  Direction8 direction;
};
constexpr std::array<DirectionAlias, 14> direction_aliases{{
    {"down", Direction8::below},
    {"bottom", Direction8::below},
    {"up", Direction8::above},
    {"top", Direction8::above},
    {"down-right", Direction8::below_right},
    {"bottom-right", Direction8::below_right},
    {"down-left", Direction8::below_left},
    {"bottom-left", Direction8::below_left},
    {"up-right", Direction8::above_right},
    {"top-right", Direction8::above_right},
    {"up-left", Direction8::above_left},
    {"top-left", Direction8::above_left},
    {"right-below", Direction8::below_right},
    {"left-below", Direction8::below_left},
}};

constexpr std::array<std::string_view, 9> region_name_table{
    "top-left",     "top-center",  "top-right",     "middle-left", "center",
    "middle-right", "bottom-left", "bottom-center", "bottom-right"};

// Compares ignoring ASCII case and treating '_' as '-'.
bool same_name(std::string_view text, std::string_view name) {
  if (text.size() != name.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i] == '_' ? '-' : detail::lower(text[i]);
    if (c != name[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<Direction8> parse_direction(std::string_view text) {
  for (std::size_t i = 0; i < direction_name_table.size(); ++i) {
    if (same_name(text, direction_name_table[i])) return static_cast<Direction8>(i);
  }
  for (const DirectionAlias& alias : direction_aliases) {
    if (same_name(text, alias.name)) return alias.direction;
  }
  return std::nullopt;
}

std::string_view direction_name(Direction8 direction) {
  return direction_name_table[static_cast<std::size_t>(direction)];
}

std::span<const std::string_view> direction_names() {
  return direction_name_table;
}

std::span<const std::string_view> region_names() {
  return region_name_table;
}

std::optional<std::pair<int, int>> parse_region(std::string_view name) {
  for (std::size_t i = 0; i < region_name_table.size(); ++i) {
    if (same_name(name, region_name_table[i])) {
      return std::pair<int, int>{static_cast<int>(i / 3), static_cast<int>(i % 3)};
    }
  }
  if (same_name(name, "middle-center") || same_name(name, "middle")) return std::pair{1, 1};
  return std::nullopt;
}

}  // namespace fcp::drawio::data

// ASCII text helpers shared by the vocabulary tables (names are ASCII; other bytes pass through).
#pragma once

#include <cstddef>
#include <string_view>

namespace fcp::drawio::data::detail {

// The ASCII lower-case form of one byte; other bytes unchanged.
constexpr char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Whether two strings are equal ignoring ASCII case.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// Three-way comparison ignoring ASCII case: negative, zero or positive like strcmp.
constexpr int icompare(std::string_view a, std::string_view b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    const char x = lower(a[i]);
    const char y = lower(b[i]);
    if (x != y) return x < y ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace fcp::drawio::data::detail

// Checks shared by the fuzz targets: a failed one prints what differs and aborts, which libFuzzer
// reports as a crash with the input saved.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fcp::fuzz {

inline void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

// `again` (the writer's output read and written once more) must equal `first`.
inline void check_fixed_point(std::string_view first, std::string_view again) {
  if (first == again) return;
  const auto at = static_cast<std::size_t>(
      std::mismatch(first.begin(), first.end(), again.begin(), again.end()).first - first.begin());
  const std::size_t from = at < 80 ? 0 : at - 80;
  std::fprintf(stderr, "fuzz check failed: write(read(w)) != w at byte %zu of %zu/%zu\n", at,
               first.size(), again.size());
  const auto show = [from](std::string_view text) {
    const auto part = text.substr(std::min(from, text.size()), 200);
    std::fprintf(stderr, "---\n%.*s\n", static_cast<int>(part.size()), part.data());
  };
  show(first);
  show(again);
  std::abort();
}

}  // namespace fcp::fuzz

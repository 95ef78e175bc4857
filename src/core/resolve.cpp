#include "core/resolve.hpp"

#include <tuple>

namespace fcp::core {
namespace {

char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_separator(char c) {
  return c == '-' || c == '_' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

std::string to_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = lower_ascii(c);
  return out;
}

std::string normalize_ref(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (!is_separator(c)) out += lower_ascii(c);
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  if (a.size() < b.size()) std::swap(a, b);  // the rows follow the shorter string
  std::vector<std::size_t> previous(b.size() + 1);
  std::vector<std::size_t> current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates,
                                         std::size_t limit) {
  const std::string needle = to_lower(word);
  const std::size_t threshold = std::max<std::size_t>(2, needle.size() / 2);
  std::vector<std::tuple<std::size_t, std::string_view>> scored;
  for (const std::string& candidate : candidates) {
    const std::string lowered = to_lower(candidate);
    const std::size_t distance = edit_distance(needle, lowered);
    const bool contains = !needle.empty() && lowered.find(needle) != std::string::npos;
    if (distance <= threshold || contains) scored.emplace_back(distance, candidate);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& [distance, candidate] : scored) {
    if (out.size() >= limit) break;
    if (std::find(out.begin(), out.end(), candidate) == out.end()) out.emplace_back(candidate);
  }
  return out;
}

}  // namespace fcp::core

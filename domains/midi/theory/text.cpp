#include "domains/midi/theory/text.hpp"

#include <charconv>
#include <limits>

namespace fcp::midi::theory::detail {
namespace {

char lower_ascii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool is_alnum_ascii(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

}  // namespace

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    c = lower_ascii(c);
  return out;
}

std::string alnum_key(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (is_alnum_ascii(c)) out += lower_ascii(c);
  }
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower_ascii(a[i]) != lower_ascii(b[i])) return false;
  }
  return true;
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::optional<std::uint64_t> parse_digits(std::string_view text) {
  if (!all_digits(text) || text.size() > 18) return std::nullopt;
  std::uint64_t value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
}

std::optional<int> parse_int(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  const auto magnitude = parse_digits(text);
  if (!magnitude || *magnitude > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    return std::nullopt;
  const int value = static_cast<int>(*magnitude);
  return negative ? -value : value;
}

std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  out += text;
  out += '"';
  return out;
}

bool consume_prefix(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

bool consume_suffix(std::string_view& text, std::string_view suffix) {
  if (text.size() < suffix.size() || text.substr(text.size() - suffix.size()) != suffix)
    return false;
  text.remove_suffix(suffix.size());
  return true;
}

std::vector<std::string> to_strings(const std::vector<std::string_view>& views) {
  return {views.begin(), views.end()};
}

}  // namespace fcp::midi::theory::detail

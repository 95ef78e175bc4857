// Response formatting shared by every domain: prefixes, error lines with `try:`, warnings, digest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// The one-character line prefixes of fcp-core.md §5.
namespace prefix {
inline constexpr char created = '+';
inline constexpr char edge = '~';
inline constexpr char property = '*';
inline constexpr char deleted = '-';
inline constexpr char meta = '!';
inline constexpr char bulk = '@';
inline constexpr char warning = '?';
}  // namespace prefix

// "! message" followed by one "  try: hint" line per hint.
std::vector<std::string> error_lines(const Error& error);
// "? text"
std::string warning_line(std::string_view text);
// "1 op", "3 ops"
std::string plural(std::size_t count, std::string_view word);

// Accumulates reply lines and joins them with '\n' (no trailing newline).
class ReplyText {
 public:
  void add(std::string line) { lines_.push_back(std::move(line)); }
  void add_all(std::vector<std::string> lines);
  void add_error(const Error& error);
  void add_warning(std::string_view text) { lines_.push_back(warning_line(text)); }
  bool empty() const { return lines_.empty(); }
  std::string str() const;

 private:
  std::vector<std::string> lines_;
};

}  // namespace fcp::core

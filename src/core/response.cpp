#include "core/response.hpp"

namespace fcp::core {

std::vector<std::string> error_lines(const Error& error) {
  std::vector<std::string> lines;
  lines.reserve(1 + error.hints.size());
  lines.push_back("! " + error.message);
  for (const auto& hint : error.hints)
    lines.push_back("  try: " + hint);
  return lines;
}

std::string warning_line(std::string_view text) {
  return "? " + std::string(text);
}

std::string plural(std::size_t count, std::string_view word) {
  std::string out = std::to_string(count);
  out += ' ';
  out += word;
  if (count != 1) out += 's';
  return out;
}

void ReplyText::add_all(std::vector<std::string> lines) {
  for (auto& line : lines)
    lines_.push_back(std::move(line));
}

void ReplyText::add_error(const Error& error) {
  add_all(error_lines(error));
}

std::string ReplyText::str() const {
  std::size_t size = 0;
  for (const auto& line : lines_)
    size += line.size() + 1;
  std::string out;
  out.reserve(size);
  for (const auto& line : lines_) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

}  // namespace fcp::core

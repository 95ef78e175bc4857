#include "core/response.hpp"

namespace fcp::core {
namespace {

constexpr std::string_view kPrefixes{"+~*-!@?"};
constexpr std::string_view kDetailIndent{"  "};

bool is_prefixed(std::string_view line) {
  return line.size() > 2 && kPrefixes.find(line[0]) != std::string_view::npos && line[1] == ' ' &&
         line[2] != ' ';
}

bool is_detail(std::string_view line) {
  return line.starts_with(kDetailIndent) && line.find_first_not_of(' ') != std::string_view::npos;
}

// Appends `text` with its line breaks written as the tokenizer's escapes (\n, and \r), so that
// a name or title the user wrote with a line break cannot start a line of its own in a reply.
void append_on_one_line(std::string& line, std::string_view text) {
  for (char c : text) {
    if (c == '\n') {
      line += "\\n";
    } else if (c == '\r') {
      line += "\\r";
    } else {
      line += c;
    }
  }
}

}  // namespace

std::string reply_line(char prefix, std::string_view text) {
  std::string line;
  line.reserve(text.size() + 2);
  line += prefix;
  line += ' ';
  append_on_one_line(line, text);
  return line;
}

std::string created(std::string_view text) {
  return reply_line(prefix::created, text);
}

std::string connection_changed(std::string_view text) {
  return reply_line(prefix::edge, text);
}

std::string property_changed(std::string_view text) {
  return reply_line(prefix::property, text);
}

std::string deleted(std::string_view text) {
  return reply_line(prefix::deleted, text);
}

std::string meta(std::string_view text) {
  return reply_line(prefix::meta, text);
}

std::string bulk(std::string_view text) {
  return reply_line(prefix::bulk, text);
}

std::string warning_line(std::string_view text) {
  return reply_line(prefix::warning, text);
}

std::string detail_line(std::string_view text) {
  std::string line(kDetailIndent);
  append_on_one_line(line, text);
  return line;
}

std::optional<std::string_view> first_unprefixed_line(std::span<const std::string> lines) {
  bool after_reply_line = false;
  for (const std::string& element : lines) {
    std::string_view rest = element;
    while (true) {
      const auto newline = rest.find('\n');
      const std::string_view line = rest.substr(0, newline);
      if (is_prefixed(line)) {
        after_reply_line = true;
      } else if (!after_reply_line || !is_detail(line)) {
        return line;
      }
      if (newline == std::string_view::npos) break;
      rest.remove_prefix(newline + 1);
    }
  }
  return std::nullopt;
}

std::vector<std::string> error_lines(const Error& error) {
  std::vector<std::string> lines;
  lines.reserve(1 + error.hints.size());
  lines.push_back(meta(error.message));
  for (const auto& hint : error.hints)
    lines.push_back(detail_line("try: " + hint));
  return lines;
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

std::unordered_set<std::string> ReplyText::warnings_said() const {
  std::unordered_set<std::string> said;
  for (const auto& line : lines_) {
    if (!line.empty() && line.front() == prefix::warning) said.insert(line);
  }
  return said;
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

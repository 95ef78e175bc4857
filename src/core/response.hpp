// Response formatting shared by every domain: prefixes, reply lines, error lines with `try:`,
// warnings, digest.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// The one-character line prefixes of fcp-core.md §5 (and of every card's "Response prefixes").
namespace prefix {
inline constexpr char created = '+';
inline constexpr char edge = '~';
inline constexpr char property = '*';
inline constexpr char deleted = '-';
inline constexpr char meta = '!';
inline constexpr char bulk = '@';
inline constexpr char warning = '?';
}  // namespace prefix

// Reply lines. Every line an op, a session command or the engine writes is built here: the
// prefix says what happened, one space, then what it happened to ("+ svc Auth @(200,200)"). The
// builders are named after the card's legend ("+ created ~ connection changed * property changed
// - deleted ! error or meta @ bulk/layout ? warning"). Never write a prefix by hand: one format
// then reaches the agent from every domain, and a prefix can be trusted (`+` means something
// exists now that did not).
//
// "P text" for any prefix P of `prefix::`.
std::string reply_line(char prefix, std::string_view text);
// "+ text": something new exists (a shape, a note, a page, a group, a theme, an exported file).
std::string created(std::string_view text);
// "~ text": a connection was made or one changed (an edge or a wire added, relabelled or
// restyled; the link to Max). A removed edge is `deleted`.
std::string connection_changed(std::string_view text);
// "* text": a property of something that exists was set (a label, a style, a tempo, a size).
std::string property_changed(std::string_view text);
// "- text": something was removed (a shape, an edge, a group, a mapping; an op undone).
std::string deleted(std::string_view text);
// "! text": about the document or the session rather than its content (a checkpoint, a list the
// op asked for, a block left open for the next ops); also the first line of an error.
std::string meta(std::string_view text);
// "@ text": many things moved or were laid out at once (move, align, layout, quantize, sync).
std::string bulk(std::string_view text);
// "? text": advisory; the op still succeeded.
std::string warning_line(std::string_view text);
// "  text": a detail under the reply line above it (a list entry, "try: …"); deeper indents nest.
std::string detail_line(std::string_view text);

// The first line in `lines` that is not a reply line, or nullopt when all are. A reply line is a
// prefix of `prefix::`, a space and text (not starting with a space), or a detail line ("  text",
// indented by two spaces or more) under one. An element may hold several lines separated by
// '\n'; each is checked. The engine asserts this for every op and session command in debug
// builds, and the golden transcript runner checks every mutating reply of every domain.
std::optional<std::string_view> first_unprefixed_line(std::span<const std::string> lines);

// "! message" followed by one "  try: hint" line per hint.
std::vector<std::string> error_lines(const Error& error);
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
  // The warning ("? …") lines already in the reply.
  std::unordered_set<std::string> warnings_said() const;
  std::string str() const;

 private:
  std::vector<std::string> lines_;
};

}  // namespace fcp::core

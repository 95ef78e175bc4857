// Internal to the writer: appends escaped, optionally indented XML markup to a string.
#pragma once

#include <string>
#include <string_view>

namespace fcp::drawio::detail {

// Attribute values escape & < > " and the whitespace XML parsers would normalise (newline as
// &#10;, tab as &#9;, CR as &#13;), so values survive a re-read exactly. Text escapes & < > and
// CR. With `indent` each element starts on its own line, two spaces per depth, except inside
// elements that hold text (whitespace there would change the content).
class XmlOut {
 public:
  XmlOut(std::string& out, bool indent) : out_(out), indent_(indent) {}

  void open(std::string_view name, int depth);  // "<name"
  void attribute(std::string_view name, std::string_view value);
  void number_attribute(std::string_view name, double value);
  void end_open(bool has_children);              // ">" or "/>"
  void close(std::string_view name, int depth);  // "</name>"
  void text(std::string_view text);
  void cdata(std::string_view text);
  // While set, no line breaks or indentation are written (inside mixed content).
  void set_inline(bool on) { inline_ = on; }
  bool is_inline() const { return inline_; }

 private:
  void new_line(int depth);

  std::string& out_;
  bool indent_;
  bool inline_ = false;
  bool started_ = false;
};

void append_escaped(std::string& out, std::string_view text, bool attribute);
// Shortest text that reads back as the same double ("120", "0.5", "1e-07").
std::string format_number(double value);

}  // namespace fcp::drawio::detail

// Internal to the writer: appends escaped, optionally indented XML markup to a string.
#pragma once

#include <cstddef>
#include <functional>
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

  // From now on the text goes to `sink` in pieces of about `piece` bytes, handed over (and
  // cleared from the string) at flush points, instead of staying in the string whole.
  void stream_to(const std::function<bool(std::string_view)>& sink, std::size_t piece) {
    sink_ = &sink;
    piece_ = piece;
  }
  // Between two elements: hands the text so far to the sink once it holds a piece.
  void flush_point() {
    if (sink_ != nullptr && out_.size() >= piece_) flush();
  }
  // Hands the rest to the sink.
  void flush();
  // The sink refused a piece (the file cannot take more): the caller may stop writing.
  bool failed() const { return failed_; }

 private:
  void new_line(int depth);

  std::string& out_;
  bool indent_;
  bool inline_ = false;
  bool started_ = false;
  const std::function<bool(std::string_view)>* sink_ = nullptr;
  std::size_t piece_ = 0;
  bool failed_ = false;
};

void append_escaped(std::string& out, std::string_view text, bool attribute);
// Shortest text that reads back as the same double ("120", "0.5", "1e-07").
std::string format_number(double value);

}  // namespace fcp::drawio::detail

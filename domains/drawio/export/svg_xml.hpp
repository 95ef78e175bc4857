// Internal to the SVG renderer: compact numbers, safe XML text and a minimal SVG element writer.
#pragma once

#include <string>
#include <string_view>

namespace fcp::drawio::render::detail {

// Coordinates and sizes beyond this are clamped: a hostile file cannot make the output huge or
// the arithmetic overflow.
inline constexpr double kMaxCoordinate = 1.0e6;

// NaN becomes 0; everything else is clamped to ±kMaxCoordinate.
double clamp_coordinate(double value);
// Rounded to 1/100 and written with std::to_chars (locale-independent): "120", "0.5", "-3.25".
std::string format_number(double value);

// Escapes & < > " ' and writes newline/tab/CR as character references, so the text is valid in
// both element content and attribute values. Invalid UTF-8 becomes U+FFFD; code points XML 1.0
// forbids (C0 controls except tab/LF/CR, U+FFFE, U+FFFF) are dropped.
void append_escaped(std::string& out, std::string_view text);
// The same rules, but no character references for whitespace (for text content).
void append_escaped_text(std::string& out, std::string_view text);

// Writes elements into `out`, one per line. A tag is start(), attr()…, then end() (empty element)
// or open() … close(). Attribute values and text are escaped here.
class SvgWriter {
 public:
  explicit SvgWriter(std::string& out) : out_(out) {}

  SvgWriter& start(std::string_view name);  // "<name"; finish with end() or open()
  SvgWriter& attr(std::string_view name, std::string_view value);
  SvgWriter& attr(std::string_view name, double value);
  // Appends already-escaped attribute text (" name=\"…\""), e.g. a precomputed content attribute.
  SvgWriter& raw_attr(std::string_view text);
  void end();                      // "/>\n"
  void open(bool newline = true);  // ">" (children follow; no newline inside <text>)
  void close(std::string_view name, bool newline = true);  // "</name>"
  void text(std::string_view content);

  std::string& out() { return out_; }
  int next_id() { return ++ids_; }  // unique per document, for gradient definitions

 private:
  std::string& out_;
  int ids_ = 0;
};

}  // namespace fcp::drawio::render::detail

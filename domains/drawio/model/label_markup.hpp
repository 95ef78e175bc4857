// The markup of draw.io label values: HTML labels (style html=1) reduced to the text a reader
// sees, and HTML character references. Used both to name cells in ops and to render labels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fcp::drawio {

// Reduces draw.io HTML label markup to plain text with '\n' between lines: <br>, block elements
// (<div>, <p>, <li>, <tr>, headings) break lines, list items get a bullet, entities are decoded,
// comments, <style> and <script> and every other tag are dropped, and whitespace runs collapse
// as a browser would. Leading and trailing line breaks are dropped.
std::string html_to_text(std::string_view html);

// Decodes the character reference starting at text[i] (an '&'): named (&amp; &nbsp; &rarr; …),
// decimal (&#10;) or hexadecimal (&#x2192;). Appends its text to `out` and returns the number of
// bytes consumed, or 0 (nothing appended) when text[i] does not start a reference we know.
// Invalid code points become U+FFFD.
std::size_t decode_html_entity(std::string_view text, std::size_t i, std::string& out);

}  // namespace fcp::drawio

#include "domains/lofi/maxpat/text_width.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace fcp::lofi::maxpat {
namespace {

// Helvetica's advance widths in 1/1000 em, for ' ' (32) to '~' (126).
constexpr std::array<int, 95> kHelvetica = {
    278,  278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // ' '-'/'
    556,  556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // '0'-'?'
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // '@'-'O'
    667,  778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // 'P'-'_'
    333,  556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // '`'-'o'
    556,  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584};      // 'p'-'~'
constexpr int kOtherWidth = 556;

}  // namespace

double label_width(std::string_view text, double fontsize) {
  int widest = 0;
  int line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n' || byte == '\r') {
      widest = std::max(widest, line);
      line = 0;
    } else if (byte >= 32 && byte < 127) {
      line += kHelvetica[byte - 32];
    } else if ((byte & 0xC0U) != 0x80U) {  // the first byte of a UTF-8 character
      line += kOtherWidth;
    }
  }
  widest = std::max(widest, line);
  return widest * fontsize / 1000.0;
}

int comment_width(std::string_view text, double fontsize) {
  return static_cast<int>(std::ceil(label_width(text, fontsize) + kCommentPadding));
}

}  // namespace fcp::lofi::maxpat

// How wide a comment's text is in Max: an estimate from per-character advance widths, to tell
// whether a comment box is wide enough to show its text on one line (Max wraps it otherwise).
#pragma once

#include <string_view>

namespace fcp::lofi::maxpat {

// The padding Max adds around a comment's text: the comments Max sized to their text in the
// corpus (../shared/corpus/maxpat: "Script running:" at 12 pt in 86 px, "1. Start the script"
// at 16 pt in 130 px, live.comment labels at 9 pt) are 8–9 px wider than label_width says.
inline constexpr double kCommentPadding = 8.5;

// The width in px of the widest line of `text` at `fontsize` pt: the advance widths of
// Helvetica (Adobe's Core 14 AFM metrics; Arial, Max's default font, is metric-compatible with
// it) for printable ASCII; 0.556 em (a digit) for any other character. Lato and Ableton Sans,
// the Live fonts, are a little narrower: the estimate errs wide.
double label_width(std::string_view text, double fontsize);

// The box width a comment needs for `text` on one line: label_width plus kCommentPadding,
// rounded up to a whole pixel.
int comment_width(std::string_view text, double fontsize);

// The size a comment box shows its text at when its box sets no fontsize: live.comment 9 pt
// (its labels in the corpus fit at 9), a comment the patcher's default_fontsize (12 in a new
// device, Max's default).
inline constexpr double kLiveCommentFontsize = 9.0;
inline constexpr double kCommentFontsize = 12.0;

}  // namespace fcp::lofi::maxpat

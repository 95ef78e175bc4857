// The comment width estimate against comments Max sized to their text (the corpus).
#include "domains/lofi/maxpat/text_width.hpp"

#include <gtest/gtest.h>

namespace fcp::lofi::maxpat {
namespace {

TEST(TextWidth, CommentsMaxSizedToTheirTextFitAsMaxMadeThem) {
  // Ableton CPU_Reporter.amxd: "Script running:" with fontsize 12 in 86 px.
  EXPECT_EQ(comment_width("Script running:", 12), 86);
  // Cycling74 chord-builder.maxpat: "1. Start the script" at 16 pt in 130 px.
  EXPECT_LE(comment_width("1. Start the script", 16), 130);
  EXPECT_GE(comment_width("1. Start the script", 16), 128);
  // live.comment labels at 9 pt (CPU_Reporter.amxd): "Average CPU" 64, "Peak CPU" 50.
  EXPECT_EQ(comment_width("Average CPU", kLiveCommentFontsize), 64);
  EXPECT_EQ(comment_width("Peak CPU", kLiveCommentFontsize), 51);
  // The finding of issue 12: "Wow Rate" at Arial 12 does not fit in 58.
  EXPECT_EQ(comment_width("Wow Rate", kCommentFontsize), 64);
}

TEST(TextWidth, TheWidestLineCountsAndEveryCharacterHasAWidth) {
  EXPECT_DOUBLE_EQ(label_width("ab\nWWW", 10), 3 * 9.44);
  EXPECT_DOUBLE_EQ(label_width("é", 10), 5.56);  // one character, two bytes
  EXPECT_DOUBLE_EQ(label_width("", 12), 0);
}

}  // namespace
}  // namespace fcp::lofi::maxpat

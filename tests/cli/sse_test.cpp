#include "cli/sse.hpp"

#include <gtest/gtest.h>

namespace fcp::cli {
namespace {

std::vector<SseEvent> feed_all(SseParser& parser, const std::vector<std::string_view>& chunks) {
  std::vector<SseEvent> events;
  for (auto chunk : chunks) {
    for (auto& event : parser.feed(chunk))
      events.push_back(std::move(event));
  }
  return events;
}

TEST(SseTest, OneEventPerBlankLine) {
  SseParser parser;
  auto events = parser.feed("event: message\ndata: {\"a\":1}\n\ndata: {\"b\":2}\n\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, "message");
  EXPECT_EQ(events[0].data, R"({"a":1})");
  EXPECT_EQ(events[1].type, "");
  EXPECT_EQ(events[1].data, R"({"b":2})");
  EXPECT_TRUE(is_message_event(events[0]));
  EXPECT_TRUE(is_message_event(events[1]));
}

TEST(SseTest, MultipleDataLinesJoinWithNewline) {
  SseParser parser;
  auto events = parser.feed("data: first\ndata:second\ndata:  third\n\n");
  ASSERT_EQ(events.size(), 1u);
  // Exactly one space after the colon is dropped.
  EXPECT_EQ(events[0].data, "first\nsecond\n third");
}

TEST(SseTest, CommentsIdsAndUnknownFields) {
  SseParser parser;
  auto events = parser.feed(": keep-alive\nid: 7\nretry: 100\nfoo: bar\ndata: x\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "x");
  EXPECT_EQ(events[0].id, "7");
}

TEST(SseTest, EventWithoutDataIsNotDispatched) {
  SseParser parser;
  auto events = parser.feed("event: ping\n\n: only a comment\n\ndata: y\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "y");
  EXPECT_EQ(events[0].type, "");  // the type does not leak into the next event
}

TEST(SseTest, CrLfAndBareCrLineEndings) {
  SseParser parser;
  auto events = parser.feed("data: a\r\n\r\ndata: b\r\rdata: c\n\n");
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].data, "a");
  EXPECT_EQ(events[1].data, "b");
  EXPECT_EQ(events[2].data, "c");
}

TEST(SseTest, ChunksSplitAnywhereIncludingInsideCrLf) {
  SseParser parser;
  auto events = feed_all(parser, {"da", "ta: {\"x\"", ":1}\r", "\n", "\r", "\ndata: z\n", "\n"});
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data, R"({"x":1})");
  EXPECT_EQ(events[1].data, "z");
}

TEST(SseTest, IncompleteEventIsHeldBack) {
  SseParser parser;
  EXPECT_TRUE(parser.feed("data: partial\n").empty());
  auto events = parser.feed("\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "partial");
}

TEST(SseTest, LeadingBomIsIgnored) {
  SseParser parser;
  auto events = parser.feed(
      "\xEF\xBB\xBF"
      "data: v\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "v");
}

TEST(SseTest, NonMessageEventTypesAreRecognised) {
  SseParser parser;
  auto events = parser.feed("event: endpoint\ndata: /x\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(is_message_event(events[0]));
}

}  // namespace
}  // namespace fcp::cli

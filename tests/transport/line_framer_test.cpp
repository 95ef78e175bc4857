#include "transport/line_framer.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fcp::transport {
namespace {

// Frames as strings: a message as itself, a discarded line as "<oversized N>".
class Collector {
 public:
  explicit Collector(std::size_t max) : framer(max) {}
  Collector& feed(std::string_view data) {
    framer.feed(data, sink());
    return *this;
  }
  Collector& finish() {
    framer.finish(sink());
    return *this;
  }
  std::vector<std::string> frames;
  LineFramer framer;

 private:
  LineFramer::Sink sink() {
    return [this](const Frame& frame) {
      frames.push_back(frame.oversized > 0 ? fmt::format("<oversized {}>", frame.oversized)
                                           : std::string(frame.message));
    };
  }
};

using Frames = std::vector<std::string>;

TEST(LineFramer, SplitsSeveralMessagesInOneRead) {
  Collector c(100);
  c.feed("{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");
  EXPECT_EQ(c.frames, (Frames{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
}

TEST(LineFramer, JoinsAMessageSplitAcrossReads) {
  Collector c(100);
  for (char ch : std::string("hello\nwor"))
    c.feed(std::string_view(&ch, 1));
  EXPECT_EQ(c.frames, Frames{"hello"});
  c.feed("ld\n");
  EXPECT_EQ(c.frames, (Frames{"hello", "world"}));
  EXPECT_EQ(c.framer.pending_bytes(), 0u);
}

TEST(LineFramer, StripsCarriageReturnAndSkipsEmptyLines) {
  Collector c(100);
  c.feed("one\r\n\r\n\ntwo\r").feed("\nthree\n");
  EXPECT_EQ(c.frames, (Frames{"one", "two", "three"}));
}

TEST(LineFramer, KeepsAnInnerCarriageReturnAndBinaryBytes) {
  Collector c(100);
  c.feed(std::string("a\rb\xff\xfe\0z\n", 8));
  ASSERT_EQ(c.frames.size(), 1u);
  EXPECT_EQ(c.frames[0], std::string("a\rb\xff\xfe\0z", 7));
}

TEST(LineFramer, DiscardsAnOversizedLineAndReportsItOnce) {
  Collector c(10);
  c.feed("0123456789ABCDEF").feed("GHIJ").feed("\nok\n");
  EXPECT_EQ(c.frames, (Frames{"<oversized 20>", "ok"}));
  EXPECT_EQ(c.framer.pending_bytes(), 0u);
}

TEST(LineFramer, DiscardsAnOversizedLineInsideOneRead) {
  Collector c(4);
  c.feed("abcdefgh\nabcd\nabcd\r\nabcde\n");
  EXPECT_EQ(c.frames, (Frames{"<oversized 8>", "abcd", "abcd", "<oversized 5>"}));
}

TEST(LineFramer, NeverBuffersMoreThanTheLimit) {
  Collector c(1000);
  for (int i = 0; i < 100; ++i)
    c.feed(std::string(1000, 'x'));
  EXPECT_LE(c.framer.pending_bytes(), 100000u);  // counted, not held
  c.feed("\n");
  EXPECT_EQ(c.frames, Frames{"<oversized 100000>"});
}

TEST(LineFramer, FinishDeliversAnUnterminatedLastLine) {
  Collector c(10);
  c.feed("first\nlast").finish();
  EXPECT_EQ(c.frames, (Frames{"first", "last"}));
  Collector d(3);
  d.feed("toolong").finish();
  EXPECT_EQ(d.frames, Frames{"<oversized 7>"});
}

}  // namespace
}  // namespace fcp::transport

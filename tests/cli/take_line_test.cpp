// take_line: the newline framing shared by the stdio and TCP channels.
#include <gtest/gtest.h>

#include "cli/message_channel.hpp"

namespace fcp::cli {
namespace {

TEST(TakeLine, ReturnsCompleteNonEmptyLinesAndKeepsTheRest) {
  std::string buffer = "\n\r\n{\"a\":1}\r\n{\"b\":2}\n{\"c\"";
  EXPECT_EQ(take_line(buffer), "{\"a\":1}");
  EXPECT_EQ(take_line(buffer), "{\"b\":2}");
  EXPECT_EQ(take_line(buffer), std::nullopt);
  EXPECT_EQ(buffer, "{\"c\"");
  buffer += ":3}\n";
  EXPECT_EQ(take_line(buffer), "{\"c\":3}");
  EXPECT_TRUE(buffer.empty());
}

}  // namespace
}  // namespace fcp::cli

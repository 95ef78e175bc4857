// Token files and per-principal limits.
#include "mcp/auth.hpp"

#include <gtest/gtest.h>

namespace fcp::mcp {
namespace {

TEST(TokenFile, ReadsPrincipalTokenLinesSkippingCommentsAndBlanks) {
  auto entries = parse_token_file(
      "# team tokens\n\nalice:0123456789abcdef0123\r\n  bob : fedcba9876543210fedc \n", "tokens");
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].principal, "alice");
  EXPECT_EQ((*entries)[0].token, "0123456789abcdef0123");
  EXPECT_EQ((*entries)[1].principal, "bob");
  EXPECT_EQ((*entries)[1].token, "fedcba9876543210fedc");
}

TEST(TokenFile, NamesTheLineOfEveryMistake) {
  const auto error = [](std::string_view text) {
    auto parsed = parse_token_file(text, "t");
    return parsed ? std::string("(accepted)") : parsed.error().message;
  };
  EXPECT_EQ(error("alice 0123456789abcdef0123\n"), "t line 1: expected PRINCIPAL:TOKEN");
  EXPECT_NE(error("\nalice:short\n").find("t line 2: a token needs at least 16 characters"),
            std::string::npos);
  EXPECT_NE(error("al ice:0123456789abcdef0123\n").find("t line 1: a principal is"),
            std::string::npos);
  EXPECT_EQ(error("a:0123456789abcdef0123\na:0123456789abcdef9999\n"),
            "t line 2: principal \"a\" is listed twice");
  EXPECT_EQ(error("a:0123456789abcdef0123\nb:0123456789abcdef0123\n"),
            "t line 2: this token is already another principal's");
  EXPECT_EQ(error("# nothing\n"), "t: no PRINCIPAL:TOKEN line");
}

TEST(PrincipalLimits, CallsInFlightAreCountedPerPrincipal) {
  PrincipalLimits limits({.max_calls_in_flight = 2, .max_journal_bytes = 100});
  auto a1 = limits.begin_call("alice");
  auto a2 = limits.begin_call("alice");
  ASSERT_TRUE(a1 && a2);
  auto a3 = limits.begin_call("alice");
  ASSERT_FALSE(a3);
  EXPECT_NE(a3.error().message.find("limits.max_calls_per_principal"), std::string::npos);
  // Another principal is not affected.
  auto b1 = limits.begin_call("bob");
  EXPECT_TRUE(b1);
  EXPECT_EQ(limits.calls_in_flight("alice"), 2u);
  a1->reset();  // the call ended
  EXPECT_EQ(limits.calls_in_flight("alice"), 1u);
  EXPECT_TRUE(limits.begin_call("alice"));
}

TEST(PrincipalLimits, JournalBytesAreReservedPerPrincipal) {
  PrincipalLimits limits({.max_calls_in_flight = 2, .max_journal_bytes = 100});
  EXPECT_TRUE(limits.reserve_journal_bytes("alice", 60));
  auto refused = limits.reserve_journal_bytes("alice", 41);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("limits.max_journal_bytes_per_principal"),
            std::string::npos);
  EXPECT_TRUE(limits.reserve_journal_bytes("bob", 100));
  limits.release_journal_bytes("alice", 60);
  EXPECT_EQ(limits.journal_bytes("alice"), 0u);
  EXPECT_TRUE(limits.reserve_journal_bytes("alice", 100));
}

}  // namespace
}  // namespace fcp::mcp

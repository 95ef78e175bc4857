// core/response: the reply-line builders, the format check the engine and the goldens rely on,
// error lines and ReplyText.
#include "core/response.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <unordered_set>

namespace fcp::core {
namespace {

struct Builder {
  const char* name;
  std::function<std::string(std::string_view)> build;
  char prefix;
};

class ReplyLineBuilder : public ::testing::TestWithParam<Builder> {};

TEST_P(ReplyLineBuilder, WritesItsPrefixASpaceAndTheText) {
  const auto& builder = GetParam();
  const std::string expected = std::string(1, builder.prefix) + " page Notes";
  EXPECT_EQ(builder.build("page Notes"), expected);
  EXPECT_EQ(reply_line(builder.prefix, "page Notes"), expected);
}

TEST_P(ReplyLineBuilder, KeepsATextThatStartsWithAPrefixCharacterApart) {
  // A lofi object of class *~ once read "+*~ vol": created, or a property changed?
  EXPECT_EQ(GetParam().build("*~ vol"), std::string(1, GetParam().prefix) + " *~ vol");
}

TEST_P(ReplyLineBuilder, MakesALineTheFormatCheckAccepts) {
  const std::vector<std::string> lines{GetParam().build("x")};
  EXPECT_EQ(first_unprefixed_line(lines), std::nullopt);
}

TEST_P(ReplyLineBuilder, WritesALineBreakTheUserTypedAsItsEscape) {
  // A title or label with a line break ("new \"x\ny\"") once started a line of its own, which
  // the agent read as the next reply line; the escape is also how an op writes it.
  const std::string line = GetParam().build("new document \"x\ny\r\"");
  EXPECT_EQ(line, std::string(1, GetParam().prefix) + " new document \"x\\ny\\r\"");
  const std::vector<std::string> lines{line};
  EXPECT_EQ(first_unprefixed_line(lines), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(EveryPrefix, ReplyLineBuilder,
                         ::testing::Values(Builder{"created", created, '+'},
                                           Builder{"connection_changed", connection_changed, '~'},
                                           Builder{"property_changed", property_changed, '*'},
                                           Builder{"deleted", deleted, '-'},
                                           Builder{"meta", meta, '!'}, Builder{"bulk", bulk, '@'},
                                           Builder{"warning", warning_line, '?'}),
                         [](const auto& test) { return std::string(test.param.name); });

TEST(ReplyLine, PrefixConstantsAreTheCardsCharacters) {
  EXPECT_EQ(std::string({prefix::created, prefix::edge, prefix::property, prefix::deleted,
                         prefix::meta, prefix::bulk, prefix::warning}),
            "+~*-!@?");
}

TEST(ReplyLine, DetailLinesAreIndentedByTwoSpaces) {
  EXPECT_EQ(detail_line("Page-1 (1 shape)"), "  Page-1 (1 shape)");
  EXPECT_EQ(detail_line("try: label A \"one\ntwo\""), "  try: label A \"one\\ntwo\"");
}

std::optional<std::string> first_bad(std::vector<std::string> lines) {
  auto bad = first_unprefixed_line(lines);
  return bad ? std::optional<std::string>(*bad) : std::nullopt;
}

TEST(FirstUnprefixedLine, AcceptsPrefixedLinesAndDetailsUnderThem) {
  EXPECT_EQ(first_bad({}), std::nullopt);
  EXPECT_EQ(first_bad({"+ svc Auth", "~ Auth->Users", "* labeled Auth \"A\"", "- edge A->B",
                       "! pages:", "  Page-1 (active)", "    nested", "@ moved 2 shapes",
                       "? Auth: no connections"}),
            std::nullopt);
  EXPECT_EQ(first_bad({"! unknown verb \"ad\"", "  try: add svc A"}), std::nullopt);
}

TEST(FirstUnprefixedLine, ChecksEveryLineOfAMultiLineElement) {
  EXPECT_EQ(first_bad({"! pages:\n  Page-1\n  Page-2"}), std::nullopt);
  EXPECT_EQ(first_bad({"! pages:\nPage-1"}), "Page-1");
}

TEST(FirstUnprefixedLine, RefusesTheHandWrittenFormsDomainsUsedToWrite) {
  EXPECT_EQ(first_bad({"defined theme brand (#fde2e4 / #c9184a)"}),
            "defined theme brand (#fde2e4 / #c9184a)");
  EXPECT_EQ(first_bad({"+svc Auth @(200,200 140x60) blue"}), "+svc Auth @(200,200 140x60) blue");
  EXPECT_EQ(first_bad({"+*~ vol"}), "+*~ vol");
  EXPECT_EQ(first_bad({"+ ok", "title set to \"T\""}), "title set to \"T\"");
}

TEST(FirstUnprefixedLine, RefusesBlankOrBarePrefixesAndOrphanDetails) {
  EXPECT_EQ(first_bad({""}), "");
  EXPECT_EQ(first_bad({"+"}), "+");
  EXPECT_EQ(first_bad({"+ "}), "+ ");
  EXPECT_EQ(first_bad({"+  two spaces"}), "+  two spaces");
  EXPECT_EQ(first_bad({"  a detail under nothing"}), "  a detail under nothing");
  EXPECT_EQ(first_bad({"+ ok", "   "}), "   ");
  EXPECT_EQ(first_bad({"# not a prefix"}), "# not a prefix");
}

TEST(ErrorLines, AreAMetaLineAndOneTryDetailPerHint) {
  const auto lines = error_lines(make_error("unknown verb \"ad\"", {"add svc A", "add db A"}));
  EXPECT_EQ(lines, (std::vector<std::string>{"! unknown verb \"ad\"", "  try: add svc A",
                                             "  try: add db A"}));
  EXPECT_EQ(first_unprefixed_line(lines), std::nullopt);
}

TEST(ReplyText, JoinsLinesWithoutATrailingNewline) {
  ReplyText reply;
  EXPECT_TRUE(reply.empty());
  reply.add(created("svc Auth"));
  reply.add_warning("Auth: no connections");
  EXPECT_EQ(reply.str(), "+ svc Auth\n? Auth: no connections");
}

TEST(Plural, CountsOneAndMany) {
  EXPECT_EQ(plural(1, "op"), "1 op");
  EXPECT_EQ(plural(3, "op"), "3 ops");
  EXPECT_EQ(plural(0, "shape"), "0 shapes");
}

TEST(ReplyText, KeepsEveryOpsOwnWarningEvenWhenTheyReadAlike) {
  // Two ops that each took a default: both say so (each line belongs to the op above it).
  ReplyText reply;
  reply.add(created("note A"));
  reply.add_warning("no at: given: placed at 1.1, the default");
  reply.add(created("note B"));
  reply.add_warning("no at: given: placed at 1.1, the default");
  EXPECT_EQ(reply.str(),
            "+ note A\n? no at: given: placed at 1.1, the default\n+ note B\n"
            "? no at: given: placed at 1.1, the default");
  EXPECT_EQ(reply.warnings_said(),
            (std::unordered_set<std::string>{"? no at: given: placed at 1.1, the default"}));
}

}  // namespace
}  // namespace fcp::core

#include "core/parsed_op.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fcp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

ParsedOp parse(std::string_view input, const ParseHooks* hooks = nullptr) {
  auto op = parse_op(input, hooks);
  EXPECT_TRUE(op.has_value()) << "input: " << input << (op ? "" : " error: " + op.error().message);
  return op ? *op : ParsedOp{};
}

std::vector<std::string> keys(const ParsedOp& op) {
  std::vector<std::string> out;
  for (const Param& p : op.params)
    out.push_back(p.key + "=" + p.value);
  return out;
}

std::vector<std::string> raw_selectors(const ParsedOp& op) {
  std::vector<std::string> out;
  for (const Selector& s : op.selectors)
    out.push_back(s.raw);
  return out;
}

TEST(ParseOp, VerbPositionalsAndParams) {
  ParsedOp op = parse("note Piano C4 at:1.1 dur:quarter");
  EXPECT_EQ(op.verb, "note");
  EXPECT_THAT(op.positionals, ElementsAre("Piano", "C4"));
  EXPECT_THAT(keys(op), ElementsAre("at=1.1", "dur=quarter"));
  EXPECT_THAT(op.selectors, IsEmpty());
  EXPECT_THAT(op.arrows, IsEmpty());
  EXPECT_EQ(op.raw, "note Piano C4 at:1.1 dur:quarter");
}

TEST(ParseOp, VerbIsLoweredAndRawIsTrimmed) {
  ParsedOp op = parse("  \tADD Svc Auth \r\n");
  EXPECT_EQ(op.verb, "add");
  EXPECT_THAT(op.positionals, ElementsAre("Svc", "Auth"));
  EXPECT_EQ(op.raw, "ADD Svc Auth");
  EXPECT_EQ(parse("map").verb, "map");
  EXPECT_THAT(parse("map").positionals, IsEmpty());
}

TEST(ParseOp, QuotedTokensArePositionalsNeverParams) {
  ParsedOp op = parse(R"(add "key:value" 'My Track' "" c:d)");
  EXPECT_THAT(op.positionals, ElementsAre("key:value", "My Track", ""));
  EXPECT_THAT(keys(op), ElementsAre("c=d"));
}

TEST(ParseOp, PositionalQuotedGrowsOnlyWhenNeeded) {
  ParsedOp plain = parse("add a b c");
  EXPECT_THAT(plain.positional_quoted, IsEmpty());
  EXPECT_FALSE(plain.is_quoted(0));

  ParsedOp op = parse(R"(add "a" b "c" d)");
  ASSERT_THAT(op.positionals, ElementsAre("a", "b", "c", "d"));
  EXPECT_EQ(op.positional_quoted.size(), 3u);
  EXPECT_TRUE(op.is_quoted(0));
  EXPECT_FALSE(op.is_quoted(1));
  EXPECT_TRUE(op.is_quoted(2));
  EXPECT_FALSE(op.is_quoted(3));
  EXPECT_FALSE(op.is_quoted(99));
}

TEST(ParseOp, SelectorsEvenWhenQuoted) {
  ParsedOp op = parse(R"(remove @track:Piano "@not:pitch:C4" @all @recent:5)");
  EXPECT_THAT(raw_selectors(op), ElementsAre("@track:Piano", "@not:pitch:C4", "@all", "@recent:5"));
  EXPECT_THAT(op.positionals, IsEmpty());
  ASSERT_EQ(op.selectors.size(), 4u);
  EXPECT_EQ(op.selectors[1].type, "pitch");
  EXPECT_EQ(op.selectors[1].value, "C4");
  EXPECT_TRUE(op.selectors[1].negated);
}

TEST(ParseOp, ACommaListInASelectorIsItsAlternatives) {
  ParsedOp op = parse(R"(remove @type:svc,db @not:track:Bass,Keys @group:"Sales, EU" "@x:a,b")");
  EXPECT_THAT(raw_selectors(op), ElementsAre("@type:svc", "@type:db", "@not:track:Bass",
                                             "@not:track:Keys", "@group:Sales, EU", "@x:a,b"));
  EXPECT_TRUE(op.selectors[3].negated);
  EXPECT_EQ(op.selectors[3].type, "track");
  EXPECT_EQ(op.selectors[3].value, "Keys");
  std::vector<Selector> tail;
  append_selectors(tail, "@pitch:C4,,E4,");
  ASSERT_EQ(tail.size(), 2u);
  EXPECT_EQ(tail[1].raw, "@pitch:E4");
}

TEST(ParseSelector, Forms) {
  Selector all = parse_selector("@all");
  EXPECT_EQ(all.type, "all");
  EXPECT_EQ(all.value, "");
  EXPECT_FALSE(all.negated);
  EXPECT_EQ(all.raw, "@all");

  Selector recent = parse_selector("@recent:5");
  EXPECT_EQ(recent.type, "recent");
  EXPECT_EQ(recent.value, "5");

  Selector negated = parse_selector("@NOT:Type:My:DB");
  EXPECT_TRUE(negated.negated);
  EXPECT_EQ(negated.type, "type");    // types are keywords: lowercased
  EXPECT_EQ(negated.value, "My:DB");  // values keep case and later colons
  EXPECT_EQ(negated.raw, "@NOT:Type:My:DB");

  Selector bare_not = parse_selector("@not");
  EXPECT_FALSE(bare_not.negated);
  EXPECT_EQ(bare_not.type, "not");

  Selector empty_value = parse_selector("@type:");
  EXPECT_EQ(empty_value.type, "type");
  EXPECT_EQ(empty_value.value, "");
}

TEST(ParseOp, ParamsSplitOnFirstColon) {
  EXPECT_THAT(keys(parse("link url:https://x:8080/p")), ElementsAre("url=https://x:8080/p"));
  EXPECT_THAT(keys(parse("meta time-sig:3/4")), ElementsAre("time-sig=3/4"));
  EXPECT_THAT(keys(parse("set a::")), ElementsAre("a=:"));
}

TEST(ParseOp, RepeatedKeyLastWinsAtItsFirstPosition) {
  ParsedOp op = parse("add x:1 y:2 x:3");
  EXPECT_THAT(keys(op), ElementsAre("x=3", "y=2"));
  ASSERT_NE(op.param("x"), nullptr);
  EXPECT_EQ(*op.param("x"), "3");
}

TEST(ParseOp, ParamAccessors) {
  ParsedOp op = parse("add a color:red");
  EXPECT_TRUE(op.has_param("color"));
  EXPECT_FALSE(op.has_param("Color"));
  EXPECT_EQ(op.param("missing"), nullptr);
  EXPECT_EQ(op.param_or("color", "blue"), "red");
  EXPECT_EQ(op.param_or("size", "10"), "10");
}

TEST(ParseOp, NotKeyValueStaysPositional) {
  ParsedOp op = parse("f key: :val : =SUM(A1:B2) =a:b A1:F1 AA1:BB23 Sheet2!A1:B10 1:5 a1:b2");
  EXPECT_THAT(op.positionals, ElementsAre("key:", ":val", ":", "=SUM(A1:B2)", "=a:b", "A1:F1",
                                          "AA1:BB23", "Sheet2!A1:B10", "1:5", "a1:b2"));
  EXPECT_THAT(op.params, IsEmpty());
}

TEST(ParseOp, NearRangesAreParams) {
  ParsedOp op = parse("f ABCD1:B2 A1:B 1:a x:y formula:=A1+B1 note:hi!A1:B2");
  EXPECT_THAT(keys(op),
              ElementsAre("ABCD1=B2", "A1=B", "1=a", "x=y", "formula==A1+B1", "note=hi!A1:B2"));
}

TEST(ParseOp, EmbeddedQuotedValues) {
  ParsedOp op = parse(R"(add svc Auth label:"a:b" other:a:b)");
  ASSERT_EQ(op.params.size(), 2u);
  EXPECT_EQ(op.params[0].key, "label");
  EXPECT_EQ(op.params[0].value, "a:b");
  EXPECT_TRUE(op.params[0].quoted);
  EXPECT_EQ(op.params[1].value, "a:b");
  EXPECT_FALSE(op.params[1].quoted);
}

TEST(ParseOp, EmptyQuotedValueIsAnEmptyParam) {
  ParsedOp op = parse(R"(modify Auth label:"" key:)");
  EXPECT_THAT(keys(op), ElementsAre("label="));
  EXPECT_TRUE(op.params[0].quoted);
  EXPECT_THAT(op.positionals, ElementsAre("Auth", "key:"));
}

TEST(ParseOp, ArrowsStayPositionalAndAreListed) {
  ParsedOp op = parse("connect A -> B <-> C -- D label:x");
  EXPECT_THAT(op.positionals, ElementsAre("A", "->", "B", "<->", "C", "--", "D"));
  EXPECT_THAT(op.arrows, ElementsAre("->", "<->", "--"));
  EXPECT_THAT(keys(op), ElementsAre("label=x"));

  ParsedOp quoted = parse(R"(label A "->")");
  EXPECT_THAT(quoted.positionals, ElementsAre("A", "->"));
  EXPECT_THAT(quoted.arrows, IsEmpty());
}

TEST(Classifiers, IsArrow) {
  EXPECT_TRUE(is_arrow("->"));
  EXPECT_TRUE(is_arrow("<->"));
  EXPECT_TRUE(is_arrow("--"));
  for (std::string_view no : {"-", ">", "<-", "---", "=>", "", "-->"})
    EXPECT_FALSE(is_arrow(no));
}

TEST(Classifiers, IsCellRange) {
  for (std::string_view yes :
       {"A1:F1", "AA1:BB23", "abc1:xfd99", "Sheet2!A1:B10", "1:5", "Sheet1!1:5", "10:30"}) {
    EXPECT_TRUE(is_cell_range(yes)) << yes;
  }
  for (std::string_view no : {"ABCD1:B2", "A1:B", "A:B", "1:a", "A1", "!A1:B2", "a:b!A1:B2",
                              "A1:B2:C3", ":", "1:", "at:1.1"}) {
    EXPECT_FALSE(is_cell_range(no)) << no;
  }
}

TEST(Classifiers, IsKeyValue) {
  for (std::string_view yes : {"a:b", "at:1.1", "url:https://x:8080/p", "a::", "x:->"}) {
    EXPECT_TRUE(is_key_value(yes)) << yes;
  }
  for (std::string_view no :
       {"key:", ":val", ":", "", "plain", "=a:b", "@type:db", "A1:F1", "1:5", "->"}) {
    EXPECT_FALSE(is_key_value(no)) << no;
  }
}

TEST(ParseOp, DomainHookKeepsTokensPositional) {
  int calls = 0;
  ParseHooks hooks;
  hooks.is_positional = [&calls](std::string_view token) {
    ++calls;
    return token.find("..") != std::string_view::npos;
  };
  ParsedOp op = parse(R"(select bars:1..4 vel:80 "q:1..2" @range:1..2 "quoted")", &hooks);
  EXPECT_THAT(op.positionals, ElementsAre("bars:1..4", "q:1..2", "quoted"));
  EXPECT_THAT(keys(op), ElementsAre("vel=80"));
  EXPECT_THAT(raw_selectors(op), ElementsAre("@range:1..2"));
  EXPECT_EQ(calls, 2);  // never asked about selectors or quoted tokens

  ParsedOp without = parse("select bars:1..4");
  EXPECT_THAT(keys(without), ElementsAre("bars=1..4"));
  ParseHooks empty_hooks;
  EXPECT_THAT(keys(parse("select bars:1..4", &empty_hooks)), ElementsAre("bars=1..4"));
}

TEST(ParseOp, HookedArrowIsStillListed) {
  ParseHooks hooks;
  hooks.is_positional = [](std::string_view) { return true; };
  ParsedOp op = parse("connect A -> B c:d", &hooks);
  EXPECT_THAT(op.positionals, ElementsAre("A", "->", "B", "c:d"));
  EXPECT_THAT(op.arrows, ElementsAre("->"));
}

TEST(ParseOp, EscapesAndUnicode) {
  ParsedOp op = parse("add \"say \\\"hi\\\"\" Caf\xC3\xA9 label:\"l1\\nl2\" # x");
  EXPECT_THAT(op.positionals, ElementsAre("say \"hi\"", "Caf\xC3\xA9", "#", "x"));
  EXPECT_THAT(keys(op), ElementsAre("label=l1\nl2"));
}

TEST(ParseOp, Errors) {
  auto empty = parse_op("");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, "empty op");
  auto blank = parse_op(" \t\r\n");
  ASSERT_FALSE(blank);
  EXPECT_EQ(blank.error().message, "empty op (only whitespace)");
  auto open = parse_op(R"(add "Auth Service)");
  ASSERT_FALSE(open);
  EXPECT_EQ(open.error().message, "unterminated quote at column 5");
  auto embedded = parse_op("  add svc label:'x");
  ASSERT_FALSE(embedded);
  EXPECT_EQ(embedded.error().message, "unterminated quote at column 15");  // in the trimmed op
}

TEST(ParseOp, LongOp) {
  std::string input = "bulk";
  for (int i = 0; i < 5000; ++i)
    input += " p" + std::to_string(i) + " k" + std::to_string(i) + ":v";
  input += " k10:last k4999:end";
  ParsedOp op = parse(input);
  EXPECT_EQ(op.positionals.size(), 5000u);
  ASSERT_EQ(op.params.size(), 5000u);  // repeated keys replace, even past the linear scan
  EXPECT_EQ(op.params[10].key, "k10");
  EXPECT_EQ(op.params[10].value, "last");
  EXPECT_EQ(op.params.back().key, "k4999");
  EXPECT_EQ(op.params.back().value, "end");
  EXPECT_EQ(op.param_or("k20", ""), "v");
}

}  // namespace
}  // namespace fcp::core

#include "cli/script.hpp"

#include <gtest/gtest.h>

namespace fcp::cli {
namespace {

ToolCatalog drawio_catalog() {
  return ToolCatalog({{"drawio", ToolShape::ops},
                      {"drawio_query", ToolShape::query},
                      {"drawio_session", ToolShape::session},
                      {"drawio_help", ToolShape::empty},
                      {"midi", ToolShape::ops}});
}

std::vector<std::string> ops_of(const ScriptStep& step) {
  std::vector<std::string> ops;
  for (const auto& op : step.arguments.at("ops").as_array()) {
    ops.emplace_back(op.as_string());
  }
  return ops;
}

TEST(ScriptParseTest, SkipsBlankLinesAndCommentsKeepingLineNumbers) {
  auto lines = parse_script(
      "# a diagram\n\ndrawio_session new \"X\"\n   # indented comment\n"
      "  drawio add svc A\n\t\ndrawio_help");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].number, 3);
  EXPECT_EQ(lines[0].tool, "drawio_session");
  EXPECT_EQ(lines[0].argument, "new \"X\"");
  EXPECT_EQ(lines[1].number, 5);
  EXPECT_EQ(lines[1].tool, "drawio");
  EXPECT_EQ(lines[1].argument, "add svc A");
  EXPECT_EQ(lines[2].number, 7);
  EXPECT_EQ(lines[2].argument, "");
}

TEST(ScriptParseTest, ArgumentKeepsQuotingAndInnerSpacing) {
  auto lines = parse_script("drawio   label A \"two  spaces # not a comment\"  'x'  \r\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].argument, "label A \"two  spaces # not a comment\"  'x'");
}

TEST(ScriptParseTest, CrLfFilesAndTabSeparators) {
  auto lines = parse_script("drawio_query\tmap\r\ndrawio add B\r\n");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].tool, "drawio_query");
  EXPECT_EQ(lines[0].argument, "map");
  EXPECT_EQ(lines[1].number, 2);
}

TEST(ScriptPlanTest, ConsecutiveOpsOfOneToolFormOneBatch) {
  auto lines = parse_script(
      "drawio_session new \"X\"\n"  // 1
      "drawio add svc A\n"          // 2
      "# comment inside the batch\n"
      "drawio add svc B\n"  // 4
      "\n"
      "drawio connect A -> B\n"  // 6
      "drawio_query map\n"       // 7
      "drawio add svc C\n"       // 8
      "midi note C4\n"           // 9
      "drawio add svc D\n"       // 10
      "drawio_help\n");          // 11
  auto steps = plan_script(lines, drawio_catalog());
  ASSERT_EQ(steps.size(), 7u);
  EXPECT_EQ(steps[0].tool, "drawio_session");
  EXPECT_EQ(steps[0].arguments.at("action").as_string(), "new \"X\"");
  EXPECT_EQ(steps[1].tool, "drawio");
  EXPECT_EQ(ops_of(steps[1]),
            (std::vector<std::string>{"add svc A", "add svc B", "connect A -> B"}));
  EXPECT_EQ(steps[1].lines, (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(steps[2].arguments.at("q").as_string(), "map");
  EXPECT_EQ(ops_of(steps[3]), std::vector<std::string>{"add svc C"});
  EXPECT_EQ(steps[4].tool, "midi");
  EXPECT_EQ(steps[5].lines, std::vector<int>{10});
  EXPECT_TRUE(steps[6].arguments.empty());
  EXPECT_EQ(steps[6].lines, std::vector<int>{11});
}

TEST(ScriptPlanTest, UnknownToolNamesItsLineAndTheTools) {
  auto lines = parse_script("drawio add A\n\nvisio add B\n");
  try {
    plan_script(lines, drawio_catalog());
    FAIL() << "expected a ScriptError";
  } catch (const ScriptError& error) {
    EXPECT_EQ(error.line(), 3);
    std::string message = error.what();
    EXPECT_NE(message.find("unknown tool 'visio'"), std::string::npos);
    EXPECT_NE(message.find("drawio_query"), std::string::npos);
  }
}

TEST(ScriptPlanTest, MisfitArgumentNamesItsLine) {
  auto lines = parse_script("drawio add A\ndrawio_help now\n");
  try {
    plan_script(lines, drawio_catalog());
    FAIL() << "expected a ScriptError";
  } catch (const ScriptError& error) {
    EXPECT_EQ(error.line(), 2);
    EXPECT_NE(std::string(error.what()).find("takes no arguments"), std::string::npos);
  }
  EXPECT_THROW(plan_script(parse_script("drawio\n"), drawio_catalog()), ScriptError);
}

TEST(ScriptFailedLineTest, MapsOpNumberToItsScriptLine) {
  ScriptStep step{"drawio", {}, {2, 4, 6}};
  EXPECT_EQ(failed_line(step, "! op 2 failed: unknown shape 'Q'\n  try: A"), 4);
  EXPECT_EQ(failed_line(step, "! op 3: bad\n  2 earlier ops were rolled back"), 6);
  EXPECT_EQ(failed_line(step, "! Op #1 failed"), 2);
}

TEST(ScriptFailedLineTest, FallsBackToTheFirstLine) {
  ScriptStep step{"drawio", {}, {2, 4, 6}};
  EXPECT_EQ(failed_line(step, "! no document: use drawio_session 'new \"Title\"'"), 2);
  EXPECT_EQ(failed_line(step, "! op 9 failed"), 2);    // out of range
  EXPECT_EQ(failed_line(step, "! stop 3 failed"), 2);  // "op" must be a word of its own
  EXPECT_EQ(failed_line(step, "! op 0 failed"), 2);
}

TEST(ScriptFailedLineTest, SkipsOutOfRangeNumbersBeforeAValidOne) {
  ScriptStep step{"drawio", {}, {5, 8}};
  EXPECT_EQ(failed_line(step, "! op 12 of a previous call; op 2 failed here"), 8);
}

}  // namespace
}  // namespace fcp::cli

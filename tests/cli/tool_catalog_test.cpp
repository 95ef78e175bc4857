#include "cli/tool_catalog.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

namespace json = boost::json;

// Shaped like the daemon's tools/list reply (mcp.md "Tools").
constexpr const char* tools_list = R"({"tools":[
  {"name":"midi","inputSchema":{"type":"object","properties":{"ops":{"type":"array",
    "items":{"type":"string"}}},"required":["ops"]}},
  {"name":"midi_query","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}},
  {"name":"midi_session","inputSchema":{"type":"object",
    "properties":{"action":{"type":"string"}}}},
  {"name":"midi_help","inputSchema":{"type":"object"}},
  {"name":"odd","inputSchema":{"type":"object","properties":{"x":{"type":"number"}}}},
  {"description":"no name, skipped"}
]})";

ToolCatalog catalog() {
  return ToolCatalog::from_list_result(json::parse(tools_list).as_object());
}

TEST(ToolCatalogTest, ShapesComeFromTheInputSchema) {
  auto tools = catalog();
  ASSERT_EQ(tools.tools().size(), 5u);
  EXPECT_EQ(tools.find("midi")->shape, ToolShape::ops);
  EXPECT_EQ(tools.find("midi_query")->shape, ToolShape::query);
  EXPECT_EQ(tools.find("midi_session")->shape, ToolShape::session);
  EXPECT_EQ(tools.find("midi_help")->shape, ToolShape::empty);
  EXPECT_EQ(tools.find("odd")->shape, ToolShape::json);
  EXPECT_EQ(tools.find("drawio"), nullptr);
  EXPECT_EQ(tools.names_joined(), "midi, midi_query, midi_session, midi_help, odd");
}

TEST(ToolCatalogTest, OpsShortcutMakesOneOpPerWord) {
  std::vector<std::string> words{"note C4 1/4", "chord Am \"x y\""};
  auto args = shortcut_arguments({"midi", ToolShape::ops}, words);
  EXPECT_EQ(json::serialize(args), R"({"ops":["note C4 1/4","chord Am \"x y\""]})");
}

TEST(ToolCatalogTest, QueryAndSessionJoinWordsWithSpaces) {
  std::vector<std::string> words{"describe", "track", "Bass"};
  EXPECT_EQ(json::serialize(shortcut_arguments({"midi_query", ToolShape::query}, words)),
            R"({"q":"describe track Bass"})");
  std::vector<std::string> action{"new", "\"My Song\""};
  EXPECT_EQ(json::serialize(shortcut_arguments({"midi_session", ToolShape::session}, action)),
            R"({"action":"new \"My Song\""})");
}

TEST(ToolCatalogTest, HelpTakesNoWordsAndJsonToolsTakeAnObject) {
  EXPECT_TRUE(shortcut_arguments({"midi_help", ToolShape::empty}, {}).empty());
  std::vector<std::string> one{"x"};
  EXPECT_THROW(shortcut_arguments({"midi_help", ToolShape::empty}, one), UsageError);
  EXPECT_THROW(shortcut_arguments({"midi", ToolShape::ops}, {}), UsageError);
  EXPECT_THROW(shortcut_arguments({"midi_query", ToolShape::query}, {}), UsageError);
  std::vector<std::string> object{R"({"x":1})"};
  EXPECT_EQ(shortcut_arguments({"odd", ToolShape::json}, object).at("x").as_int64(), 1);
  EXPECT_THROW(shortcut_arguments({"odd", ToolShape::json}, one), UsageError);
}

}  // namespace
}  // namespace fcp::cli

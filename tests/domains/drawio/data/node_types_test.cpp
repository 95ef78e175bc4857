#include "domains/drawio/data/node_types.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::drawio::data {
namespace {

TEST(NodeTypesTest, TwelveBuiltInsInCardOrder) {
  std::vector<std::string> names;
  for (const NodeType& type : node_types())
    names.emplace_back(type.name);
  EXPECT_THAT(names, testing::ElementsAre("box", "svc", "circle", "decision", "db", "api", "cloud",
                                          "actor", "doc", "queue", "triangle", "process"));
}

struct ExpectedType {
  std::string_view name, base_style;
  double width, height;
  std::string_view description;
};

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks this name up.
void PrintTo(const ExpectedType& c, std::ostream* os) {
  *os << c.name;
}

class NodeTypeValuesTest : public testing::TestWithParam<ExpectedType> {};

TEST_P(NodeTypeValuesTest, MatchesReferenceTable) {
  const ExpectedType& expected = GetParam();
  const NodeType* type = find_node_type(expected.name);
  ASSERT_NE(type, nullptr);
  EXPECT_EQ(type->base_style, expected.base_style);
  EXPECT_EQ(type->width, expected.width);
  EXPECT_EQ(type->height, expected.height);
  EXPECT_EQ(type->description, expected.description);
}

// Reference inventory §1.1, verbatim.
INSTANTIATE_TEST_SUITE_P(
    Reference, NodeTypeValuesTest,
    testing::Values(
        ExpectedType{"box", "whiteSpace=wrap;html=1;", 120, 60, "Plain rectangle (generic)"},
        ExpectedType{"svc", "rounded=1;whiteSpace=wrap;html=1;", 140, 60, "Rounded rectangle"},
        ExpectedType{"circle", "ellipse;whiteSpace=wrap;html=1;aspect=fixed;", 60, 60, "Ellipse"},
        ExpectedType{"decision", "rhombus;whiteSpace=wrap;html=1;", 100, 80, "Diamond"},
        ExpectedType{"db",
                     "shape=cylinder3;whiteSpace=wrap;html=1;boundedLbl=1;backgroundOutline=1;"
                     "size=15;",
                     120, 80, "Cylinder"},
        ExpectedType{"api",
                     "shape=hexagon;perimeter=hexagonPerimeter2;whiteSpace=wrap;html=1;fixedSize=1;"
                     "size=20;",
                     120, 80, "Hexagon"},
        ExpectedType{"cloud", "ellipse;shape=cloud;whiteSpace=wrap;html=1;", 140, 60, "Cloud"},
        ExpectedType{"actor",
                     "shape=umlActor;verticalLabelPosition=bottom;verticalAlign=top;html=1;"
                     "outlineConnect=0;",
                     30, 60, "UML actor (label below)"},
        ExpectedType{"doc",
                     "shape=document;whiteSpace=wrap;html=1;boundedLbl=1;backgroundOutline=1;"
                     "size=0.27;",
                     120, 80, "Document"},
        ExpectedType{"queue",
                     "shape=parallelogram;perimeter=parallelogramPerimeter;whiteSpace=wrap;html=1;"
                     "fixedSize=1;size=20;",
                     140, 60, "Parallelogram"},
        ExpectedType{"triangle", "triangle;whiteSpace=wrap;html=1;", 80, 80, "Triangle"},
        ExpectedType{"process",
                     "shape=process;whiteSpace=wrap;html=1;backgroundOutline=1;size=0.1;", 120, 60,
                     "Double-bordered rect"}),
    [](const testing::TestParamInfo<ExpectedType>& param) {
      return std::string(param.param.name);
    });

TEST(NodeTypesTest, FindIsExactAndCaseSensitive) {
  ASSERT_NE(find_node_type("svc"), nullptr);
  EXPECT_EQ(find_node_type("svc")->name, "svc");
  EXPECT_EQ(find_node_type("SVC"), nullptr);
  EXPECT_EQ(find_node_type("service"), nullptr);
  EXPECT_EQ(find_node_type(""), nullptr);
}

struct InferenceCase {
  std::string_view label, type;
};

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks this name up.
void PrintTo(const InferenceCase& c, std::ostream* os) {
  *os << '"' << c.label << "\" -> " << c.type;
}

class InferNodeTypeTest : public testing::TestWithParam<InferenceCase> {};

TEST_P(InferNodeTypeTest, SuggestsType) {
  EXPECT_EQ(infer_node_type(GetParam().label), GetParam().type) << "label: " << GetParam().label;
}

INSTANTIATE_TEST_SUITE_P(
    Reference, InferNodeTypeTest,
    testing::Values(
        // Reference inventory §1.2 and its own test cases.
        InferenceCase{"user-file", "actor"}, InferenceCase{"OrderDB", "db"},
        InferenceCase{"Valid?", "decision"}, InferenceCase{"UserDB", "db"},
        InferenceCase{"user_database", "db"}, InferenceCase{"Redis Cache", "db"},
        InferenceCase{"PostgresStore", "db"}, InferenceCase{"Is Valid?", "decision"},
        InferenceCase{"Check Auth", "decision"}, InferenceCase{"Admin User", "actor"},
        InferenceCase{"Customer", "actor"}, InferenceCase{"EventBus", "queue"},
        InferenceCase{"Kafka Topic", "queue"}, InferenceCase{"SQS Queue", "queue"},
        InferenceCase{"Cloud CDN", "cloud"}, InferenceCase{"External API", "cloud"},
        InferenceCase{"Access Log", "doc"}, InferenceCase{"Monthly Report", "doc"},
        InferenceCase{"AuthService", "svc"}, InferenceCase{"Gateway", "svc"},
        // The db list is checked first: a queue word loses to a db word.
        InferenceCase{"KafkaQueue", "queue"}, InferenceCase{"QueueStore", "db"},
        InferenceCase{"order-db-check?", "db"}, InferenceCase{"UserCache", "db"},
        // Capital runs split before the last capital when a lower-case letter follows.
        InferenceCase{"HTTPLog", "doc"}, InferenceCase{"APIGateway", "svc"},
        InferenceCase{"DBProxy", "db"}, InferenceCase{"userProfile", "actor"},
        // Only whole words count.
        InferenceCase{"Logger", "svc"}, InferenceCase{"mydatabase", "svc"},
        InferenceCase{"Filesystem", "svc"}, InferenceCase{"", "svc"},
        InferenceCase{"?", "decision"}, InferenceCase{"Paths\tFile", "doc"}));

TEST(NodeTypesTest, Utf8LengthCountsCodePoints) {
  EXPECT_EQ(utf8_length(""), 0U);
  EXPECT_EQ(utf8_length("hello"), 5U);
  EXPECT_EQ(utf8_length("h\xC3\xA9llo"), 5U);                  // héllo
  EXPECT_EQ(utf8_length("\xE2\x82\xAC\xF0\x9F\x98\x80"), 2U);  // euro sign, emoji
}

TEST(NodeTypesTest, AutoWidthKeepsDefaultForShortLabels) {
  const NodeType& svc = *find_node_type("svc");
  EXPECT_EQ(auto_width(svc, "Auth"), 140);
  EXPECT_EQ(auto_width(svc, std::string(15, 'x')), 140);  // 15*8+20 = 140
}

TEST(NodeTypesTest, AutoWidthGrowsToTheNextTen) {
  const NodeType& svc = *find_node_type("svc");
  EXPECT_EQ(auto_width(svc, std::string(20, 'x')), 180);  // 180
  EXPECT_EQ(auto_width(svc, std::string(21, 'x')), 190);  // 188 → 190
  const NodeType& actor = *find_node_type("actor");
  EXPECT_EQ(auto_width(actor, "Bob"), 50);  // 44 → 50 > 40
}

TEST(NodeTypesTest, AutoWidthCountsCharactersNotBytes) {
  std::string label;
  for (int i = 0; i < 21; ++i)
    label += "\xC3\xA9";  // 21 × é, 42 bytes
  EXPECT_EQ(auto_width(*find_node_type("svc"), label), 190);
}

}  // namespace
}  // namespace fcp::drawio::data

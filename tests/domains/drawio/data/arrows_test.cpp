#include "domains/drawio/data/arrows.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace fcp::drawio::data {
namespace {

struct ExpectedArrow {
  std::string_view name, drawio_arrow;
  bool filled;
};

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks this name up.
void PrintTo(const ExpectedArrow& c, std::ostream* os) {
  *os << c.name;
}

class ArrowKindTest : public testing::TestWithParam<ExpectedArrow> {};

TEST_P(ArrowKindTest, MapsToDrawioValue) {
  const ExpectedArrow& expected = GetParam();
  const ArrowKind* kind = find_arrow_kind(expected.name);
  ASSERT_NE(kind, nullptr) << expected.name;
  EXPECT_EQ(kind->drawio_arrow, expected.drawio_arrow);
  EXPECT_EQ(kind->filled, expected.filled);
}

INSTANTIATE_TEST_SUITE_P(
    Required, ArrowKindTest,
    testing::Values(
        ExpectedArrow{"arrow", "classic", true}, ExpectedArrow{"open-arrow", "open", false},
        ExpectedArrow{"diamond", "diamond", true}, ExpectedArrow{"open-diamond", "diamond", false},
        ExpectedArrow{"circle", "oval", true}, ExpectedArrow{"open-circle", "oval", false},
        ExpectedArrow{"crow-foot", "ERmany", false}, ExpectedArrow{"one", "ERone", false},
        ExpectedArrow{"mandatory-one", "ERmandOne", false},
        ExpectedArrow{"zero-many", "ERzeroToMany", false}, ExpectedArrow{"block", "block", true},
        ExpectedArrow{"open-block", "block", false}, ExpectedArrow{"dash", "dash", false},
        ExpectedArrow{"cross", "cross", false}, ExpectedArrow{"none", "none", false}));

TEST(ArrowKindsTest, NamesAndDrawioPairsAreUnique) {
  std::set<std::string_view> names;
  std::set<std::pair<std::string_view, bool>> values;
  for (const ArrowKind& kind : arrow_kinds()) {
    EXPECT_TRUE(names.insert(kind.name).second) << kind.name;
    EXPECT_TRUE(values.insert({kind.drawio_arrow, kind.filled}).second) << kind.name;
  }
}

TEST(ArrowKindsTest, ReverseLookupRoundTrips) {
  for (const ArrowKind& kind : arrow_kinds()) {
    EXPECT_EQ(arrow_kind_for(kind.drawio_arrow, kind.filled), &kind) << kind.name;
  }
}

TEST(ArrowKindsTest, ReverseLookupIgnoresFillOnlyWhereDrawioDoes) {
  ASSERT_NE(arrow_kind_for("ERmany", true), nullptr);
  EXPECT_EQ(arrow_kind_for("ERmany", true)->name, "crow-foot");
  EXPECT_EQ(arrow_kind_for("open", true)->name, "open-arrow");
  EXPECT_EQ(arrow_kind_for("none", true)->name, "none");
  EXPECT_EQ(arrow_kind_for("diamond", false)->name, "open-diamond");
  EXPECT_EQ(arrow_kind_for("oval", true)->name, "circle");
  EXPECT_EQ(arrow_kind_for("classic", false), nullptr);  // a hollow classic has no name
  EXPECT_EQ(arrow_kind_for("blockThin", true), nullptr);
  EXPECT_EQ(arrow_kind_for("", true), nullptr);
}

TEST(ArrowKindsTest, FindIgnoresCaseAndRejectsUnknown) {
  ASSERT_NE(find_arrow_kind("Crow-Foot"), nullptr);
  EXPECT_EQ(find_arrow_kind("Crow-Foot")->drawio_arrow, "ERmany");
  EXPECT_EQ(find_arrow_kind("classic"), nullptr);  // the draw.io value is not a kind name
  EXPECT_EQ(find_arrow_kind("bogus"), nullptr);
}

}  // namespace
}  // namespace fcp::drawio::data

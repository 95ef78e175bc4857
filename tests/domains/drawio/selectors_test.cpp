// drawio selectors through the engine: every verb that takes selectors changes exactly the shapes
// `list` shows for the same selectors (one selector engine for queries and verbs).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

using Names = std::set<std::string>;

// Auth (svc, in Core), Billing (svc, outside), Users (db, in Core), Clerk (actor, in Core),
// Ledger (db, outside, connected to Billing).
class DrawioSelectors : public ::testing::TestWithParam<std::string> {
 protected:
  DrawioSelectors() : domain_(make_drawio_domain()), session_(*domain_, paths_) {
    (void)session_.run_session("new \"Selectors\"", {});
    run({"add svc Auth", "add svc Billing", "add db Users", "add actor Clerk", "add db Ledger",
         "connect Billing -> Ledger", "group Auth Users Clerk as:Core", "layer create Side"});
  }

  std::string run(std::vector<std::string> ops) {
    auto result = session_.run_ops(ops, {});
    EXPECT_FALSE(result.reply.is_error) << result.reply.text;
    return result.reply.text;
  }
  std::string ask(const std::string& query) {
    auto reply = session_.run_query(query);
    EXPECT_FALSE(reply.is_error) << query << ": " << reply.text;
    return reply.text;
  }
  // Labels of `list` lines ("Auth(svc)"); none when the selectors matched nothing.
  Names listed(const std::string& query) {
    Names out;
    const std::string answer = ask(query);
    if (answer.starts_with("No shapes match")) return out;
    std::istringstream lines(answer);
    for (std::string line; std::getline(lines, line);) {
      const auto paren = line.rfind('(');
      if (paren != std::string::npos && line.back() == ')') out.insert(line.substr(0, paren));
    }
    return out;
  }
  // Labels of the shapes whose `describe *` block has a line containing `text`.
  Names described_with(const std::string& text) {
    Names out;
    std::istringstream lines(ask("describe *"));
    std::string label;
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.front() != ' ') label = line.substr(0, line.find(" ("));
      if (line.starts_with("  ") && line.find(text) != std::string::npos) out.insert(label);
    }
    return out;
  }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_P(DrawioSelectors, StyleChangesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  const std::string reply = run({"style " + GetParam() + " fill:#123456"});
  EXPECT_EQ(described_with("fill: #123456"), expected) << reply;
  EXPECT_NE(reply.find("(" + std::to_string(expected.size()) + " shape"), std::string::npos)
      << reply;
}

TEST_P(DrawioSelectors, ModifyChangesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  run({"modify " + GetParam() + " prop.mark:yes"});
  EXPECT_EQ(described_with("mark=yes"), expected);
}

TEST_P(DrawioSelectors, RemoveRemovesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  const Names before = listed("list");
  run({"remove " + GetParam()});
  Names removed;
  const Names after = listed("list");
  for (const auto& name : before) {
    if (!after.contains(name)) removed.insert(name);
  }
  EXPECT_EQ(removed, expected);
}

TEST_P(DrawioSelectors, MoveMovesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  run({"move " + GetParam() + " by:5000,0"});
  Names moved;
  for (const auto& name : listed("list")) {
    if (ask("describe " + name).find("position: (5") != std::string::npos) moved.insert(name);
  }
  EXPECT_EQ(moved, expected);
}

TEST_P(DrawioSelectors, CopyCopiesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  run({"copy " + GetParam() + " by:0,900 suffix:_copy"});
  Names copies;
  for (const auto& name : listed("list")) {
    if (name.ends_with("_copy")) copies.insert(name.substr(0, name.size() - 5));
  }
  EXPECT_EQ(copies, expected);
}

TEST_P(DrawioSelectors, LayerMoveTakesWhatListShows) {
  const Names expected = listed("list " + GetParam());
  // Shapes inside a group move with their group, so compare the ungrouped ones only.
  Names ungrouped;
  for (const auto& name : expected) {
    if (!listed("list @group:Core").contains(name)) ungrouped.insert(name);
  }
  run({"layer move " + GetParam() + " to:Side"});
  Names on_side = listed("list @layer:Side");
  EXPECT_EQ(on_side, ungrouped);
}

// Two selector types (and a third, or a negation): different types intersect.
INSTANTIATE_TEST_SUITE_P(TwoTypes, DrawioSelectors,
                         ::testing::Values("@type:svc @group:Core", "@group:Core @type:svc",
                                           "@type:svc @type:db @group:Core",
                                           "@group:Core @not:type:db", "@type:db @orphan",
                                           "@type:db @connected:Billing"),
                         [](const ::testing::TestParamInfo<std::string>& combination) {
                           return "Combination" + std::to_string(combination.index);
                         });

TEST(DrawioSelectorSets, TheIssueExample) {
  // A (svc, in G), B (svc, outside G), C (db, in G): list and remove agree on A alone.
  testing::NoFiles paths;
  auto domain = make_drawio_domain();
  core::Session session(*domain, paths);
  (void)session.run_session("new \"G\"", {});
  const std::vector<std::string> build{"add svc A", "add svc B", "add db C", "group A C as:G"};
  ASSERT_FALSE(session.run_ops(build, {}).reply.is_error);
  EXPECT_EQ(session.run_query("list @type:svc @group:G").text, "A(svc)");
  const std::vector<std::string> style{"style @type:svc @group:G bold"};
  EXPECT_NE(session.run_ops(style, {}).reply.text.find("(1 shape)"), std::string::npos);
  const std::vector<std::string> remove{"remove @type:svc @group:G"};
  EXPECT_EQ(session.run_ops(remove, {}).reply.text.substr(0, 4), "- A\n");
  EXPECT_EQ(session.run_query("list").text, "B(svc)\nC(db)");
}

TEST(DrawioSelectorSets, MatchingNothingWarnsAndTheBatchGoesOn) {
  testing::NoFiles paths;
  auto domain = make_drawio_domain();
  core::Session session(*domain, paths);
  (void)session.run_session("new \"G\"", {});
  const std::vector<std::string> ops{"add svc A", "remove @type:queue", "add db B"};
  const auto result = session.run_ops(ops, {});
  ASSERT_FALSE(result.reply.is_error) << result.reply.text;
  EXPECT_NE(result.reply.text.find("? no shapes match @type:queue — there is 1 shape: A(svc); "
                                   "remove changed nothing"),
            std::string::npos)
      << result.reply.text;
  EXPECT_EQ(session.run_query("list").text, "A(svc)\nB(db)");
}

}  // namespace
}  // namespace fcp::drawio

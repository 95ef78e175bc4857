// The op contract over every drawio verb, and the drawio synonyms and defaults an agent meets.
#include <gtest/gtest.h>

#include "core/session.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

class DrawioContract : public ::testing::Test {
 protected:
  DrawioContract() : domain_(make_drawio_domain()), session_(*domain_, paths_) {
    session_.run_session("new \"Contract\"", {});
  }
  core::ToolReply ops(std::vector<std::string> list) { return session_.run_ops(list, {}).reply; }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(DrawioContract, EveryVerbRefusesAnUndeclaredKey) {
  testing::expect_every_verb_refuses_undeclared_keys(*domain_, session_);
}

TEST_F(DrawioContract, CardListsTheDeclaredKeys) {
  testing::expect_card_lists_declared_keys(*domain_, session_);
}

TEST_F(DrawioContract, EveryExampleWorks) {
  const auto prepare = [](core::Session& session) {
    session.run_session("new \"Examples\" discard:true", {});
    session.run_ops(
        std::vector<std::string>{"add svc Gateway", "add svc Auth", "add svc Web", "add db Orders",
                                 "add db Cache", "add box Note", "connect Web -> Orders"},
        {});
  };
  testing::expect_examples_work(*domain_, prepare, session_);
}

TEST_F(DrawioContract, StyleKeyTyposAreCorrectedButOtherWordsAreNotTakenForStyleKeys) {
  ops({"add svc Auth", "add db OrdersDB"});
  auto typo = ops({"style Auth fillcolor:#fff"});
  EXPECT_NE(typo.text.find("try: style Auth fillColor:#fff"), std::string::npos) << typo.text;
  auto below = ops({"modify Auth below:OrdersDB"});
  EXPECT_TRUE(below.is_error);
  EXPECT_EQ(below.text.find("elbow"), std::string::npos) << below.text;
}

TEST_F(DrawioContract, SelectorsAndKeysTheAgentsWroteGetCompleteOps) {
  ops({"add db OrdersDB"});
  auto below = ops({"add svc Shipping below:OrdersDB"});
  EXPECT_TRUE(below.is_error);
  EXPECT_NE(below.text.find("try: add svc Shipping near:OrdersDB dir:below"), std::string::npos)
      << below.text;
  auto colour = ops({"add svc Billing colour:green"});
  EXPECT_NE(colour.text.find("try: add svc Billing theme:green"), std::string::npos) << colour.text;
  auto group_color = ops({"group OrdersDB as:Data color:blue"});
  EXPECT_NE(group_color.text.find("try: group OrdersDB as:Data theme:blue"), std::string::npos)
      << group_color.text;
}

TEST_F(DrawioContract, VerbSynonymsAreNeverDestructiveGuesses) {
  ops({"add svc Orders"});
  auto rename = ops({"rename Orders \"Order Service\""});
  EXPECT_NE(rename.text.find("try: label Orders \"Order Service\""), std::string::npos)
      << rename.text;
  EXPECT_EQ(rename.text.find("try: remove"), std::string::npos) << rename.text;
  auto remove = ops({"delete Orders"});
  EXPECT_NE(remove.text.find("try: remove Orders"), std::string::npos) << remove.text;
  EXPECT_EQ(remove.text.find("define"), std::string::npos) << remove.text;
}

TEST_F(DrawioContract, TypeTyposAreNotTurnedIntoLabels) {
  auto reply = ops({"add databse Users"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("try: add db Users"), std::string::npos) << reply.text;
  EXPECT_EQ(reply.text.find("\"databse Users\""), std::string::npos) << reply.text;
  auto cylinder = ops({"add cylinder Users"});
  EXPECT_NE(cylinder.text.find("try: add db Users"), std::string::npos) << cylinder.text;
}

TEST_F(DrawioContract, TheDefaultPlaceNamesAMultiLineShapeOnOneLine) {
  ops({"add box \"Heading\\nLorem ipsum dolor sit amet, consectetur adipisicing elit\""});
  auto reply = ops({"add svc Probe"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("(no at:/near: given: placed below Heading Lorem ipsum dolor sit "
                            "amet, cons…, the latest shape)\n"),
            std::string::npos)
      << reply.text;
}

TEST_F(DrawioContract, ExportPathWordsMeanAs) {
  ops({"add svc Orders"});
  auto reply = ops({"export fmt:png path:shop.png"});
  EXPECT_NE(reply.text.find("try: export fmt:png as:shop.png"), std::string::npos) << reply.text;
  auto session = session_.run_session("export path:shop.png", {}).reply;
  EXPECT_NE(session.text.find("try: export as:shop.png"), std::string::npos) << session.text;
}

TEST_F(DrawioContract, StyleSetsTheEdgePorts) {
  ops({"add svc Orders", "add queue Events near:Orders dir:right", "connect Orders -> Events"});
  auto reply = ops({"style Orders -> Events exit:bottom entry:top@0.25"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  auto described = session_.run_query("describe Orders -> Events").text;
  EXPECT_NE(described.find("  ports: exit bottom@0.5, entry top@0.25\n"), std::string::npos)
      << described;
}

TEST_F(DrawioContract, ASecondEdgeBetweenTheSameShapesIsSaid) {
  ops({"add svc Orders", "add queue Events near:Orders dir:right", "connect Orders -> Events"});
  auto reply = ops({"connect Orders -> Events label:publish"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("? Orders -> Events already had 1 edge; now 2 run side by side"),
            std::string::npos)
      << reply.text;
}

TEST_F(DrawioContract, GluedArrowsConnect) {
  ops({"add svc Orders", "add db OrdersDB"});
  auto reply = ops({"connect Orders->OrdersDB"});
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(session_.run_query("stats").text.find("edges: 0"), std::string::npos);
  EXPECT_NE(session_.digest()->find(" 1e "), std::string::npos) << *session_.digest();
}

TEST_F(DrawioContract, DefaultPlacementIsSaidInTheReply) {
  auto first = ops({"add svc Orders"});
  EXPECT_NE(first.text.find("(no at:/near: given: placed at 200,200, the first shape's default)"),
            std::string::npos)
      << first.text;
  auto second = ops({"add db OrdersDB"});
  EXPECT_NE(second.text.find("(no at:/near: given: placed below Orders, the latest shape)"),
            std::string::npos)
      << second.text;
  auto placed = ops({"add svc Auth near:Orders dir:right"});
  EXPECT_EQ(placed.text.find("placed"), std::string::npos) << placed.text;
}

// With in:GROUP the shape goes beside the group's latest shape, which need not be the page's
// latest: the reply names the group (a trial agent read "the latest shape" as the page's).
TEST_F(DrawioContract, DefaultPlacementInAGroupNamesTheGroup) {
  ops({"add svc Orders", "add svc Billing", "group Orders Billing as:Services", "add db Cache"});
  auto reply = ops({"add svc Search in:Services"});
  EXPECT_NE(reply.text.find("the latest shape in Services"), std::string::npos) << reply.text;
}

}  // namespace
}  // namespace fcp::drawio

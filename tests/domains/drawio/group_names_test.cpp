// A group's exact name names the group in every verb, even when a shape's name starts with it
// (trial 10: `style Data theme:green` coloured the shape "Data warehouse", not the group Data).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

class GroupNames : public ::testing::Test {
 protected:
  GroupNames() : domain_(make_drawio_domain()), session_(*domain_, paths_) {
    (void)session_.run_session("new \"Names\"", {});
    const std::vector<std::string> ops{"add db Users", "add db Warehouse label:\"Data warehouse\"",
                                       "add svc Api", "group Users Warehouse as:Data theme:gray"};
    const auto setup = session_.run_ops(ops, {});
    EXPECT_FALSE(setup.reply.is_error) << setup.reply.text;
  }
  core::ToolReply run(const std::string& op) {
    const std::vector<std::string> ops{op};
    return session_.run_ops(ops, {}).reply;
  }
  std::string ask(const std::string& query) { return session_.run_query(query).text; }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(GroupNames, StyleWithAGroupsNameStylesTheGroup) {
  const auto reply = run("style Data theme:green");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("styled group Data"), std::string::npos) << reply.text;
  EXPECT_NE(ask("describe Data").find("fill: #d5e8d4"), std::string::npos) << ask("describe Data");
}

TEST_F(GroupNames, MembersAllWorksWithTheGroupsNameAndId) {
  const auto reply = run("style data theme:green members:all");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("the container and 2 members"), std::string::npos) << reply.text;
  const std::string described = ask("describe Data");
  const auto id_at = described.find("id: ");
  ASSERT_NE(id_at, std::string::npos) << described;
  const std::string id = described.substr(id_at + 4, described.find('\n', id_at) - id_at - 4);
  const auto by_id = run("style #" + id + " theme:blue members:all");
  EXPECT_FALSE(by_id.is_error) << by_id.text;
}

TEST_F(GroupNames, MembersOnAShapeNeverSuggestsWhatWasTyped) {
  const auto reply = run("style Api theme:green members:all");
  ASSERT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("Api is not a group"), std::string::npos) << reply.text;
  EXPECT_EQ(reply.text.find("style Api theme:green members:all"), std::string::npos) << reply.text;
}

TEST_F(GroupNames, APrefixMatchNamesWhatItResolvedTo) {
  const auto reply = run("style Dat bold");
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("Data warehouse (matched \"Dat\")"), std::string::npos) << reply.text;
}

TEST_F(GroupNames, RemoveAndMoveTakeTheGroup) {
  ASSERT_FALSE(run("move Data by:10,0").is_error);
  const auto removed = run("remove Data");
  ASSERT_FALSE(removed.is_error) << removed.text;
  EXPECT_EQ(ask("list"), "Api(svc)");
}

}  // namespace
}  // namespace fcp::drawio

// The export reply names the shapes the native renderer could only draw as placeholders.
#include <gtest/gtest.h>

#include "core/session.hpp"
#include "domains/drawio/data/node_types.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::drawio {
namespace {

class ExportReply : public ::testing::Test {
 protected:
  ExportReply() : domain_(make_drawio_domain()), session_(*domain_, paths_) {
    session_.run_session("new \"Export\"", {});
  }
  core::ToolReply ops(std::vector<std::string> list) { return session_.run_ops(list, {}).reply; }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(ExportReply, NamesEveryShapeDrawnAsAPlaceholder) {
  ops({"add box Router", "add box Gate", "add box Plain", "add box Mystery"});
  ops({"style Router shape:mxgraph.cisco.routers.router", "style Gate shape:xor",
       "style Mystery shape:noSuchShape"});
  auto reply = ops({"export fmt:svg engine:native"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("? 2 shapes drawn as placeholders: Router "
                            "(shape=mxgraph.cisco.routers.router), Mystery (shape=noSuchShape)"),
            std::string::npos)
      << reply.text;
  // A successful export starts with `+`, never `!` (errors only), placeholders or not.
  EXPECT_EQ(reply.text.rfind("+ exported page 1 (", 0), 0u) << reply.text;
  EXPECT_EQ(reply.text.find("\n!"), std::string::npos) << reply.text;
  // xor is drawn natively, so it is not named.
  EXPECT_EQ(reply.text.find("Gate"), std::string::npos) << reply.text;
}

TEST_F(ExportReply, SaysNothingWhenEveryShapeIsDrawn) {
  ops({"add box Alpha", "add db Beta", "connect Alpha -> Beta"});
  auto reply = ops({"export fmt:svg engine:native"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(reply.text.find("placeholder"), std::string::npos) << reply.text;
}

TEST_F(ExportReply, EveryBuiltInTypeIsDrawnNatively) {
  std::vector<std::string> adds;
  for (const data::NodeType& type : data::node_types())
    adds.push_back("add " + std::string(type.name) + " \"A " + std::string(type.name) + "\"");
  auto added = ops(adds);
  ASSERT_FALSE(added.is_error) << added.text;
  auto reply = ops({"export fmt:svg engine:native"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_EQ(reply.text.find("placeholder"), std::string::npos) << reply.text;
}

// add actor makes draw.io's sidebar actor, whose label sits under the figure (in draw.io and in
// the native export), not across it.
TEST_F(ExportReply, AnActorsLabelIsDrawnUnderTheFigure) {
  auto added = ops({"add actor Customer at:100,100"});
  ASSERT_FALSE(added.is_error) << added.text;
  auto reply = ops({"export fmt:svg engine:native"});
  ASSERT_EQ(reply.attachments.size(), 1u) << reply.text;
  const std::string& svg = reply.attachments.front().bytes;
  const auto at = svg.find(">Customer</tspan>");
  ASSERT_NE(at, std::string::npos) << svg;
  const double baseline = std::stod(svg.substr(svg.rfind(" y=\"", at) + 4));
  EXPECT_GT(baseline, 160) << svg;  // the figure spans y 100 … 160
  EXPECT_LT(baseline, 185) << svg;
}

TEST_F(ExportReply, BoundsTheListOfNames) {
  std::vector<std::string> adds, styles;
  for (int i = 1; i <= 9; ++i) {
    adds.push_back("add box N" + std::to_string(i));
    styles.push_back("style N" + std::to_string(i) + " shape:mxgraph.network.server");
  }
  ops(adds);
  ops(styles);
  auto reply = ops({"export fmt:svg engine:native"});
  EXPECT_NE(reply.text.find("? 9 shapes drawn as placeholders: N1 (shape=mxgraph.network.server)"),
            std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find(", … and 3 more"), std::string::npos) << reply.text;
}

}  // namespace
}  // namespace fcp::drawio

// What one drawio call may cost: entities it may add (copy, repeat, count:), replies it may
// return (an export too large to carry), and overlap warnings over shapes piled on each other.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domains/drawio/document.hpp"
#include "domains/drawio/domain.hpp"
#include "tests/support/cost_session.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::drawio {
namespace {

class CostTest : public ::testing::Test {
 protected:
  explicit CostTest(const core::SessionLimits& limits = {})
      : domain_(make_drawio_domain()), cost_(*domain_, limits) {}

  core::ToolReply ops(const std::vector<std::string>& list) {
    auto result = cost_.session().run_ops(list, {});
    EXPECT_FALSE(result.pending);
    return result.reply;
  }
  static std::string last_line(const core::ToolReply& reply) {
    return reply.text.substr(reply.text.rfind('\n') + 1);
  }
  std::string digest() const { return cost_.digest(); }

  std::unique_ptr<core::Domain> domain_;
  testing::CostSession cost_;
};

class CreationLimitTest : public CostTest {
 protected:
  CreationLimitTest() : CostTest(testing::creation_limit(100)) {}
};

// The finding: `copy @all` repeated doubles the page each time, 60 bytes a request. Past the
// limit the copy is refused before a shape is made, the error names the limit and its config
// key, and the page is as it was.
TEST_F(CreationLimitTest, CopyAllStopsAtTheLimitWithAClearError) {
  ASSERT_FALSE(ops({"add box A at:0,0"}).is_error);
  for (int round = 0; round < 7; ++round) {
    auto reply = ops({"copy @all"});
    ASSERT_FALSE(reply.is_error) << reply.text;
  }
  const std::string before = digest();
  EXPECT_TRUE(before.starts_with("[128s ")) << before;
  auto refused = ops({"copy @all"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("! this op would add 128 shapes, more than one call may add "
                              "(limits.max_created_per_call = 100 entities per call, a setting "
                              "of the daemon's config)"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(digest(), before);
  // The same copy in a batch after 40 adds: what the earlier ops added counts too.
  std::vector<std::string> batch;
  for (int i = 0; i < 40; ++i)
    batch.push_back("add box Extra" + std::to_string(i) + " at:" + std::to_string(i * 200) +
                    ",2000");
  batch.emplace_back("repeat Extra0 count:61");
  auto late = ops(batch);
  EXPECT_TRUE(late.is_error);
  EXPECT_NE(late.text.find("op 41 of 41 failed"), std::string::npos) << late.text;
  EXPECT_NE(late.text.find("earlier ops of this call added 40"), std::string::npos) << late.text;
  EXPECT_EQ(digest(), before);
  batch.back() = "repeat Extra0 count:60";
  EXPECT_FALSE(ops(batch).is_error);
}

// Verbs that make one shape each are bounded by the engine's count after each op.
TEST_F(CreationLimitTest, ManyAddsInOneCallAreRolledBackPastTheLimit) {
  std::vector<std::string> batch;
  for (int i = 0; i < 11; ++i)
    batch.push_back("add box B" + std::to_string(i) + " count:10");
  auto reply = ops(batch);
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("op 11 of 11 failed"), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find("limits.max_created_per_call = 100"), std::string::npos) << reply.text;
  EXPECT_TRUE(last_line(reply).starts_with("[0s ")) << reply.text;
}

class ReplyLimitTest : public CostTest {
 protected:
  ReplyLimitTest() : CostTest(testing::reply_limit(600)) {}
};

// An image export larger than a reply may carry is refused with the op that writes it to a
// file instead, and that op works.
TEST_F(ReplyLimitTest, AnExportTooLargeForTheReplyOffersAFile) {
  ASSERT_FALSE(ops({"add box A at:0,0", "add box B at:200,0", "connect A -> B"}).is_error);
  auto refused = ops({"export fmt:svg engine:native"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("! the SVG is "), std::string::npos) << refused.text;
  EXPECT_NE(refused.text.find("more than a reply may carry (limits.max_reply_bytes = 600 "
                              "bytes"),
            std::string::npos)
      << refused.text;
  const std::string hint = "  try: export file as:diagram.svg engine:native";
  ASSERT_NE(refused.text.find(hint + "\n"), std::string::npos) << refused.text;
  const auto file = std::filesystem::current_path() / "diagram.svg";
  std::filesystem::remove(file);
  auto written = ops({hint.substr(std::string("  try: ").size())});
  EXPECT_FALSE(written.is_error) << written.text;
  EXPECT_TRUE(std::filesystem::exists(file));
  std::filesystem::remove(file);
}

// Shapes piled on one another overlap in pairs that grow with the square of their number; the
// check stops after a fixed amount of work and says so instead of running for minutes.
TEST_F(CostTest, OverlapWarningsOverAPileAreBounded) {
  std::vector<std::string> batch;
  for (int i = 0; i < 3000; ++i)
    batch.push_back("add box P" + std::to_string(i) + " at:0,0");
  auto reply = ops(batch);
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("? P0 overlaps P1"), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find("more warnings"), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find(" of the 3000 shapes the batch placed: they lie on too many others "
                            "to check them all"),
            std::string::npos)
      << reply.text;
}

// kBytesPerCell (about 1 700 bytes) a cell: a batch past limits.max_document_bytes is rolled back,
// an open whose file is estimated past it is refused before parsing; both errors name the setting.
class MemoryLimitTest : public CostTest {
 protected:
  MemoryLimitTest() : CostTest(testing::memory_limit(kBytesPerCell * 12)) {}
};

TEST_F(MemoryLimitTest, BatchesAndOpensPastTheLimitAreRefused) {
  ASSERT_FALSE(ops({"add box A", "add box B"}).is_error);
  std::vector<std::string> many;
  for (int i = 0; i < 10; ++i)
    many.push_back("add box N" + std::to_string(i));
  cost_.expect_refused(many, "more than one document may hold (limits.max_document_bytes = " +
                                 std::to_string(kBytesPerCell * 12) + " bytes");
  cost_.expect_open_refused(testing::source_dir() / "fixtures" / "drawio" / "crowded.drawio");
}

// An undo or redo that stops inside a batch (`redo 3` of `add ×3; remove ×3`) would hold more
// shapes than any batch ended with: past the limit it is refused with the same error, and the
// document and its history stay as they were.
TEST_F(MemoryLimitTest, UndoAndRedoPastTheLimitAreRefused) {
  std::vector<std::string> nine;
  for (int i = 0; i < 9; ++i)
    nine.push_back("add box N" + std::to_string(i));
  ASSERT_FALSE(ops(nine).is_error);
  auto swap = ops({"add box P", "add box Q", "add box R", "remove N0", "remove N1", "remove N2"});
  ASSERT_FALSE(swap.is_error) << swap.text;
  const std::string nine_boxes = digest();
  const auto session = [this](std::string_view action) {
    auto result = cost_.session().run_session(action, {});
    EXPECT_FALSE(result.pending);
    return result.reply;
  };
  auto undo = session("undo 3");  // N0, N1 and N2 back beside P, Q and R
  EXPECT_TRUE(undo.is_error) << undo.text;
  EXPECT_NE(undo.text.find("more than one document may hold (limits.max_document_bytes = " +
                           std::to_string(kBytesPerCell * 12) + " bytes"),
            std::string::npos)
      << undo.text;
  EXPECT_NE(undo.text.find("nothing undone: the document is unchanged"), std::string::npos)
      << undo.text;
  EXPECT_EQ(digest(), nine_boxes);
  auto whole = session("undo 6");
  EXPECT_FALSE(whole.is_error) << whole.text;
  const std::string before_swap = digest();
  auto redo = session("redo 3");  // P, Q and R beside N0 to N8
  EXPECT_TRUE(redo.is_error) << redo.text;
  EXPECT_NE(redo.text.find("nothing redone: the document is unchanged"), std::string::npos)
      << redo.text;
  EXPECT_EQ(digest(), before_swap);
  auto redo_whole = session("redo 6");
  EXPECT_FALSE(redo_whole.is_error) << redo_whole.text;
  EXPECT_EQ(digest(), nine_boxes);
}

}  // namespace
}  // namespace fcp::drawio

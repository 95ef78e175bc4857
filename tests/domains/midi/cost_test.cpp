// What one midi call may add: `repeat` and `copy` past limits.max_created_per_call are refused
// before a note is made, with an error naming the setting; the song is as it was.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::midi {
namespace {

TEST(MidiCost, RepeatAndCopyPastTheCreationLimitAreRefused) {
  auto domain = make_midi_domain();
  testing::NoFiles paths;
  core::SessionLimits limits;
  limits.max_created_per_call = 20;
  core::Session session(*domain, paths, limits);
  (void)session.run_session("new \"Cost\"", {});
  auto run = [&](std::vector<std::string> ops) { return session.run_ops(ops, {}).reply; };
  ASSERT_FALSE(run({"track add Keys", "note Keys C4 E4 G4 at:1.1 dur:quarter"}).is_error);
  const std::string before = *session.digest();
  auto refused = run({"repeat @track:Keys count:7"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("! this op would add 21 notes, more than one call may add "
                              "(limits.max_created_per_call = 20 entities per call"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(*session.digest(), before);
  EXPECT_FALSE(run({"repeat @track:Keys count:6"}).is_error);
  // 21 notes now: a copy of them all would add 21.
  auto copy = run({"copy @track:Keys to:20.1"});
  EXPECT_TRUE(copy.is_error);
  EXPECT_NE(copy.text.find("this op would add 21 notes"), std::string::npos) << copy.text;
}

// A batch that takes the song's estimated memory (190 bytes an entity) past
// limits.max_document_bytes is rolled back; an open whose file is estimated past it is refused
// before parsing, naming the estimate, the limit and the setting.
TEST(MidiCost, BatchesAndOpensPastTheDocumentMemoryLimitAreRefused) {
  auto domain = make_midi_domain();
  testing::AllowAll paths;
  core::SessionLimits limits;
  limits.max_document_bytes = 190 * 10;
  core::Session session(*domain, paths, limits);
  (void)session.run_session("new \"Cost\"", {});
  auto run = [&](std::vector<std::string> ops) { return session.run_ops(ops, {}).reply; };
  ASSERT_FALSE(run({"track add Keys", "note Keys C4 E4 G4 at:1.1 dur:quarter"}).is_error);
  const std::string before = *session.digest();
  auto refused = run({"note Keys C4 D4 E4 F4 G4 A4 B4 at:2.1 dur:quarter"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("this call would take the document to an estimated 2.3 KB of "
                              "memory, more than one document may hold "
                              "(limits.max_document_bytes = 1900 bytes"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(*session.digest(), before);
  const auto file = testing::source_dir() / "fixtures" / "midi" / "smf" / "all-metas.mid";
  auto opened = session.run_session("open " + file.string() + " discard:true", {}).reply;
  EXPECT_TRUE(opened.is_error);
  EXPECT_NE(opened.text.find("opens into an estimated"), std::string::npos) << opened.text;
  EXPECT_NE(opened.text.find("limits.max_document_bytes = 1900 bytes"), std::string::npos)
      << opened.text;
  EXPECT_EQ(*session.digest(), before);
}

}  // namespace
}  // namespace fcp::midi

// What one midi call may add: `repeat` and `copy` past limits.max_created_per_call are refused
// before a note is made, with an error naming the setting; the song is as it was.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "tests/support/path_policies.hpp"

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

}  // namespace
}  // namespace fcp::midi

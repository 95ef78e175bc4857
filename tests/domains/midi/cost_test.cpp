// What one midi call may add: `repeat` and `copy` past limits.max_created_per_call are refused
// before a note is made, with an error naming the setting; the song is as it was.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "domains/midi/domain.hpp"
#include "tests/support/cost_session.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::midi {
namespace {

TEST(MidiCost, RepeatAndCopyPastTheCreationLimitAreRefused) {
  auto domain = make_midi_domain();
  testing::CostSession cost(*domain, testing::creation_limit(20));
  ASSERT_FALSE(cost.ops({"track add Keys", "note Keys C4 E4 G4 at:1.1 dur:quarter"}).is_error);
  cost.expect_refused({"repeat @track:Keys count:7"},
                      "! this op would add 21 notes, more than one call may add "
                      "(limits.max_created_per_call = 20 entities per call");
  EXPECT_FALSE(cost.ops({"repeat @track:Keys count:6"}).is_error);
  // 21 notes now: a copy of them all would add 21.
  cost.expect_refused({"copy @track:Keys to:20.1"}, "this op would add 21 notes");
}

// A batch that takes the song's estimated memory (190 bytes an entity) past
// limits.max_document_bytes is rolled back; an open whose file is estimated past it is refused
// before parsing, naming the estimate, the limit and the setting.
TEST(MidiCost, BatchesAndOpensPastTheDocumentMemoryLimitAreRefused) {
  auto domain = make_midi_domain();
  testing::CostSession cost(*domain, testing::memory_limit(190 * 10));
  ASSERT_FALSE(cost.ops({"track add Keys", "note Keys C4 E4 G4 at:1.1 dur:quarter"}).is_error);
  cost.expect_refused({"note Keys C4 D4 E4 F4 G4 A4 B4 at:2.1 dur:quarter"},
                      "this call would take the document to an estimated 2.3 KB of "
                      "memory, more than one document may hold "
                      "(limits.max_document_bytes = 1900 bytes");
  cost.expect_open_refused(testing::source_dir() / "fixtures" / "midi" / "smf" / "all-metas.mid",
                           "limits.max_document_bytes = 1900 bytes");
}

}  // namespace
}  // namespace fcp::midi

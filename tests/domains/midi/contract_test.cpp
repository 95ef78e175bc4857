// The op contract over every midi verb, the midi synonyms an agent meets, and tracker blocks that
// must close within their call.
#include <gtest/gtest.h>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

using testing::call_ops;
using testing::try_lines;

class MidiContract : public ::testing::Test {
 protected:
  MidiContract() : domain_(make_midi_domain()), session_(*domain_, paths_) { prepare(session_); }

  // A song every example and suggestion can work on: four tracks, notes in bars 1-4.
  static void prepare(core::Session& session) {
    session.run_session("new \"Contract\" discard:true", {});
    call_ops(session, {"track add Keys", "track add Drums instrument:drums",
                       "track add Bass instrument:electric-bass-finger", "track add Lead",
                       "chord Keys Am7 at:1.1 dur:whole", "chord Keys Dm7 at:2.1 dur:whole",
                       "note Keys C4 at:3.1 dur:quarter", "note Drums kick at:1.1 dur:8n",
                       "note Bass A1 at:1.1 dur:half", "note Lead E5 at:1.1 dur:quarter"});
  }
  core::ToolReply ops(std::vector<std::string> list) { return call_ops(session_, std::move(list)); }
  // The reply's suggestions, each of which must run without error on the prepared song.
  std::vector<std::string> working_hints(const core::ToolReply& reply) {
    EXPECT_TRUE(reply.is_error) << reply.text;
    auto hints = try_lines(reply.text);
    for (const auto& hint : hints) {
      core::Session fresh(*domain_, paths_);
      prepare(fresh);
      const auto run = call_ops(fresh, {hint});
      EXPECT_FALSE(run.is_error) << hint << "\n" << run.text;
    }
    return hints;
  }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(MidiContract, EveryVerbRefusesAnUndeclaredKey) {
  testing::expect_every_verb_refuses_undeclared_keys(*domain_, session_);
}

TEST_F(MidiContract, CardListsExactlyTheDeclaredKeys) {
  testing::expect_card_lists_declared_keys(*domain_, session_);
}

// Every example on the card works: card_test.cpp runs them all in the card's order on a new song.

TEST_F(MidiContract, KeySynonymsGiveTheCompleteOp) {
  using Case = std::pair<const char*, const char*>;
  for (const auto& [op, hint] : {
           Case{"note Keys C4 position:7.1 dur:8n", "note Keys C4 at:7.1 dur:8n"},
           Case{"note Keys C4 at:1.1 velocity:90", "note Keys C4 at:1.1 vel:90"},
           Case{"note Keys C4 at:1.1 duration:8n", "note Keys C4 at:1.1 dur:8n"},
           Case{"note Keys C4 start:2.1", "note Keys C4 at:2.1"},
           Case{"note Keys C4 at:2.1 length:half", "note Keys C4 at:2.1 dur:half"},
           Case{"note Keys C4 position:2.1 velocity:90 length:half",
                "note Keys C4 at:2.1 vel:90 dur:half"},
           Case{"note Keys C4 at:1.1 channel:2", "note Keys C4 at:1.1 ch:2"},
           Case{"track add Pad instrument:warm-pad channel:3",
                "track add Pad instrument:warm-pad ch:3"},
           Case{"cc Keys volume 0->127 start:1.1 to:2.1", "cc Keys volume 0->127 from:1.1 to:2.1"},
           Case{"program Keys patch:rhodes", "program Keys instrument:rhodes"},
           Case{"repeat @track:Drums times:3", "repeat @track:Drums count:3"},
           Case{"track rename Lead as:Solo", "track rename Lead to:Solo"},
       }) {
    const auto hints = working_hints(ops({op}));
    ASSERT_FALSE(hints.empty()) << op;
    EXPECT_EQ(hints.front(), hint) << op;
  }
}

TEST_F(MidiContract, VerbSynonymsGiveTheCompleteOpAndNeverDestroyByAccident) {
  using Case = std::pair<const char*, const char*>;
  for (const auto& [op, hint] : {
           Case{"delete @track:Keys @pitch:C4", "remove @track:Keys @pitch:C4"},
           Case{"rename Lead Solo", "track rename Lead Solo"},
           Case{"rename track Lead to:Solo", "track rename Lead to:Solo"},
           Case{"add track Strings instrument:strings", "track add Strings instrument:strings"},
           Case{"create Pad instrument:pad", "track add Pad instrument:pad"},
           Case{"add Keys E4 at:4.1", "note Keys E4 at:4.1"},
           Case{"set @track:Keys vel:100", "modify @track:Keys vel:100"},
           Case{"bpm 96", "tempo 96"},
           Case{"remove track Lead", "track remove Lead"},
       }) {
    const auto hints = working_hints(ops({op}));
    ASSERT_FALSE(hints.empty()) << op;
    EXPECT_EQ(hints.front(), hint) << op;
  }
  // Words that only look like a destructive verb are not taken for one.
  for (const char* op : {"rename Keys Piano", "reverse @track:Keys", "tracks"}) {
    for (const auto& hint : try_lines(ops({op}).text))
      EXPECT_FALSE(hint.starts_with("remove") || hint.starts_with("track remove")) << hint;
  }
}

TEST_F(MidiContract, ValueSynonymsGiveTheCompleteOp) {
  auto chord = ops({"chord Keys Hm7 at:5.1 dur:whole"});
  EXPECT_NE(chord.text.find("H is the German name of B"), std::string::npos) << chord.text;
  EXPECT_EQ(working_hints(chord), (std::vector<std::string>{"chord Keys Bm7 at:5.1 dur:whole"}));
  EXPECT_EQ(working_hints(ops({"note Keys H4 at:5.1"})),
            (std::vector<std::string>{"note Keys B4 at:5.1"}));
  EXPECT_EQ(working_hints(ops({"key-sig Hm"})), (std::vector<std::string>{"key-sig Bm"}));
  const auto rhodes = working_hints(ops({"track add EP instrument:vintage-rhodes"}));
  ASSERT_FALSE(rhodes.empty());
  EXPECT_EQ(rhodes.front(), "track add EP instrument:electric-piano-1");
  const auto bass = working_hints(ops({"program Bass fat-bass"}));
  ASSERT_FALSE(bass.empty());
  EXPECT_EQ(bass.front(), "program Bass electric-bass-finger");
  // The word that names the instrument is the last one: a bass clarinet is a clarinet.
  const auto clarinet = working_hints(ops({"program Lead bass-clarinet"}));
  ASSERT_FALSE(clarinet.empty());
  EXPECT_EQ(clarinet.front(), "program Lead clarinet");
}

TEST_F(MidiContract, QueriesAndSessionCommandsTakeTheirDeclaredKeys) {
  EXPECT_FALSE(session_.run_query("instruments piano source:gm").is_error);
  EXPECT_FALSE(session_.run_query("tracker Drums 1.1-1.4 res:8th").is_error);
  EXPECT_FALSE(session_.run_query("find midi:60").is_error);
  const auto bogus = session_.run_query("events Keys zzbogus:1");
  EXPECT_TRUE(bogus.is_error);
  EXPECT_EQ(try_lines(bogus.text), (std::vector<std::string>{"events Keys"}));
  auto created = session_.run_session("new \"Song\" tempo:96 key:Am time-sig:3/4 discard:true", {});
  EXPECT_FALSE(created.reply.is_error) << created.reply.text;
  EXPECT_EQ(*session_.digest(), "[0t 0e tempo:96 3/4 A-minor]");
}

TEST_F(MidiContract, ABareTrackNameWhereNotesAreChosenSuggestsItsSelector) {
  auto transpose = ops({"transpose Bass -12"});
  EXPECT_EQ(working_hints(transpose), std::vector<std::string>{"transpose @track:Bass -12"});
  auto velocity = ops({"velocity Keys +10"});
  EXPECT_EQ(working_hints(velocity), std::vector<std::string>{"velocity @track:Keys +10"});
}

TEST_F(MidiContract, ADefaultPlaceIsSaidOnlyWhenUsed) {
  for (const std::string op : {"cc Keys volume 100", "bend Keys center", "marker \"Intro\"",
                               "note Keys C4 dur:8n", "tempo 90", "program Keys organ"}) {
    auto reply = ops({op});
    ASSERT_FALSE(reply.is_error) << op << "\n" << reply.text;
    EXPECT_NE(reply.text.find("? no at: given: placed at 1.1, the default"), std::string::npos)
        << op << "\n"
        << reply.text;
    auto placed = ops({op + " at:2.1"});
    ASSERT_FALSE(placed.is_error) << placed.text;
    EXPECT_EQ(placed.text.find("no at: given"), std::string::npos) << placed.text;
  }
}

TEST_F(MidiContract, BarRangesAreWholeBars) {
  auto reply = ops({"velocity @track:Keys @range:2-3 =33"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  // Dm7 in bar 2 (4 notes) and C4 on 3.1: 5 notes, none of bar 1's Am7.
  EXPECT_NE(reply.text.find("5 notes"), std::string::npos) << reply.text;
}

TEST_F(MidiContract, BadValuesSuggestTheWholeOp) {
  auto reply = ops({"note Keys C4 at:7 dur:8n"});
  const auto hints = working_hints(reply);
  ASSERT_FALSE(hints.empty());
  EXPECT_EQ(hints.front(), "note Keys C4 at:7.1 dur:8n");
}

TEST_F(MidiContract, TrackerBlockMustCloseWithinItsCall) {
  const std::string before = *session_.digest();
  auto open = ops({"tracker Drums import at:5.1", "Step 01: [kick_v100_1]"});
  EXPECT_TRUE(open.is_error);
  EXPECT_NE(open.text.find("still open at the end of the call (1 step line not imported)"),
            std::string::npos)
      << open.text;
  // No `try:`: `tracker end` alone would fail; the message says to send the whole block.
  EXPECT_TRUE(try_lines(open.text).empty()) << open.text;
  EXPECT_NE(open.text.find("send `tracker Drums import at:5.1`, the Step lines and `tracker end` "
                           "as the ops of one call"),
            std::string::npos)
      << open.text;
  EXPECT_EQ(*session_.digest(), before);
  // The block is gone: the next call neither continues it nor refuses a new one as nested.
  EXPECT_TRUE(ops({"Step 02: [snare_v100_1]"}).is_error);
  auto whole = ops({"tracker Drums import at:5.1", "Step 01: [kick_v100_1]", "tracker end"});
  EXPECT_FALSE(whole.is_error) << whole.text;
  EXPECT_NE(whole.text.find("+ Imported 1 note from 1 step on Drums"), std::string::npos);
}

TEST_F(MidiContract, AFailedCallDiscardsItsOpenBlock) {
  EXPECT_TRUE(ops({"tracker Drums import at:5.1", "note Nobody C4"}).is_error);
  auto next = ops({"tracker Drums import at:6.1", "Step 01: [kick_v100_1]", "tracker end"});
  EXPECT_FALSE(next.is_error) << next.text;
}

}  // namespace
}  // namespace fcp::midi

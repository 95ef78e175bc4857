// midi selectors through the engine: each verb that takes selectors changes exactly the events
// `find @SELECTOR…` shows for the same selectors (one selector engine for queries and verbs).
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/selection.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

using Rows = std::multiset<std::string>;

class MidiSelectors : public ::testing::TestWithParam<std::string> {
 protected:
  MidiSelectors() : domain_(make_midi_domain()), session_(*domain_, paths_) {
    (void)session_.run_session("new \"Selectors\"", {});
    run({"track add Piano", "track add Bass instrument:acoustic-bass",
         "note Piano C4 at:1.1 vel:40", "note Piano E4 at:1.2 vel:80", "note Piano G4 at:1.3",
         "note Piano C5 at:1.4 vel:100", "note Piano C4 at:2.1 vel:90", "note Bass C2 at:1.1",
         "note Bass C4 at:1.3 vel:50", "note Bass G2 at:2.1", "cc Piano volume 100 at:1.1",
         "cc Bass volume 90 at:2.1", "tempo 100 at:2.1", "marker Verse at:2.1"});
  }

  std::string run(std::vector<std::string> ops) {
    auto result = session_.run_ops(ops, {});
    EXPECT_FALSE(result.reply.is_error) << result.reply.text;
    return result.reply.text;
  }
  // `find` rows as "TRACK PITCH-or-KIND" (positions and values change with the verbs).
  Rows found(const std::string& selectors, bool with_position = false) {
    auto reply = session_.run_query("find " + selectors);
    EXPECT_FALSE(reply.is_error) << reply.text;
    Rows out;
    if (!reply.text.starts_with("Found ")) return out;  // "No notes match …"
    std::istringstream lines(reply.text);
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
      std::istringstream words(line);
      std::string position, track, what;
      words >> position >> track >> what;
      out.insert((with_position ? position + " " : "") + track + " " + what);
    }
    return out;
  }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_P(MidiSelectors, VelocityChangesWhatFindShows) {
  const Rows expected = found(GetParam());
  ASSERT_FALSE(expected.empty());
  run({"velocity " + GetParam() + " =3"});
  EXPECT_EQ(found("@velocity:3"), expected);
}

TEST_P(MidiSelectors, ModifyChangesWhatFindShows) {
  const Rows expected = found(GetParam());
  run({"modify " + GetParam() + " vel:7"});
  EXPECT_EQ(found("@velocity:7"), expected);
}

TEST_P(MidiSelectors, RemoveRemovesWhatFindShows) {
  const Rows expected = found(GetParam(), true);
  const Rows before = found("@all", true);
  run({"remove " + GetParam()});
  const Rows after = found("@all", true);
  Rows removed;
  for (const auto& row : before) {
    if (!after.contains(row)) removed.insert(row);
  }
  EXPECT_EQ(removed, expected);
}

TEST_P(MidiSelectors, MoveAndCopyTakeWhatFindShows) {
  const Rows expected = found(GetParam());
  run({"copy " + GetParam() + " to:9.1"});
  EXPECT_EQ(found("@range:9.1-12.4"), expected);
  run({"move " + GetParam() + " to:20.1"});
  EXPECT_EQ(found("@range:20.1-23.4"), expected);
}

// Two selector types (alternatives within one, or a negation besides): types intersect.
INSTANTIATE_TEST_SUITE_P(TwoTypes, MidiSelectors,
                         ::testing::Values("@track:Piano @range:1.1-1.2",
                                           "@pitch:C4 @pitch:C2 @range:1.1-1.3",
                                           "@track:Piano @velocity:60-100",
                                           "@track:Piano @not:pitch:C4", "@channel:2 @pitch:C4",
                                           "@recent:5 @track:Bass", "@pitch:C2-G4 @track:Piano",
                                           "@pitch:<C4", "@pitch:>=C4 @not:pitch:C5", "@pitch:C"),
                         [](const ::testing::TestParamInfo<std::string>& combination) {
                           return "Combination" + std::to_string(combination.index);
                         });

TEST(PitchChoice, RangesComparisonsAndPitchClasses) {
  struct Case {
    std::string text;
    int low, high;
    std::optional<int> pitch_class;
  };
  for (const auto& [text, low, high, pitch_class] :
       std::vector<Case>{{"C4", 60, 60, std::nullopt},
                         {"kick", 36, 36, std::nullopt},
                         {"A0-B2", 21, 47, std::nullopt},
                         {"midi:21-47", 21, 47, std::nullopt},
                         {"C-1-B0", 0, 23, std::nullopt},
                         {"C4-C4", 60, 60, std::nullopt},
                         {"<C3", 0, 47, std::nullopt},
                         {"<=C3", 0, 48, std::nullopt},
                         {">G9", 128, 127, std::nullopt},  // refused below
                         {">G5", 80, 127, std::nullopt},
                         {">=G5", 79, 127, std::nullopt},
                         {"F#", 0, 127, 6},
                         {"Bb", 0, 127, 10}}) {
    auto choice = parse_pitch_choice(text);
    if (low > high) {
      EXPECT_FALSE(choice) << text;
      continue;
    }
    ASSERT_TRUE(choice) << text << ": " << choice.error().message;
    EXPECT_EQ(choice->low, low) << text;
    EXPECT_EQ(choice->high, high) << text;
    EXPECT_EQ(choice->pitch_class, pitch_class) << text;
  }
  EXPECT_TRUE(parse_pitch_choice("F#")->contains(78));
  EXPECT_FALSE(parse_pitch_choice("F#")->contains(79));
  auto down = parse_pitch_choice("B2-A0");
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().hints, std::vector<std::string>{"A0-B2"});
  auto no_octave = parse_pitch_choice("<F#");  // not a floor tom (a drum prefix)
  ASSERT_FALSE(no_octave);
  EXPECT_EQ(no_octave.error().hints, std::vector<std::string>{"<F#4"});
}

TEST_F(MidiSelectors, KindsAreChosenLikeNotes) {
  EXPECT_EQ(found("@cc @track:Piano"), (Rows{"Piano CC"}));
  EXPECT_EQ(found("@type:cc @type:tempo @range:2.1-2.4"), (Rows{"Bass CC", "conductor Tempo"}));
  run({"remove @type:cc @type:tempo @range:2.1-2.4"});
  EXPECT_EQ(found("@cc @tempo"), (Rows{"Piano CC"}));
  EXPECT_EQ(found("@marker:Verse"), (Rows{"conductor Marker"}));
}

TEST_F(MidiSelectors, RecentIsWhatTheLastOpsTouched) {
  run({"note Piano D4 at:3.1", "note Bass D2 at:3.1"});
  EXPECT_EQ(found("@recent"), (Rows{"Bass D2"}));
  EXPECT_EQ(found("@recent:2"), (Rows{"Bass D2", "Piano D4"}));
  const std::string reply = run({"tempo 80 at:4.1", "velocity @recent:3 =9"});
  EXPECT_NE(reply.find("velocity of 2 notes"), std::string::npos) << reply;
}

TEST_F(MidiSelectors, MatchingNothingWarnsWithWhatIsNearAndTheBatchGoesOn) {
  const std::string reply =
      run({"velocity @track:Piano @range:1.1-1.4 @pitch:D2 +10", "note Bass A2 at:3.1"});
  EXPECT_NE(reply.find("? no notes match @track:Piano @range:1.1-1.4 @pitch:D2 — @track:Piano "
                       "@range:1.1-1.4 match 4 notes on Piano (C4–C5, 1.1–1.4); velocity changed "
                       "nothing\n"),
            std::string::npos)
      << reply;
  EXPECT_NE(reply.find("+ Note A2"), std::string::npos) << reply;
  EXPECT_EQ(session_.run_query("find @pitch:D2").text,
            "No notes match @pitch:D2 — there are 9 notes on Piano, Bass (C2–C5, 1.1–3.1)");
}

TEST_F(MidiSelectors, NoteVerbsRefuseOtherKinds) {
  auto result = session_.run_ops(std::vector<std::string>{"transpose @cc +1"}, {});
  EXPECT_TRUE(result.reply.is_error);
  EXPECT_NE(result.reply.text.find("transpose changes notes; the selectors also choose 2 cc"),
            std::string::npos)
      << result.reply.text;
}

}  // namespace
}  // namespace fcp::midi

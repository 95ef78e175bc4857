// Every midi verb's event must revert to exactly the song before the op and replay to exactly
// the song after it; a failing op must leave the song untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/op_contract.hpp"
#include "core/parsed_op.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "domains/midi/song_io.hpp"
#include "domains/midi/verbs/verbs.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

using testing::NoFiles;

class MidiUndoTest : public ::testing::Test {
 protected:
  MidiUndoTest() : domain_(make_midi_domain()) {
    core::SessionCommand command;
    command.command = "new";
    document_.reset(static_cast<MidiDocument*>(domain_->create(command).value().release()));
  }

  // The whole observable state: the file it would save, plus mute/solo flags and the digest.
  std::string state() const {
    std::string flags;
    for (const auto& track : document_->song().tracks())
      flags += track.name + (track.muted ? "M" : "") + (track.solo ? "S" : "") + ";";
    return write_song(document_->song()) + "|" + flags + "|" + document_->digest();
  }

  core::Result<core::OpOutcome> run(const std::string& text) {
    auto op = core::parse_op(text, domain_->parse_hooks());
    if (!op) return op.error();
    // The engine's contract check runs before any handler, as in a session.
    if (const core::VerbSpec* spec = domain_->verbs().find(op->verb)) {
      if (auto checked = core::check_op_keys(*spec, *op, domain_->verbs().key_synonyms()); !checked)
        return checked.error();
    }
    core::EffectSink effects;
    core::ProgressFn progress;
    core::CallContext ctx{log_, paths_, effects, progress};
    auto outcome = document_->execute(*op, ctx);
    if (outcome && outcome->event) log_.append(outcome->event);
    return outcome;
  }

  void check(const std::string& text) {
    SCOPED_TRACE(text);
    const std::string before = state();
    auto outcome = run(text);
    ASSERT_TRUE(outcome) << outcome.error().message;
    const std::string after = state();
    if (!outcome->event) {
      EXPECT_EQ(before, after) << "an op without an event changed the song";
      return;
    }
    core::EffectSink effects;
    document_->revert(*outcome->event, effects);
    EXPECT_EQ(state(), before) << "revert did not restore the song";
    document_->replay(*outcome->event, effects);
    EXPECT_EQ(state(), after) << "replay did not reproduce the song";
  }

  void check_failure(const std::string& text) {
    SCOPED_TRACE(text);
    const std::string before = state();
    EXPECT_FALSE(run(text)) << "expected " << text << " to fail";
    EXPECT_EQ(state(), before) << "a failed op changed the song";
  }

  std::unique_ptr<core::Domain> domain_;
  std::unique_ptr<MidiDocument> document_;
  core::EventLog log_;
  NoFiles paths_;
};

TEST_F(MidiUndoTest, EveryVerbRevertsAndReplaysExactly) {
  std::set<std::string> tested;
  for (const char* op : {
           "track add Piano",
           "track add Drums instrument:drums",
           "track add Bass instrument:acoustic-bass bank:1.2",
           "note Piano C4 at:1.1 dur:quarter",
           "note Piano E4 G4 at:1.2 dur:8n vel:ff",
           "chord Piano Am7/G at:2.1 dur:whole octave:3 inv:1 voicing:open",
           "chord Piano Cmaj7 at:3.1 dur:half strum:ticks:30",
           "note Drums kick at:1.1 dur:16n",
           "note Drums snare at:1.2 dur:16n",
           "note Bass C2 at:1.1 dur:half",
           "cc Piano volume 100 at:1.1",
           "cc Piano expression 0->127 from:1.1 to:2.1 step:eighth",
           "bend Piano 4096 at:1.3",
           "program Piano violin",
           "program Piano trumpet at:3.1",
           "mute Bass",
           "solo Piano",
           "tempo 140",
           "tempo 90 at:3.1",
           "tempo scale:2 @range:1-2",
           "tempo set:100 @range:2.3-3.2",
           "time-sig 3/4 at:4.1",
           "key-sig Em",
           "marker \"Verse: one\" at:2.1",
           "title \"Undo\"",
           "transpose @track:Piano +3",
           "velocity @track:Piano -5",
           "velocity @pitch:C2 =mf",
           "move @track:Bass to:2.1",
           "copy @track:Drums to:2.1",
           "quantize @track:Piano grid:eighth strength:50",
           "modify @track:Piano @range:1.1-1.4 vel:90 dur:eighth",
           "repeat @track:Drums count:2",
           "crescendo @track:Piano from:p to:ff",
           "crescendo @track:Piano from:p to:ff mode:shift",
           "note Piano C5 at:4.1 dur:2bars",
           "decrescendo @track:Drums from:ff to:pp",
           "arpeggiate @track:Piano @range:2.1-2.4 step:sixteenth",
           "strum @track:Piano @range:3.1-3.4 step:32nd mode:down",
           "swing @track:Drums amount:66",
           "humanize @track:Piano seed:7",
           "legato @track:Bass",
           "staccato @track:Drums amount:40",
           "remove @track:Drums @pitch:snare",
           "remove @cc:volume",
           "remove @tempo @range:3.1-3.1",
           "remove @marker",
           "track rename Bass to:Low",
           "track remove Low",
           "tracker Piano import at:5.1",
           "Step 01: [C4_v80_2]",
           "tracker end",
       }) {
    check(op);
    tested.insert(core::parse_op(op).value().verb);
  }
  // A preview renders and changes nothing (without a GM SoundFont it fails, changing nothing).
  if (render::default_soundfont()) {
    check("preview @range:1-2");
  } else {
    check_failure("preview @range:1-2");
  }
  tested.insert("preview");
  for (const auto& verb : verb_table().names())
    EXPECT_TRUE(tested.contains(verb)) << verb << " has no undo check";
}

// Pairs of notes of one track, channel and pitch where the later starts before the earlier ends.
std::size_t same_pitch_overlaps(const Song& song) {
  std::size_t overlaps = 0;
  for (const auto& track : song.tracks()) {
    std::map<std::pair<int, int>, Tick> sounding_until;
    for (const auto& [tick, id] : song.notes().of_track(track.id)) {
      const Note& note = *song.notes().find(id);
      auto [it, fresh] = sounding_until.try_emplace({note.channel, note.pitch}, 0);
      if (!fresh && tick < it->second) ++overlaps;
      it->second = std::max(it->second, tick + note.duration);
    }
  }
  return overlaps;
}

TEST_F(MidiUndoTest, HumanizeKeepsTheSongsLengthAndMakesNoOverlapOfOnePitch) {
  check("track add Keys");
  check("track add Drums instrument:drums");
  // Lines of one pitch played legato, chords, and notes ending exactly at the song's end (5.1).
  check("note Keys C4 at:1.1 dur:8n");
  check("repeat @track:Keys @pitch:C4 every:8n count:31");
  check("note Keys E4 G4 at:1.1 dur:half");
  check("repeat @track:Keys @pitch:E4 @pitch:G4 every:half count:7");
  check("note Drums kick at:1.1 dur:16n");
  check("repeat @track:Drums every:16n count:63");
  const Tick end = document_->song().end_tick();
  ASSERT_EQ(end, 4u * 1920u);
  ASSERT_EQ(same_pitch_overlaps(document_->song()), 0u);
  for (int seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    const std::string before = state();
    auto outcome = run("humanize @all timing:120 seed:" + std::to_string(seed));
    ASSERT_TRUE(outcome && outcome->event);
    EXPECT_EQ(document_->song().end_tick(), end);
    EXPECT_EQ(same_pitch_overlaps(document_->song()), 0u);
    core::EffectSink effects;
    document_->revert(*outcome->event, effects);
    ASSERT_EQ(state(), before);
  }
}

TEST_F(MidiUndoTest, TrackerBlockIsOneStep) {
  check("track add Drums instrument:drums");
  check("tracker Drums import at:1.1 res:16th");
  check("Step 01: [kick_v100_1], [closed-hat_v70_1]");
  check("Step 03: [snare_v100_2]");
  check("tracker end");
}

TEST_F(MidiUndoTest, FailingOpsChangeNothing) {
  check("track add Piano");
  check("note Piano C4 at:1.1");
  for (const char* op :
       {"note Piano H4", "note Nope C4", "note Piano C4 at:1.9", "note Piano C4 dur:quavr",
        "note Piano C4 vel:0", "note Piano C4 ch:0", "chord Piano Cxyz", "cc Piano volume 300",
        "transpose @all +200", "remove @bogus:1", "tempo 5000", "time-sig 3/5", "key-sig Q",
        "track add piano", "tracker end"}) {
    check_failure(op);
  }
}

TEST_F(MidiUndoTest, OpsWhoseSelectorsMatchNothingChangeNothingAndSaySo) {
  check("track add Piano");
  check("note Piano C4 at:1.1");
  for (const char* op : {"remove @track:Piano @pitch:C9", "velocity @pitch:D4 +10", "remove @tempo",
                         "transpose @recent:1 @pitch:E4 +1"}) {
    SCOPED_TRACE(op);
    const std::string before = state();
    auto outcome = run(op);
    ASSERT_TRUE(outcome) << outcome.error().message;
    EXPECT_EQ(outcome->event, nullptr);
    EXPECT_EQ(state(), before);
    ASSERT_EQ(outcome->lines.size(), 1u);
    EXPECT_TRUE(outcome->lines.front().starts_with("? no ")) << outcome->lines.front();
    EXPECT_TRUE(outcome->lines.front().ends_with("changed nothing")) << outcome->lines.front();
  }
}

}  // namespace
}  // namespace fcp::midi

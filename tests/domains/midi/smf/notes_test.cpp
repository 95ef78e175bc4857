// pair_notes: first-in-first-out pairing per channel and pitch, velocity-0 offs, loose ends.
#include "domains/midi/smf/notes.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domains/midi/smf/meta.hpp"

namespace fcp::midi::smf {
namespace {

constexpr std::size_t none = NotePair::npos;

Track track_of(std::vector<Event> events) {
  return Track{std::move(events), 0};
}

TEST(PairNotesTest, EachNoteOnMeetsItsNoteOff) {
  const Track track = track_of({make_note_on(0, 60, 100, 0), make_note_on(0, 64, 100, 0),
                                make_note_off(0, 64, 0, 240), make_note_off(0, 60, 0, 480)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{0, 3}, {1, 2}}));
}

TEST(PairNotesTest, VelocityZeroNoteOnIsANoteOff) {
  const Track track = track_of({make_note_on(0, 60, 100, 0), make_note_on(0, 60, 0, 480)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{0, 1}}));
}

TEST(PairNotesTest, OverlappingSamePitchNotesPairFirstInFirstOut) {
  const Track track = track_of({make_note_on(0, 60, 100, 0), make_note_on(0, 60, 90, 100),
                                make_note_on(0, 60, 80, 150), make_note_off(0, 60, 0, 200),
                                make_note_on(0, 60, 0, 300), make_note_off(0, 60, 0, 400)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{0, 3}, {1, 4}, {2, 5}}));
}

TEST(PairNotesTest, RepeatedNoteWhoseOnPrecedesTheOldOffAtTheSameTick) {
  // Some writers emit the new note-on before the old note-off at a shared tick; FIFO keeps both
  // notes their real lengths (480 and 480) instead of a zero-length second note.
  const Track track = track_of({make_note_on(0, 60, 100, 0), make_note_on(0, 60, 100, 480),
                                make_note_off(0, 60, 0, 480), make_note_off(0, 60, 0, 960)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{0, 2}, {1, 3}}));
}

TEST(PairNotesTest, ChannelsAndPitchesAreSeparate) {
  const Track track = track_of({make_note_on(0, 60, 100, 0), make_note_on(1, 60, 100, 0),
                                make_note_on(0, 61, 100, 0), make_note_off(1, 60, 0, 10),
                                make_note_off(0, 61, 0, 20), make_note_off(0, 60, 0, 30)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{0, 5}, {1, 3}, {2, 4}}));
}

TEST(PairNotesTest, UnreleasedNotesAndStrayOffs) {
  const Track track = track_of({make_note_off(0, 60, 0, 0), make_note_on(0, 60, 100, 10),
                                make_note_on(0, 60, 100, 20), make_note_off(0, 60, 0, 30),
                                make_note_on(2, 70, 1, 40)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{1, 3}, {2, none}, {4, none}}));
}

TEST(PairNotesTest, OtherEventsAreSkippedButIndexesCountThem) {
  const Track track =
      track_of({make_track_name("Lead"), make_program_change(0, 5), make_note_on(0, 60, 100, 0),
                make_control_change(0, 64, 127, 10), make_poly_pressure(0, 60, 50, 20),
                make_sysex("\x7D", 30), make_note_off(0, 60, 64, 40)});
  EXPECT_EQ(pair_notes(track), (std::vector<NotePair>{{2, 6}}));
}

TEST(PairNotesTest, ManyNotesOnEveryKey) {
  std::vector<Event> events;
  for (int round = 0; round < 3; ++round) {
    for (int channel = 0; channel < 16; ++channel) {
      for (int pitch = 0; pitch < 128; ++pitch)
        events.push_back(make_note_on(channel, pitch, 1));
    }
  }
  for (int channel = 15; channel >= 0; --channel) {
    for (int pitch = 127; pitch >= 0; --pitch) {
      for (int round = 0; round < 3; ++round)
        events.push_back(make_note_off(channel, pitch, 0));
    }
  }
  const auto pairs = pair_notes(track_of(events));
  ASSERT_EQ(pairs.size(), 3u * 2048);
  for (const NotePair& pair : pairs) {
    const Event& on = events[pair.on];
    ASSERT_NE(pair.off, none);
    const Event& off = events[pair.off];
    EXPECT_EQ(on.channel(), off.channel());
    EXPECT_EQ(on.data1(), off.data1());
    // The n-th on of a key meets the n-th off of that key.
    const std::size_t round = pair.on / 2048;
    const std::size_t first_off = std::size_t{3} * 2048 + (2047 - (pair.on % 2048)) * 3;
    EXPECT_EQ(pair.off, first_off + round);
  }
}

}  // namespace
}  // namespace fcp::midi::smf

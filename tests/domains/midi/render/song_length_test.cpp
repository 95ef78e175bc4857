// The renderer's own SMF scan: song length through the tempo map, and rejection of bad input.
#include "domains/midi/render/song_length.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tests/domains/midi/render/smf_fixture.hpp"

namespace fcp::midi::render {
namespace {

using testing::kDivision;
using testing::smf;
using testing::Track;

TEST(SongLength, MelodyLengthFollowsTempo) {
  auto length = scan_song_length(testing::melody(120, 4));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->ticks_per_quarter, kDivision);
  EXPECT_EQ(length->tracks, 1);
  EXPECT_EQ(length->end_tick, 4U * kDivision);
  EXPECT_DOUBLE_EQ(length->seconds, 2.0);
}

TEST(SongLength, DefaultTempoIs120Bpm) {
  Track track;
  track.note_on(0, 0, 60, 100).note_off(2 * kDivision, 0, 60).end();
  auto length = scan_song_length(smf(kDivision, {track}));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_DOUBLE_EQ(length->seconds, 1.0);
}

TEST(SongLength, TempoChangesInAnyTrackApply) {
  Track conductor, notes;
  conductor.tempo_bpm(0, 60).tempo_bpm(2 * kDivision, 120).end();  // 2 beats at 60, then 120
  notes.note_on(0, 0, 60, 100).note_off(6 * kDivision, 0, 60).end(kDivision);
  auto length = scan_song_length(smf(kDivision, {conductor, notes}));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->end_tick, 7U * kDivision);
  EXPECT_DOUBLE_EQ(length->seconds, 2.0 + 5 * 0.5);
}

TEST(SongLength, TempoChangeAtTheLastTickAddsNoTime) {
  Track conductor, notes;
  conductor.tempo_bpm(0, 60).tempo_bpm(10 * kDivision, 240).end();
  notes.note_on(0, 0, 60, 100).note_off(3 * kDivision, 0, 60).end();
  auto length = scan_song_length(smf(kDivision, {conductor, notes}));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->end_tick, 10U * kDivision);  // the conductor's tempo event is its last event
  EXPECT_DOUBLE_EQ(length->seconds, 10.0);
}

TEST(SongLength, RunningStatusSysExAndUnknownMetaAreSkipped) {
  Track track;
  track
      .raw(0, "\xF0\x05\x7E\x7F\x09\x01\xF7")      // GM on
      .raw(0, std::string("\xFF\x03\x04Song", 7))  // track name
      .note_on(0, 0, 60, 100)
      .raw(kDivision, std::string("\x40\x64", 2))  // running status: another note on
      .raw(kDivision, std::string("\x3C\x00", 2))  // running status: velocity-0 note off
      .end();
  auto length = scan_song_length(smf(kDivision, {track}));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->end_tick, 2U * kDivision);
}

TEST(SongLength, AlienChunksAreSkipped) {
  Track track;
  track.note_on(0, 0, 60, 100).note_off(kDivision, 0, 60).end();
  std::string bytes = smf(kDivision, {track});
  bytes.insert(14, "XFIL" + testing::be(3, 4) + "abc");
  auto length = scan_song_length(bytes);
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->end_tick, 1U * kDivision);
}

TEST(SongLength, MissingEndOfTrackEndsAtTheLastEvent) {
  Track track;
  track.note_on(0, 0, 60, 100).note_off(3 * kDivision, 0, 60);
  auto length = scan_song_length(smf(kDivision, {track}));
  ASSERT_TRUE(length) << length.error().message;
  EXPECT_EQ(length->end_tick, 3U * kDivision);
}

struct BadInput {
  const char* name;
  std::string bytes;
  const char* message_part;
};

class SongLengthRejects : public ::testing::TestWithParam<BadInput> {};

TEST_P(SongLengthRejects, WithAClearMessage) {
  auto length = scan_song_length(GetParam().bytes);
  ASSERT_FALSE(length);
  EXPECT_NE(length.error().message.find(GetParam().message_part), std::string::npos)
      << length.error().message;
}

std::string header(std::uint32_t format, std::uint32_t tracks, std::uint32_t division) {
  return "MThd" + testing::be(6, 4) + testing::be(format, 2) + testing::be(tracks, 2) +
         testing::be(division, 2);
}

std::string track_of(const std::string& events) {
  return "MTrk" + testing::be(static_cast<std::uint32_t>(events.size()), 4) + events;
}

INSTANTIATE_TEST_SUITE_P(
    BadFiles, SongLengthRejects,
    ::testing::Values(
        BadInput{"Empty", "", "not a Standard MIDI File: no MThd"},
        BadInput{"Garbage", "hello, this is not MIDI at all", "no MThd"},
        BadInput{"ShortHeader", std::string("MThd\x00\x00", 6), "malformed MThd"},
        BadInput{"UnknownFormat", header(3, 1, 480), "unknown format 3"},
        BadInput{"Smpte", header(0, 1, 0xE728), "SMPTE"},
        BadInput{"ZeroDivision", header(0, 1, 0), "division of 0"},
        BadInput{"TooManyTracks", header(1, 129, 480), "at most 128 tracks"},
        BadInput{"MissingTrack", header(1, 2, 480) + track_of(std::string("\x00\xFF\x2F\x00", 4)),
                 "1 of 2 tracks"},
        BadInput{"TrackPastEnd", header(0, 1, 480) + "MTrk" + testing::be(100, 4) + "abc",
                 "0 of 1 tracks"},
        BadInput{"TruncatedNote", header(0, 1, 480) + track_of(std::string("\x00\x90\x3C", 3)),
                 "track 1: truncated channel message"},
        BadInput{"NoRunningStatus", header(0, 1, 480) + track_of(std::string("\x00\x3C\x40", 3)),
                 "without a running status"},
        BadInput{"LongDelta", header(0, 1, 480) + track_of("\x81\x81\x81\x81\x01"),
                 "bad delta time"},
        BadInput{"MetaPastEnd", header(0, 1, 480) + track_of(std::string("\x00\xFF\x01\x10x", 5)),
                 "truncated meta event"},
        BadInput{"SysExPastEnd", header(0, 1, 480) + track_of(std::string("\x00\xF0\x10\x01", 4)),
                 "truncated SysEx"},
        BadInput{"ZeroTempo",
                 header(0, 1, 480) + track_of(std::string("\x00\xFF\x51\x03\x00\x00\x00", 7)),
                 "tempo of 0"},
        BadInput{"DataByteIsStatus",
                 header(0, 1, 480) + track_of(std::string("\x00\x90\x3C\x90", 4)),
                 "status byte where a data byte"}),
    [](const ::testing::TestParamInfo<BadInput>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace fcp::midi::render

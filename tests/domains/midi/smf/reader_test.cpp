// The SMF reader on hand-assembled bytes: header, division, events, running status, chunks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domains/midi/smf/smf.hpp"
#include "smf_test_support.hpp"

namespace fcp::midi::smf {
namespace {

using testing::bytes;
using testing::chunk;
using ::testing::ElementsAre;
using testing::event;
using ::testing::HasSubstr;
using testing::header;
using testing::meta_event;
using testing::one_track;
using testing::read_error;
using testing::read_ok;

const std::string kEnd = bytes({0x00, 0xFF, 0x2F, 0x00});

TEST(ReaderTest, HeaderFields) {
  const File file = read_ok(header(1, 2, 960) + chunk("MTrk", kEnd) + chunk("MTrk", kEnd));
  EXPECT_EQ(file.format, 1);
  EXPECT_EQ(file.division, (Division{false, 960, 0, 0}));
  ASSERT_EQ(file.tracks.size(), 2u);
  EXPECT_TRUE(file.tracks[0].events.empty());
  EXPECT_EQ(file.tracks[0].end_tick, 0u);
  EXPECT_TRUE(file.extra_chunks.empty());
}

TEST(ReaderTest, LargestTicksPerQuarter) {
  EXPECT_EQ(read_ok(header(0, 0, 0x7FFF)).division.ticks_per_quarter, 32767);
}

TEST(ReaderTest, SmpteDivisions) {
  const std::pair<int, int> cases[] = {{0xE8, 24}, {0xE7, 25}, {0xE3, 29}, {0xE2, 30}};
  for (const auto& [byte, fps] : cases) {
    const File file = read_ok(header(0, 0, (byte << 8) | 80));
    EXPECT_EQ(file.division, (Division{true, 0, fps, 80})) << fps;
  }
  EXPECT_THAT(read_error(header(0, 0, 0xE600 | 4)),
              HasSubstr("invalid SMPTE time division: 26 frames per second"));
  EXPECT_THAT(read_error(header(0, 0, 0xE700)), HasSubstr("0 ticks per frame"));
}

TEST(ReaderTest, LongerHeaderIsAcceptedAndItsExtraBytesSkipped) {
  const std::string file = chunk("MThd", bytes({0, 0, 0, 1, 0, 96, 0xAA, 0xBB, 0xCC})) +
                           chunk("MTrk", bytes({0x00, 0x90, 60, 100}) + kEnd);
  const File parsed = read_ok(file);
  ASSERT_EQ(parsed.tracks.size(), 1u);
  EXPECT_THAT(parsed.tracks[0].events, ElementsAre(event(0, 0x90, {60, 100})));
}

TEST(ReaderTest, DeltaTimesAccumulateIntoAbsoluteTicks) {
  const File file = read_ok(one_track(bytes({0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0,  // 96
                                             0x81, 0x00, 0x90, 62, 100,               // +128
                                             0x83, 0x60, 0xFF, 0x2F, 0x00})));        // +480
  EXPECT_THAT(file.tracks[0].events,
              ElementsAre(event(0, 0x90, {60, 100}), event(96, 0x80, {60, 0}),
                          event(224, 0x90, {62, 100})));
  EXPECT_EQ(file.tracks[0].end_tick, 704u);
}

TEST(ReaderTest, EveryChannelMessageKindWithItsDataLength) {
  const File file = read_ok(
      one_track(bytes({0x00, 0x83, 1, 2,    0x00, 0x94, 3,    4,    0x00, 0xA5, 5,    6,  0x00,
                       0xB6, 7,    8, 0x00, 0xC7, 9,    0x00, 0xD8, 10,   0x00, 0xEF, 11, 12}) +
                kEnd));
  EXPECT_THAT(file.tracks[0].events,
              ElementsAre(event(0, 0x83, {1, 2}), event(0, 0x94, {3, 4}), event(0, 0xA5, {5, 6}),
                          event(0, 0xB6, {7, 8}), event(0, 0xC7, {9}), event(0, 0xD8, {10}),
                          event(0, 0xEF, {11, 12})));
}

TEST(ReaderTest, RunningStatusRepeatsTheLastChannelStatus) {
  const File file = read_ok(one_track(
      bytes({0x00, 0xC0, 5, 0x00, 7, 0x00, 0x90, 60, 100, 0x10, 64, 90, 0x10, 60, 0}) + kEnd));
  EXPECT_THAT(file.tracks[0].events,
              ElementsAre(event(0, 0xC0, {5}), event(0, 0xC0, {7}), event(0, 0x90, {60, 100}),
                          event(16, 0x90, {64, 90}), event(32, 0x90, {60, 0})));
}

TEST(ReaderTest, RunningStatusIsKeptAcrossMetaAndSysexEvents) {
  // SMF 1.0 says writers must not rely on this; the reader accepts it (documented in smf.hpp).
  const File file =
      read_ok(one_track(bytes({0x00, 0x90, 60,   100,  0x00, 0xFF, 0x01, 1,    'a', 0x00,
                               62,   100,  0x00, 0xF0, 2,    0x7D, 0xF7, 0x00, 64,  100}) +
                        kEnd));
  EXPECT_THAT(
      file.tracks[0].events,
      ElementsAre(event(0, 0x90, {60, 100}), meta_event(0, 0x01, "a"), event(0, 0x90, {62, 100}),
                  event(0, 0xF0, {0x7D, 0xF7}), event(0, 0x90, {64, 100})));
}

TEST(ReaderTest, RunningStatusDoesNotCrossTracks) {
  const std::string file = header(1, 2, 96) + chunk("MTrk", bytes({0x00, 0x90, 60, 100}) + kEnd) +
                           chunk("MTrk", bytes({0x00, 62, 100}) + kEnd);
  EXPECT_EQ(read_error(file),
            "track 2 at byte 39: running status without a previous status (data byte 0x3E where "
            "a status byte belongs)");
}

TEST(ReaderTest, SysexStartAndContinuationPacketsKeepTheirPayloads) {
  const File file = read_ok(one_track(
      bytes({0x00, 0xF0, 3, 0x43, 0x12, 0x00, 0x10, 0xF7, 2, 0x01, 0xF7, 0x00, 0xF7, 1, 0xF8}) +
      kEnd));
  EXPECT_THAT(file.tracks[0].events,
              ElementsAre(event(0, 0xF0, {0x43, 0x12, 0x00}), event(16, 0xF7, {0x01, 0xF7}),
                          event(16, 0xF7, {0xF8})));
}

TEST(ReaderTest, MetaEventsOfAnyTypeAndLength) {
  const std::string long_text(300, 'x');
  const File file = read_ok(one_track(
      bytes({0x00, 0xFF, 0x60, 0, 0x00, 0xFF, 0x7F, 2, 0, 0x41, 0x00, 0xFF, 0x01, 0x82, 0x2C}) +
      long_text + kEnd));
  EXPECT_THAT(file.tracks[0].events,
              ElementsAre(meta_event(0, 0x60, ""), meta_event(0, 0x7F, bytes({0, 0x41})),
                          meta_event(0, 0x01, long_text)));
}

TEST(ReaderTest, EndOfTrackEndsTheTrackAndIsNotAnEvent) {
  const File file = read_ok(one_track(bytes({0x00, 0x90, 60, 100, 0x83, 0x60, 0xFF, 0x2F, 0x00,
                                             0x00, 0x90, 61, 100})));  // after the end: ignored
  EXPECT_THAT(file.tracks[0].events, ElementsAre(event(0, 0x90, {60, 100})));
  EXPECT_EQ(file.tracks[0].end_tick, 480u);
}

TEST(ReaderTest, TrackWithoutEndOfTrackEndsAtItsLastEvent) {
  const File file = read_ok(one_track(bytes({0x00, 0x90, 60, 100, 0x60, 0x80, 60, 0})));
  EXPECT_EQ(file.tracks[0].events.size(), 2u);
  EXPECT_EQ(file.tracks[0].end_tick, 96u);
}

TEST(ReaderTest, UnknownChunksAreKeptInOrder) {
  const std::string file = header(1, 1, 96) + chunk("XFIH", "abc") + chunk("MTrk", kEnd) +
                           chunk("MThd", "??") + chunk("Junk", "");
  const File parsed = read_ok(file);
  EXPECT_EQ(parsed.tracks.size(), 1u);
  EXPECT_THAT(parsed.extra_chunks,
              ElementsAre(Chunk{"XFIH", "abc"}, Chunk{"MThd", "??"}, Chunk{"Junk", ""}));
}

TEST(ReaderTest, MoreTracksThanAnnouncedAreAllRead) {
  const File file = read_ok(header(1, 1, 96) + chunk("MTrk", kEnd) + chunk("MTrk", kEnd));
  EXPECT_EQ(file.tracks.size(), 2u);
}

TEST(ReaderTest, FewStrayBytesAfterTheLastChunkAreIgnored) {
  const File file = read_ok(header(0, 1, 96) + chunk("MTrk", kEnd) + bytes({0, 0, 0}));
  EXPECT_EQ(file.tracks.size(), 1u);
  EXPECT_THAT(read_error(header(0, 2, 96) + chunk("MTrk", kEnd) + bytes({0, 0, 0})),
              HasSubstr("the file ends inside a chunk header at byte 26 — truncated"));
}

TEST(ReaderTest, RiffRmidIsUnwrapped) {
  const std::string smf = header(0, 1, 96) + chunk("MTrk", bytes({0x00, 0x90, 60, 1}) + kEnd);
  const auto le32 = [](std::size_t n) {
    return bytes({static_cast<int>(n & 0xFF), static_cast<int>((n >> 8) & 0xFF), 0, 0});
  };
  const std::string info = "LIST" + le32(5) + "INFOx" + std::string(1, '\0');
  const std::string body = "RMID" + info + "data" + le32(smf.size()) + smf;
  const File file = read_ok("RIFF" + le32(body.size()) + body);
  ASSERT_EQ(file.tracks.size(), 1u);
  EXPECT_THAT(file.tracks[0].events, ElementsAre(event(0, 0x90, {60, 1})));
  // Errors inside the wrapped file count bytes from the start of the RIFF file.
  const std::string bad = header(0, 1, 96) + chunk("MTrk", bytes({0x00, 60, 1}) + kEnd);
  const std::string bad_body = "RMID" + std::string("data") + le32(bad.size()) + bad;
  EXPECT_THAT(read_error("RIFF" + le32(bad_body.size()) + bad_body),
              HasSubstr("track 1 at byte 43: running status without a previous status"));
}

TEST(ReaderTest, RiffOtherThanRmidIsRefused) {
  EXPECT_EQ(read_error("RIFF" + bytes({4, 0, 0, 0}) + "WAVE"),
            "not a MIDI file: a RIFF \"WAVE\" file, not RIFF \"RMID\"");
  EXPECT_THAT(read_error("RIFF" + bytes({4, 0, 0, 0}) + "RMID"),
              HasSubstr("RIFF RMID without a complete \"data\" chunk"));
}

TEST(ReaderTest, EventLimitCountsAllTracks) {
  const std::string track = chunk("MTrk", bytes({0x00, 0x90, 60, 1, 0x00, 61, 1}) + kEnd);
  const std::string file = header(1, 2, 96) + track + track;
  ReadLimits limits;
  limits.max_events = 4;
  EXPECT_TRUE(read_smf(file, limits).has_value());
  limits.max_events = 3;
  EXPECT_EQ(read_error(file, limits), "track 2 at byte 45: more events than the limit of 3");
}

TEST(ReaderTest, TrackAndByteLimits) {
  const std::string file = header(1, 2, 96) + chunk("MTrk", kEnd) + chunk("MTrk", kEnd);
  ReadLimits limits;
  limits.max_tracks = 1;
  EXPECT_EQ(read_error(file, limits), "the header announces 2 tracks, more than the limit of 1");
  EXPECT_EQ(read_error(header(1, 1, 96) + chunk("MTrk", kEnd) + chunk("MTrk", kEnd), limits),
            "track 2 at byte 26: more tracks than the limit of 1");
  limits = {};
  limits.max_bytes = file.size() - 1;
  EXPECT_EQ(read_error(file, limits), "the file is 38 bytes, more than the limit of 37");
}

}  // namespace
}  // namespace fcp::midi::smf

// The SMF writer's exact bytes: header, deltas, running status, end-of-track, chunks.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "domains/midi/smf/meta.hpp"
#include "domains/midi/smf/smf.hpp"
#include "smf_test_support.hpp"

namespace fcp::midi::smf {
namespace {

using testing::bytes;
using testing::chunk;
using testing::event;
using testing::header;
using testing::hex;
using testing::meta_event;
using testing::read_ok;

const std::string kEnd = bytes({0x00, 0xFF, 0x2F, 0x00});

File one_track_file(std::vector<Event> events, std::uint64_t end_tick = 0) {
  File file;
  file.format = 0;
  file.division.ticks_per_quarter = 96;
  file.tracks.push_back({std::move(events), end_tick});
  return file;
}

// The MTrk body the writer produces for one track.
std::string track_body(const File& file) {
  const std::string written = write_smf(file);
  return written.substr(14 + 8);
}

TEST(WriterTest, EmptyFileIsJustTheHeader) {
  File file;
  EXPECT_EQ(hex(write_smf(file)), "4d 54 68 64 00 00 00 06 00 01 00 00 01 e0");
}

TEST(WriterTest, HeaderWithSmpteDivision) {
  File file;
  file.format = 2;
  file.division = {true, 0, 29, 100};
  file.tracks.resize(2);
  const std::string written = write_smf(file);
  EXPECT_EQ(written.substr(0, 14), header(2, 2, 0xE364));
  EXPECT_EQ(written.substr(14), chunk("MTrk", kEnd) + chunk("MTrk", kEnd));
}

TEST(WriterTest, DeltasAreMinimalVariableLengthQuantities) {
  const std::pair<std::uint64_t, std::string> cases[] = {
      {0, bytes({0x00})},
      {0x7F, bytes({0x7F})},
      {0x80, bytes({0x81, 0x00})},
      {0x3FFF, bytes({0xFF, 0x7F})},
      {0x4000, bytes({0x81, 0x80, 0x00})},
      {0x1FFFFF, bytes({0xFF, 0xFF, 0x7F})},
      {0x200000, bytes({0x81, 0x80, 0x80, 0x00})},
      {0x0FFFFFFF, bytes({0xFF, 0xFF, 0xFF, 0x7F})},
  };
  for (const auto& [tick, vlq] : cases) {
    const File file = one_track_file({event(tick, 0xC0, {1})}, tick);
    std::string expected = vlq;
    expected += bytes({0xC0, 1});
    expected += kEnd;
    EXPECT_EQ(hex(track_body(file)), hex(expected)) << tick;
    EXPECT_EQ(read_ok(write_smf(file)), file);
  }
}

TEST(WriterTest, RunningStatusForRepeatedChannelStatus) {
  const File file = one_track_file({event(0, 0x90, {60, 100}), event(0, 0x90, {64, 100}),
                                    event(10, 0x80, {60, 0}), event(10, 0x80, {64, 0}),
                                    event(20, 0x91, {60, 1})});
  EXPECT_EQ(hex(track_body(file)), hex(bytes({0x00, 0x90, 60, 100, 0x00, 64, 100, 0x0A, 0x80, 60, 0,
                                              0x00, 64, 0, 0x0A, 0x91, 60, 1}) +
                                       kEnd));
}

TEST(WriterTest, MetaAndSysexCancelRunningStatus) {
  const File file = one_track_file({event(0, 0x90, {60, 100}), meta_event(0, 0x06, "A"),
                                    event(0, 0x90, {62, 100}), event(0, 0xF0, {0x7D, 0xF7}),
                                    event(0, 0x90, {64, 100}), event(0, 0xF7, {0xF8}),
                                    event(0, 0x90, {65, 100})});
  EXPECT_EQ(hex(track_body(file)),
            hex(bytes({0x00, 0x90, 60,   100,  0x00, 0xFF, 0x06, 1,    'A',  0x00,
                       0x90, 62,   100,  0x00, 0xF0, 2,    0x7D, 0xF7, 0x00, 0x90,
                       64,   100,  0x00, 0xF7, 1,    0xF8, 0x00, 0x90, 65,   100}) +
                kEnd));
}

TEST(WriterTest, EndOfTrackAtEndTickOrLastEvent) {
  EXPECT_EQ(hex(track_body(one_track_file({event(10, 0xC0, {1})}, 100))),
            hex(bytes({0x0A, 0xC0, 1, 0x5A, 0xFF, 0x2F, 0x00})));
  EXPECT_EQ(hex(track_body(one_track_file({event(10, 0xC0, {1})}, 5))),
            hex(bytes({0x0A, 0xC0, 1, 0x00, 0xFF, 0x2F, 0x00})));
  EXPECT_EQ(hex(track_body(one_track_file({}, 0x80))), hex(bytes({0x81, 0x00, 0xFF, 0x2F, 0})));
}

TEST(WriterTest, EndOfTrackInsideEventsOnlyMovesTheEnd) {
  const File file = one_track_file({meta_event(50, 0x2F, ""), event(10, 0xC0, {1})});
  EXPECT_EQ(hex(track_body(file)), hex(bytes({0x0A, 0xC0, 1, 0x28, 0xFF, 0x2F, 0x00})));
}

TEST(WriterTest, EventsOutOfOrderAreWrittenInStableTickOrder) {
  const File file = one_track_file(
      {event(20, 0xC0, {2}), event(10, 0xC0, {1}), event(20, 0xC0, {3}), event(10, 0xC1, {4})});
  const File reread = read_ok(write_smf(file));
  EXPECT_EQ(reread.tracks[0].events,
            (std::vector<Event>{event(10, 0xC0, {1}), event(10, 0xC1, {4}), event(20, 0xC0, {2}),
                                event(20, 0xC0, {3})}));
}

TEST(WriterTest, MalformedEventsNeverCorruptTheStream) {
  const File file = one_track_file({event(0, 0x90, {60}), event(0, 0xB0, {0x87, 0xFF, 5}),
                                    event(0, 0x40, {1}), event(0, 0xF8, {}), event(0, 0xC0, {})});
  EXPECT_EQ(hex(track_body(file)),
            hex(bytes({0x00, 0x90, 60, 0, 0x00, 0xB0, 0x07, 0x7F, 0x00, 0xC0, 0}) + kEnd));
}

TEST(WriterTest, GapsBeyondTheLargestDeltaAreBridged) {
  const std::uint64_t far = 0x0FFFFFFFull * 2 + 5;
  const File file = one_track_file({event(0, 0xC0, {1}), event(far, 0xC0, {2})});
  EXPECT_EQ(hex(track_body(file)),
            hex(bytes({0x00, 0xC0, 1,    0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00,
                       0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x01, 0x00, 0x05, 0xC0, 2}) +
                kEnd));
  const File reread = read_ok(write_smf(file));
  ASSERT_EQ(reread.tracks[0].events.size(), 4u);
  EXPECT_EQ(reread.tracks[0].events[3], event(far, 0xC0, {2}));
}

TEST(WriterTest, ExtraChunksFollowTheTracks) {
  File file = one_track_file({});
  file.extra_chunks = {{"XFIH", "abc"}, {"ab", ""}};
  EXPECT_EQ(write_smf(file).substr(14),
            chunk("MTrk", kEnd) + chunk("XFIH", "abc") + chunk("ab  ", ""));
}

TEST(WriterTest, TrackLengthCoversTheBody) {
  std::vector<Event> events;
  events.reserve(1000);
  for (int i = 0; i < 1000; ++i)
    events.push_back(make_text(meta::text, std::string(100, 'x')));
  const std::string written = write_smf(one_track_file(events));
  EXPECT_EQ(written.substr(14, 8), "MTrk" + testing::be32(1000 * 104 + 4));
  EXPECT_EQ(written.size(), 14u + 8 + 1000 * 104 + 4);
}

}  // namespace
}  // namespace fcp::midi::smf

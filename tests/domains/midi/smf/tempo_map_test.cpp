// TempoMap against hand computation: several tempo changes, merged tracks, SMPTE, inverses.
#include "domains/midi/smf/tempo_map.hpp"

#include <gtest/gtest.h>

#include "domains/midi/smf/meta.hpp"

namespace fcp::midi::smf {
namespace {

File file_with(std::vector<std::vector<Event>> tracks, int ppq = 480) {
  File file;
  file.division.ticks_per_quarter = ppq;
  for (auto& events : tracks)
    file.tracks.push_back(Track{std::move(events), 0});
  return file;
}

TEST(TempoMapTest, DefaultIs120Bpm) {
  const TempoMap tempo(file_with({{make_note_on(0, 60, 100, 0)}}));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(0), 0.0);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(480), 0.5);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(96000), 100.0);
  EXPECT_EQ(tempo.tick_at(0.5), 480u);
  EXPECT_EQ(tempo.us_per_quarter_at(123), 500000u);
  EXPECT_EQ(tempo.segments().size(), 1u);
}

// ppq 480: 120 BPM from 0, 240 BPM from 960, 60 BPM from 1920, 100 BPM from 2400.
File three_changes() {
  return file_with({{make_tempo(500000, 0), make_tempo(250000, 960), make_tempo(1000000, 1920),
                     make_tempo(600000, 2400)}});
}

TEST(TempoMapTest, SecondsAcrossSeveralTempoChanges) {
  const TempoMap tempo(three_changes());
  EXPECT_DOUBLE_EQ(tempo.seconds_at(480), 0.5);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(960), 1.0);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(1440), 1.25);  // 480 ticks at 0.25 s per quarter
  EXPECT_DOUBLE_EQ(tempo.seconds_at(1920), 1.5);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(2160), 2.0);  // half a quarter at 1 s per quarter
  EXPECT_DOUBLE_EQ(tempo.seconds_at(2400), 2.5);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(2400 + 4800), 2.5 + 6.0);  // 10 quarters at 0.6 s
  EXPECT_EQ(tempo.us_per_quarter_at(959), 500000u);
  EXPECT_EQ(tempo.us_per_quarter_at(960), 250000u);
  EXPECT_EQ(tempo.us_per_quarter_at(99999), 600000u);
}

TEST(TempoMapTest, TickAtInvertsSecondsAt) {
  const TempoMap tempo(three_changes());
  EXPECT_EQ(tempo.tick_at(1.25), 1440u);
  EXPECT_EQ(tempo.tick_at(2.0), 2160u);
  EXPECT_EQ(tempo.tick_at(8.5), 7200u);
  EXPECT_EQ(tempo.tick_at(-1.0), 0u);
  for (std::uint64_t tick = 0; tick < 20000; tick += 7) {
    ASSERT_EQ(tempo.tick_at(tempo.seconds_at(tick)), tick);
  }
}

TEST(TempoMapTest, ANoteAfterATempoChangeLandsAtTheRightSecond) {
  // Bar 3 (tick 3840 at 4/4) after a change to 174 BPM at bar 2 (tick 1920, 2 s at 120 BPM):
  // 1920 ticks = 4 quarters at 60/174 s each.
  const std::uint32_t us = us_from_bpm(174);
  ASSERT_EQ(us, 344828u);
  const TempoMap tempo(
      file_with({{make_tempo(500000, 0), make_tempo(us, 1920)}, {make_note_on(0, 60, 100, 3840)}}));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(3840), 2.0 + 4 * 0.344828);
  EXPECT_EQ(tempo.tick_at(2.0 + 4 * 0.344828), 3840u);
}

TEST(TempoMapTest, TemposFromAllTracksMergeInTickOrder) {
  const TempoMap tempo(
      file_with({{make_tempo(500000, 0), make_tempo(1000000, 1920)}, {make_tempo(250000, 960)}}));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(960), 1.0);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(1920), 1.5);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(2400), 2.5);
}

TEST(TempoMapTest, FirstTempoLaterThanZeroAndSameTickConflicts) {
  const TempoMap tempo(file_with({{make_tempo(1000000, 960)}, {make_tempo(250000, 960)}}));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(960), 1.0);    // 120 BPM before the first tempo
  EXPECT_DOUBLE_EQ(tempo.seconds_at(1440), 1.25);  // the later track wins at tick 960
  EXPECT_EQ(tempo.segments().size(), 2u);
}

TEST(TempoMapTest, MalformedTemposAreIgnored) {
  const TempoMap tempo(file_with(
      {{make_meta(meta::tempo, std::string("\x07\xA1", 2), 0),
        make_meta(meta::tempo, std::string(3, '\0'), 0), make_text(meta::text, "tempo 60", 0)}}));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(480), 0.5);
}

TEST(TempoMapTest, OtherPpq) {
  const TempoMap tempo(file_with({{make_tempo(750000, 0)}}, 96));
  EXPECT_DOUBLE_EQ(tempo.seconds_at(96), 0.75);
  EXPECT_DOUBLE_EQ(tempo.seconds_at(48), 0.375);
}

TEST(TempoMapTest, SmpteIsConstantTicksPerSecond) {
  File file = file_with({{make_tempo(250000, 0)}});
  file.division = Division{true, 0, 25, 40};
  EXPECT_DOUBLE_EQ(TempoMap(file).seconds_at(1500), 1.5);
  EXPECT_EQ(TempoMap(file).tick_at(2.25), 2250u);
  file.division = Division{true, 0, 29, 100};  // 30 drop-frame = 29.97 frames per second
  EXPECT_DOUBLE_EQ(TempoMap(file).seconds_at(2997), 2997.0 * 1001 / 3000000);
  file.division = Division{true, 0, 24, 2};
  EXPECT_DOUBLE_EQ(TempoMap(file).seconds_at(48), 1.0);
}

}  // namespace
}  // namespace fcp::midi::smf

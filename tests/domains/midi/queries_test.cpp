// midi queries (map, tracks, events, describe, stats, find, piano-roll, tracker, instruments) and
// the document's reports (status lines, help additions, structural warnings), on songs built
// directly through the Song API.
#include "domains/midi/queries.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/event_log.hpp"
#include "core/file_access.hpp"
#include "core/parsed_op.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/edit.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

// Queries read no files; every path is refused.
using testing::NoFiles;

constexpr Tick kBeat = 480;
constexpr Tick kBar = 4 * kBeat;

EntityId add_track(Song& song, const std::string& name, int channel,
                   std::optional<int> program = std::nullopt) {
  Track track;
  track.id = song.allocate_id();
  track.name = name;
  track.channel = channel;
  song.insert_track(song.tracks().size(), track);
  if (program) {
    Control control;
    control.id = song.allocate_id();
    control.track = track.id;
    control.channel = channel;
    control.kind = ControlKind::program;
    control.value = *program;
    song.controls().put(control);
  }
  return track.id;
}

Note add_note(Song& song, EntityId track, Tick tick, std::uint32_t duration, int pitch,
              int velocity) {
  Note note;
  note.id = song.allocate_id();
  note.track = track;
  note.tick = tick;
  note.duration = duration;
  note.pitch = pitch;
  note.velocity = velocity;
  note.channel = song.track(track)->channel;
  song.put_note(note);
  return note;
}

void add_control(Song& song, EntityId track, Tick tick, ControlKind kind, int number, int value) {
  Control control;
  control.id = song.allocate_id();
  control.track = track;
  control.tick = tick;
  control.channel = song.track(track)->channel;
  control.kind = kind;
  control.number = number;
  control.value = value;
  song.controls().put(control);
}

void add_raw(Song& song, EntityId track, Tick tick, std::uint8_t status, std::uint8_t meta_type,
             std::string data) {
  RawEvent raw;
  raw.id = song.allocate_id();
  raw.track = track;
  raw.tick = tick;
  raw.event.tick = tick;
  raw.event.status = status;
  raw.event.meta_type = meta_type;
  raw.event.data = std::move(data);
  song.raws().put(raw);
}

// "Demo": 140 BPM, 4/4, E minor. Piano (ch 1, program 0): C4 E4 G4, a CC and a bend at 1.2,
// SysEx, a lyric and an unknown meta. Bass (ch 2, program 33): E2 whole. Drums (ch 10): kick and
// hihat at 1.1, snare at 1.2 (eighths).
Song demo_song() {
  Song song;
  song.conductor().title = "Demo";
  song.conductor().tempos[0] = 140;
  song.conductor().keys[0] = {1, true};
  const EntityId piano = add_track(song, "Piano", 0, 0);
  const EntityId bass = add_track(song, "Bass", 1, 33);
  const EntityId drums = add_track(song, "Drums", 9);
  add_note(song, piano, 0, kBeat, 60, 80);
  add_control(song, piano, kBeat, ControlKind::cc, 7, 100);
  add_control(song, piano, kBeat, ControlKind::bend, 0, 4096);
  add_note(song, piano, kBeat, kBeat, 64, 90);
  add_note(song, piano, 2 * kBeat, 2 * kBeat, 67, 100);
  add_raw(song, piano, 0, 0xF0, 0, std::string("\x7E\x7F\x09\x01\xF7\x00", 6));
  add_raw(song, piano, kBeat, 0xFF, 0x05, "la");
  add_raw(song, piano, kBar, 0xFF, 0x7F, "abcd");
  add_note(song, bass, 0, kBar, 40, 70);
  add_note(song, drums, 0, kBeat / 2, 36, 110);
  add_note(song, drums, 0, kBeat / 2, 42, 70);
  add_note(song, drums, kBeat, kBeat / 2, 38, 100);
  return song;
}

class MidiQueriesTest : public ::testing::Test {
 protected:
  core::Result<std::string> ask(const MidiDocument& doc, std::string_view verb,
                                std::string_view args = "") {
    auto answer = doc.query(verb, args, ctx_);
    EXPECT_TRUE(answer.has_value()) << verb;
    if (!answer) return core::make_error("no answer");
    if (!*answer) return answer->error();
    return (*answer)->text;
  }
  std::string ok(const MidiDocument& doc, std::string_view verb, std::string_view args = "") {
    auto answer = ask(doc, verb, args);
    EXPECT_TRUE(answer.has_value())
        << verb << " " << args << ": " << (answer ? "" : answer.error().message);
    return answer ? *answer : std::string();
  }
  core::Error fails(const MidiDocument& doc, std::string_view verb, std::string_view args = "") {
    auto answer = ask(doc, verb, args);
    EXPECT_FALSE(answer.has_value()) << verb << " " << args;
    return answer ? core::Error() : answer.error();
  }

  core::EventLog log_;
  NoFiles paths_;
  core::EffectSink effects_;
  core::ProgressFn progress_;
  core::CallContext ctx_{log_, paths_, effects_, progress_};
  MidiDocument doc_{demo_song()};
};

// ---- map, tracks --------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, MapListsSongTracksAndDigest) {
  EXPECT_EQ(ok(doc_, "map"),
            "Song: Demo\n"
            "tempo:140 | 4/4 | E minor | ppqn:480\n"
            "Tracks (3):\n"
            "  1. Piano ch:1 acoustic-grand-piano (3 notes)\n"
            "  2. Bass ch:2 electric-bass-finger (1 note)\n"
            "  3. Drums ch:10 drums (3 notes)\n" +
                doc_.digest());
}

TEST_F(MidiQueriesTest, MapShowsConductorChangesMarkersAndFlags) {
  Song song = demo_song();
  auto& c = song.conductor();
  c.tempos[2 * kBar] = 174;
  ASSERT_TRUE(c.meter.set(3, 3, 4));
  c.keys[2 * kBar] = {-1, false};
  c.markers.emplace(2 * kBar, "DROP");
  c.markers.emplace(0, "Intro");
  Track piano = song.tracks()[0];
  piano.muted = true;
  piano.solo = true;
  song.replace_track(piano);
  MidiDocument doc(std::move(song));
  const std::string map = ok(doc, "map");
  EXPECT_NE(map.find("\nTempo changes: 174@3.1\n"), std::string::npos) << map;
  EXPECT_NE(map.find("\nMeter changes: 3/4@3.1\n"), std::string::npos) << map;
  EXPECT_NE(map.find("\nKey changes: F major@3.1\n"), std::string::npos) << map;
  EXPECT_NE(map.find("\nMarkers: Intro@1.1, DROP@3.1\n"), std::string::npos) << map;
  EXPECT_NE(map.find("  1. Piano ch:1 acoustic-grand-piano (3 notes) [M] [S]\n"), std::string::npos)
      << map;
}

// ---- the conductor's views ----------------------------------------------------------------------

// A song with `count` tempo changes, one per beat from 1.2 on (BPM 60, 61, …).
MidiDocument tempo_ramp(std::size_t count) {
  Song song = demo_song();
  for (std::size_t i = 1; i <= count; ++i)
    song.conductor().tempos[i * kBeat] = 60.0 + static_cast<double>(i - 1);
  return MidiDocument(std::move(song));
}

TEST_F(MidiQueriesTest, MapPointsAtTheViewThatListsEveryChange) {
  const std::string map = ok(tempo_ramp(30), "map");
  EXPECT_NE(map.find(", … 6 more (query: tempo)\n"), std::string::npos) << map;
}

TEST_F(MidiQueriesTest, TempoViewPagesWithTheQueryForTheNextPage) {
  const MidiDocument doc = tempo_ramp(1200);  // 1201 events with the one at 1.1
  const std::string first = ok(doc, "tempo");
  EXPECT_TRUE(first.starts_with("1201 tempo events:\n  1.1      140 BPM\n  1.2      60 BPM\n"))
      << first.substr(0, 200);
  // 500 rows; the 501st event is at tick 500 * 480, bar 126 beat 1.
  EXPECT_TRUE(first.ends_with("\n  125.4    558 BPM\n… 701 more; next page: tempo 126.1-301.1"))
      << first.substr(first.size() - 200);
  const std::string second = ok(doc, "tempo", "126.1-301.1");
  EXPECT_TRUE(second.starts_with("701 tempo events in 126.1-301.1:\n  126.1    559 BPM\n"))
      << second.substr(0, 200);
  const std::string third = ok(doc, "tempo", "251.1-301.1");
  EXPECT_TRUE(third.ends_with("\n  301.1    1259 BPM")) << third.substr(third.size() - 100);
  // A page that ends inside a range the query gave keeps that range's end.
  const std::string bars = ok(doc, "tempo", "2-300");
  EXPECT_TRUE(bars.ends_with("\n… 696 more; next page: tempo 127.1-300")) << bars.substr(0, 100);
}

TEST_F(MidiQueriesTest, APageNeverSplitsATick) {
  Song song = demo_song();
  for (Tick beat = 1; beat <= 496; ++beat)  // with tempo, meter and key at 1.1: 499 rows
    song.conductor().markers.emplace(beat * kBeat, "m");
  song.conductor().markers.emplace(497 * kBeat, "first");
  song.conductor().markers.emplace(497 * kBeat, "second");
  const std::string page = ok(MidiDocument(std::move(song)), "conductor");
  EXPECT_TRUE(
      page.ends_with("\n  125.1    marker \"m\"\n… 2 more; next page: conductor 125.2-125.2"))
      << page.substr(page.size() - 200);
}

TEST_F(MidiQueriesTest, ConductorViewSaysWhatHoldsWhereTheRangeStarts) {
  Song song = demo_song();
  auto& c = song.conductor();
  c.tempos[2 * kBar + kBeat] = 174;
  ASSERT_TRUE(c.meter.set(3, 3, 4));
  c.markers.emplace(2 * kBar, "DROP");
  MidiDocument doc(std::move(song));
  EXPECT_EQ(ok(doc, "conductor"),
            "6 conductor events:\n"
            "  1.1      tempo  140 BPM\n"
            "  1.1      meter  4/4\n"
            "  1.1      key    E minor\n"
            "  3.1      meter  3/4\n"
            "  3.1      marker \"DROP\"\n"
            "  3.2      tempo  174 BPM");
  EXPECT_EQ(ok(doc, "conductor", "3-3"),
            "3 conductor events in 3-3 (in force at 3.1: 140 BPM from 1.1, E minor from 1.1):\n"
            "  3.1      meter  3/4\n"
            "  3.1      marker \"DROP\"\n"
            "  3.2      tempo  174 BPM");
  EXPECT_EQ(ok(doc, "key", "2.1-2.4"),
            "0 key signatures in 2.1-2.4 (in force at 2.1: E minor from 1.1)");
  EXPECT_EQ(ok(doc, "meter", "@range:2.1-3.1"),
            "1 time signature in 2.1-3.1 (in force at 2.1: 4/4 from 1.1):\n  3.1      3/4");
  // The conductor is no track: `events` answers with its view.
  EXPECT_EQ(ok(doc, "events", "markers"), "1 marker:\n  3.1      \"DROP\"");
  const core::Error two = fails(doc, "tempo", "1-2 3-4");
  EXPECT_EQ(two.message, "tempo takes one range: tempo [M.B-M.B] or bars 5-8");
  EXPECT_EQ(two.hints, std::vector<std::string>{"tempo 1-2"});
  EXPECT_EQ(fails(doc, "tempo", "4-2").hints, std::vector<std::string>{"tempo 1-4"});
}

TEST_F(MidiQueriesTest, TracksShowCountsBankProgramChangesAndFlags) {
  EXPECT_EQ(ok(doc_, "tracks"),
            "Tracks (3):\n"
            "  1. Piano (ch:1) acoustic-grand-piano | 3 notes, 1 cc, 1 bend, 3 other events\n"
            "  2. Bass (ch:2) electric-bass-finger | 1 note, 0 cc, 0 bends\n"
            "  3. Drums (ch:10) drums | 3 notes, 0 cc, 0 bends");
  Song song = demo_song();
  const EntityId bass = song.tracks()[1].id;
  add_control(song, bass, 0, ControlKind::cc, 0, 1);
  add_control(song, bass, 0, ControlKind::cc, 32, 2);
  add_control(song, bass, 4 * kBar, ControlKind::program, 0, 34);
  Track track = song.tracks()[1];
  track.muted = true;
  song.replace_track(track);
  MidiDocument doc(std::move(song));
  EXPECT_NE(ok(doc, "tracks")
                .find("  2. Bass (ch:2) electric-bass-finger bank:1.2 | 1 note, 2 cc, 0 bends, "
                      "1 program change [MUTED]"),
            std::string::npos);
}

// ---- events -------------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, EventsAreMergedInTimeOrder) {
  EXPECT_EQ(ok(doc_, "events", "Piano"),
            "Events on Piano:\n"
            "  1.1      Program acoustic-grand-piano (0)\n"
            "  1.1      C4   vel:80 dur:quarter\n"
            "  1.1      SysEx 6 bytes\n"
            "  1.2      CC volume=100\n"
            "  1.2      Bend=4096\n"
            "  1.2      E4   vel:90 dur:quarter\n"
            "  1.2      Lyric \"la\"\n"
            "  1.3      G4   vel:100 dur:half\n"
            "  2.1      Meta 0x7F 4 bytes");
}

TEST_F(MidiQueriesTest, EventsRangeIncludesTheEndBeat) {
  EXPECT_EQ(ok(doc_, "events", "piano 1.2-1.2"),
            "Events on Piano in 1.2-1.2:\n"
            "  1.2      CC volume=100\n"
            "  1.2      Bend=4096\n"
            "  1.2      E4   vel:90 dur:quarter\n"
            "  1.2      Lyric \"la\"");
}

TEST_F(MidiQueriesTest, EventsStarPrintsOneSectionPerTrack) {
  const std::string all = ok(doc_, "events", "* 1.1-1.1");
  EXPECT_EQ(all,
            "Events on 3 tracks in 1.1-1.1:\n"
            "--- Piano ---\n"
            "  1.1      Program acoustic-grand-piano (0)\n"
            "  1.1      C4   vel:80 dur:quarter\n"
            "  1.1      SysEx 6 bytes\n"
            "--- Bass ---\n"
            "  1.1      Program electric-bass-finger (33)\n"
            "  1.1      E2   vel:70 dur:whole\n"
            "--- Drums ---\n"
            "  1.1      kick vel:110 dur:eighth\n"
            "  1.1      closed-hat vel:70 dur:eighth");
  EXPECT_EQ(ok(doc_, "events", "all 1.1-1.1"), all);
}

TEST_F(MidiQueriesTest, EventsShowForeignChannelsAndEscapeText) {
  Song song = demo_song();
  const EntityId piano = song.tracks()[0].id;
  Note note = add_note(song, piano, 3 * kBar, kBeat, 72, 50);
  note.channel = 4;
  song.put_note(note);
  add_raw(song, piano, 3 * kBar, 0xFF, 0x01, std::string("a\"b\x01\xC3\xA9\xFF", 7));
  MidiDocument doc(std::move(song));
  EXPECT_EQ(ok(doc, "events", "Piano 4.1-4.1"),
            "Events on Piano in 4.1-4.1:\n"
            "  4.1      C5   vel:50 dur:quarter ch:5\n"
            "  4.1      Text \"a\\\"b\\x01é\\xFF\"");
}

TEST_F(MidiQueriesTest, EventsAreCappedWithACount) {
  Song song;
  const EntityId piano = add_track(song, "Piano", 0, 0);
  for (Tick i = 0; i < 2000; ++i)
    add_note(song, piano, i * kBeat, kBeat, 60, 80);
  MidiDocument doc(std::move(song));
  const std::string text = ok(doc, "events", "Piano");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 501);
  EXPECT_TRUE(text.ends_with("\n… 1501 more events (narrow the range: events Piano 1.1-4.4)"))
      << text.substr(text.size() - 100);
}

TEST_F(MidiQueriesTest, EventsErrorsCarryPasteableHints) {
  core::Error error = fails(doc_, "events", "Pinao 1.1-2.1");
  EXPECT_EQ(error.message, "unknown track \"Pinao\" (tracks: Bass, Drums, Piano)");
  ASSERT_FALSE(error.hints.empty());
  EXPECT_EQ(error.hints.front(), "events Piano 1.1-2.1");
  error = fails(doc_, "events");
  EXPECT_EQ(error.message, "missing track name: events TRACK");
  EXPECT_EQ(error.hints, std::vector<std::string>{"events Piano"});
  error = fails(doc_, "events", "Piano 0.1");
  EXPECT_EQ(error.hints, std::vector<std::string>{"events Piano 1-4"});
  const std::string beat = ok(doc_, "events", "Piano 1.2");  // one position: that beat
  EXPECT_EQ(beat.substr(beat.find('\n')),
            ok(doc_, "events", "Piano 1.2-1.2").substr(beat.find('\n') + 4));
  error = fails(doc_, "events", "Piano 2.1-1.1");
  EXPECT_NE(error.message.find("ends before it starts"), std::string::npos);
}

TEST_F(MidiQueriesTest, AmbiguousTrackListsTheCandidates) {
  Song song;
  add_track(song, "Lead A", 0, 80);
  add_track(song, "Lead B", 1, 81);
  MidiDocument doc(std::move(song));
  const core::Error error = fails(doc, "describe", "lead");
  EXPECT_EQ(error.message, "\"lead\" matches 2 tracks: Lead A, Lead B");
  EXPECT_EQ(error.hints, (std::vector<std::string>{"describe \"Lead A\"", "describe \"Lead B\""}));
  EXPECT_NE(ok(doc, "describe", "\"lead b\"").find("Track: Lead B\n"), std::string::npos);
}

// ---- describe, stats ----------------------------------------------------------------------------

TEST_F(MidiQueriesTest, DescribeGivesOneFieldPerLine) {
  EXPECT_EQ(ok(doc_, "describe", "Piano"),
            "Track: Piano\n"
            "Channel: 1\n"
            "Instrument: acoustic-grand-piano (program:0)\n"
            "Bank: none\n"
            "Notes: 3\n"
            "CCs: 1\n"
            "Pitch bends: 1\n"
            "Other events: 3\n"
            "Muted: no\n"
            "Solo: no\n"
            "Pitch range: C4 - G4\n"
            "Velocity range: 80-100\n"
            "Time span: 1.1 - 2.1");
  const std::string drums = ok(doc_, "describe", "Drums");
  EXPECT_NE(drums.find("Channel: 10 (drums)\nInstrument: drums\n"), std::string::npos) << drums;
  EXPECT_NE(drums.find("Pitch range: kick - closed-hat\n"), std::string::npos);
}

TEST_F(MidiQueriesTest, DescribeEmptyTrack) {
  Song song;
  add_track(song, "Empty", 2);
  MidiDocument doc(std::move(song));
  EXPECT_EQ(ok(doc, "describe", "Empty"),
            "Track: Empty\nChannel: 3\nInstrument: no program\nBank: none\nNotes: 0\nCCs: 0\n"
            "Pitch bends: 0\nMuted: no\nSolo: no\nPitch range: none\nVelocity range: none\n"
            "Time span: none");
  EXPECT_EQ(fails(doc, "describe").hints, std::vector<std::string>{"describe Empty"});
}

TEST_F(MidiQueriesTest, StatsCountEverything) {
  EXPECT_EQ(ok(doc_, "stats"),
            "Song: Demo\n"
            "Tempo: 140 BPM\n"
            "Time sig: 4/4\n"
            "Key: E minor\n"
            "PPQN: 480\n"
            "Tracks: 3\n"
            "Notes: 7\n"
            "CCs: 1\n"
            "Pitch bends: 1\n"
            "Programs and aftertouch: 2\n"
            "Other events: 3\n"
            "Total events: 14\n"
            "Duration: 0:01.71\n"
            "Measures: 1");
}

TEST_F(MidiQueriesTest, StatsDurationFollowsTheWholeTempoMap) {
  Song song;
  song.conductor().tempos[0] = 120;
  song.conductor().tempos[kBar] = 60;
  song.conductor().tempos[2 * kBar] = 240;
  const EntityId piano = add_track(song, "Piano", 0, 0);
  add_note(song, piano, 0, 3 * kBar, 60, 80);
  MidiDocument doc(std::move(song));
  const std::string stats = ok(doc, "stats");
  // 2 s at 120, 4 s at 60, 1 s at 240.
  EXPECT_NE(stats.find("\nTempo: 120 BPM (2 changes)\n"), std::string::npos) << stats;
  EXPECT_NE(stats.find("\nDuration: 0:07.00\n"), std::string::npos) << stats;
  EXPECT_TRUE(stats.ends_with("\nMeasures: 3"));
}

// ---- find ---------------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, FindByPitchDrumNameAndPitchClass) {
  EXPECT_EQ(ok(doc_, "find", "C4"), "Found 1 note(s) matching C4:\n  1.1  Piano  vel:80");
  EXPECT_EQ(ok(doc_, "find", "midi:64"), "Found 1 note(s) matching midi:64:\n  1.2  Piano  vel:90");
  EXPECT_EQ(ok(doc_, "find", "kick"), "Found 1 note(s) matching kick:\n  1.1  Drums  vel:110");
  EXPECT_EQ(ok(doc_, "find", "E"),
            "Found 2 note(s) matching E (any octave):\n"
            "  1.1  Bass  E2  vel:70\n"
            "  1.2  Piano  E4  vel:90");
  EXPECT_EQ(ok(doc_, "find", "C7"), "Found 0 note(s) matching C7:");
  EXPECT_EQ(fails(doc_, "find").hints, std::vector<std::string>{"find C4"});
  EXPECT_NE(fails(doc_, "find", "H4").message.find("unknown pitch \"H4\""), std::string::npos);
}

// ---- piano-roll ---------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, PianoRollDrawsSixteenthColumns) {
  // Bar 1 (1-1 is 1.1-1.4: the end beat is included, as everywhere).
  EXPECT_EQ(ok(doc_, "piano-roll", "Piano 1-1"),
            "Piano roll: Piano (1.1 - 1.4, 1 column = 16th)\n"
            "G#4  |................|\n"
            "G4   |........########|\n"
            "F#4  |................|\n"
            "F4   |................|\n"
            "E4   |....####........|\n"
            "D#4  |................|\n"
            "D4   |................|\n"
            "C#4  |................|\n"
            "C4   |####............|\n"
            "B3   |................|");
}

TEST_F(MidiQueriesTest, PianoRollWidensColumnsAndCapsAt64) {
  const std::string eighths = ok(doc_, "piano-roll", "Bass 1-8");
  EXPECT_TRUE(eighths.starts_with("Piano roll: Bass (1.1 - 8.4, 1 column = 8th)\nF2   |"));
  EXPECT_NE(eighths.find("E2   |########" + std::string(56, '.') + "|"), std::string::npos)
      << eighths;
  const std::string beats = ok(doc_, "piano-roll", "Bass 1-33");
  EXPECT_NE(beats.find("(1.1 - 33.4, 1 column = quarter, first 64 columns)"), std::string::npos)
      << beats;
  EXPECT_NE(beats.find("E2   |####" + std::string(60, '.') + "|"), std::string::npos);
}

TEST_F(MidiQueriesTest, PianoRollErrorsAndEmptyRange) {
  EXPECT_EQ(fails(doc_, "piano-roll", "Piano").hints,
            std::vector<std::string>{"piano-roll Piano 1-4"});
  EXPECT_EQ(ok(doc_, "piano-roll", "Piano 5.1-6.1"),
            "Piano roll: Piano (5.1 - 6.1, 1 column = 16th)\n  (no notes in range)");
}

// ---- tracker ------------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, TrackerSingleTrackAutoDetectsResolution) {
  EXPECT_EQ(ok(doc_, "tracker", "Piano 1.1-2.1"),
            "[Resolution: quarter]\n"
            "[Track: Piano (acoustic-grand-piano) | Range: 1.1-2.1]\n"
            "Step 01: [C4_v80_1]\n"
            "Step 02: [E4_v90_1]\n"
            "Step 03: [G4_v100_2]");
  EXPECT_EQ(ok(doc_, "tracker", "Piano 1.1-2.1 res:16th"),
            "[Resolution: 16th]\n"
            "[Track: Piano (acoustic-grand-piano) | Range: 1.1-2.1]\n"
            "Step 01: [C4_v80_4]\n"
            "Step 05: [E4_v90_4]\n"
            "Step 09: [G4_v100_8]");
  EXPECT_EQ(ok(doc_, "tracker", "Drums 1.1-2.1"),
            "[Resolution: 8th]\n"
            "[Track: Drums (drums) | Range: 1.1-2.1]\n"
            "Step 01: [kick_v110_1], [closed-hat_v70_1]\n"
            "Step 03: [snare_v100_1]");
}

// The view is the import format: pasting its step lines back reproduces the notes.
TEST_F(MidiQueriesTest, TrackerViewRoundTripsThroughTheImportBlock) {
  Song song = demo_song();
  const EntityId copy = add_track(song, "Copy", 0, 0);
  (void)copy;
  MidiDocument doc(std::move(song));
  const std::string view = ok(doc, "tracker", "Piano 1.1-2.1");
  const auto run = [&](std::string_view text) {
    auto op = core::parse_op(text);
    ASSERT_TRUE(op.has_value()) << text;
    auto done = doc.execute(*op, ctx_);
    ASSERT_TRUE(done.has_value()) << text << ": " << done.error().message;
  };
  run("tracker Copy import at:1.1 res:quarter");
  std::size_t from = view.find("\nStep ");
  while (from != std::string::npos) {
    const std::size_t end = view.find('\n', from + 1);
    run(view.substr(from + 1, end == std::string::npos ? std::string::npos : end - from - 1));
    from = end;
  }
  run("tracker end");
  std::string expected = view;
  expected.replace(expected.find("Piano ("), 5, "Copy");
  EXPECT_EQ(ok(doc, "tracker", "Copy 1.1-2.1"), expected);
}

TEST_F(MidiQueriesTest, TrackerNotesBeforeTheRangeAreOmitted) {
  EXPECT_EQ(ok(doc_, "tracker", "Piano 1.2-2.1 res:8n"),
            "[Resolution: 8th]\n"
            "[Track: Piano (acoustic-grand-piano) | Range: 1.2-2.1]\n"
            "Step 01: [E4_v90_2]\n"
            "Step 03: [G4_v100_4]");
  EXPECT_EQ(fails(doc_, "tracker", "Piano 1.2-2.1 res:5th").hints,
            std::vector<std::string>{"tracker Piano 1.2-2.1 res:16th"});
}

// A note humanized a few ticks before a step is shown on that step, in the range that holds the
// step; one just before the range's end goes to the next range, never to both.
TEST_F(MidiQueriesTest, TrackerShowsANoteOnTheStepItStartsNear) {
  Song song = demo_song();
  const EntityId piano = song.tracks().front().id;
  add_note(song, piano, kBar - 6, kBeat, 72, 64);  // C5 six ticks before 2.1
  MidiDocument doc(std::move(song));
  const std::string at_two = ok(doc, "tracker", "Piano 2.1-2.4");
  EXPECT_NE(at_two.find("Step 01: [C5_v64_4]"), std::string::npos) << at_two;
  const std::string bar_one = ok(doc, "tracker", "Piano 1.1-1.4 res:16th");
  EXPECT_EQ(bar_one.find("C5"), std::string::npos) << bar_one;
  const std::string both = ok(doc, "tracker", "Piano 1.1-2.1 res:16th");
  EXPECT_NE(both.find("Step 17: [C5_v64_4]"), std::string::npos) << both;
  const std::string all = ok(doc, "tracker", "* 2.1-2.4");
  EXPECT_NE(all.find("Step 01: Piano[C5_v64_4]"), std::string::npos) << all;
}

// Every view names a drum note the same way, and every name it shows is accepted back.
TEST_F(MidiQueriesTest, EveryViewShowsTheSameDrumNames) {
  const std::vector<std::string> views{ok(doc_, "events", "Drums 1.1-2.1"),
                                       ok(doc_, "tracker", "Drums 1.1-2.1"),
                                       ok(doc_, "tracker", "Piano,Drums 1.1-2.1"),
                                       ok(doc_, "piano-roll", "Drums 1.1-1.4"),
                                       ok(doc_, "describe", "Drums"),
                                       ok(doc_, "find", "@track:Drums")};
  for (const auto& view : views) {
    for (std::string_view name : {"kick", "closed-hat"})
      EXPECT_NE(view.find(name), std::string::npos) << name << " in\n" << view;
    for (std::string_view other : {"bass-drum-1", "closed-hi-hat", "hihat", "C2", "F#2"})
      EXPECT_EQ(view.find(other), std::string::npos) << other << " in\n" << view;
  }
  const std::string listed = ok(doc_, "drums");
  EXPECT_NE(listed.find("  36 kick (also bass-drum-1, bass-drum, bd)"), std::string::npos)
      << listed;
  EXPECT_NE(listed.find("  42 closed-hat (also closed-hi-hat,"), std::string::npos) << listed;
  EXPECT_NE(ok(doc_, "drums", "tom").find("  45 low-tom (also tom-low)"), std::string::npos);
}

TEST_F(MidiQueriesTest, TrackerMultiTrackUsesDrumNames) {
  EXPECT_EQ(ok(doc_, "tracker", "Piano,Drums,Bass 1.1-2.1"),
            "[Resolution: 8th]\n"
            "[Tracks: Piano, Drums, Bass | Range: 1.1-2.1]\n"
            "Step 01: Piano[C4_v80_2] Drums[kick_v110_1, closed-hat_v70_1] Bass[E2_v70_8]\n"
            "Step 03: Piano[E4_v90_2] Drums[snare_v100_1]\n"
            "Step 05: Piano[G4_v100_4]");
  const std::string partial = ok(doc_, "tracker", "Piano,Drumz 1.1-2.1");
  EXPECT_TRUE(partial.ends_with("\n? Tracks not found: Drumz (did you mean Drums?)")) << partial;
  const core::Error error = fails(doc_, "tracker", "Pinao,Nope 1.1-2.1");
  EXPECT_TRUE(error.message.starts_with("unknown track \"Pinao\" (tracks: ")) << error.message;
}

TEST_F(MidiQueriesTest, TrackerMultiTrackCapsAtFourTracks) {
  Song song = demo_song();
  for (int i = 0; i < 3; ++i) {
    const EntityId id = add_track(song, "Extra" + std::to_string(i), 3 + i, 48);
    add_note(song, id, 0, kBeat, 72 + i, 64);
  }
  MidiDocument doc(std::move(song));
  const std::string view = ok(doc, "tracker", "* 1.1-2.1");
  EXPECT_TRUE(view.starts_with("[Resolution: 8th]\n[Tracks: Piano, Bass, Drums, Extra0 | "))
      << view;
  EXPECT_EQ(view.find("Extra1"), std::string::npos);
  EXPECT_TRUE(view.ends_with("\n(+2 more tracks omitted)")) << view;
  EXPECT_NE(view.find("Extra0[C5_v64_2]"), std::string::npos);
}

TEST_F(MidiQueriesTest, TrackerUsage) {
  const core::Error error = fails(doc_, "tracker", "Piano");
  EXPECT_EQ(error.hints, std::vector<std::string>{"tracker Piano 1-4"});
}

// ---- instruments --------------------------------------------------------------------------------

TEST_F(MidiQueriesTest, InstrumentsFilterBySubstringFamilyAndSource) {
  const std::string bass = ok(doc_, "instruments", "bass");
  EXPECT_TRUE(bass.starts_with("Instruments (11):\n  acoustic-bass  program:32\n")) << bass;
  EXPECT_NE(bass.find("\n  contrabass  program:43\n"), std::string::npos);
  EXPECT_TRUE(ok(doc_, "instruments").starts_with("Instruments (128):\n"));
  EXPECT_EQ(fails(doc_, "instruments", "source:soundfont").message, "no SoundFont loaded");
  EXPECT_EQ(fails(doc_, "instruments", "source:mp3").hints.size(), 2u);
  const core::Error unknown = fails(doc_, "instruments", "vioiln");
  EXPECT_EQ(unknown.message, "no instrument matches \"vioiln\"");
  EXPECT_NE(std::find(unknown.hints.begin(), unknown.hints.end(), "instruments violin"),
            unknown.hints.end());
}

TEST_F(MidiQueriesTest, InstrumentsIncludeSoundFontPresets) {
  MidiDocument doc(demo_song());
  doc.set_soundfont("/sf/test.sf2", {{0, 0, "Grand Piano"}, {128, 0, "Standard"}});
  EXPECT_EQ(ok(doc, "instruments", "source:soundfont"),
            "Instruments (2):\n"
            "  Grand Piano  program:0 [soundfont] bank:0.0\n"
            "  Standard  program:0 [soundfont] bank:128.0");
  const std::string piano = ok(doc, "instruments", "piano");
  EXPECT_TRUE(piano.starts_with("Instruments (9):\n")) << piano;
  EXPECT_TRUE(piano.ends_with("\n  Grand Piano  program:0 [soundfont] bank:0.0"));
  EXPECT_TRUE(ok(doc, "instruments", "piano source:gm").starts_with("Instruments (8):\n"));
}

// ---- dispatch and specs -------------------------------------------------------------------------

TEST_F(MidiQueriesTest, EngineQueriesAndUnknownWordsAreNotAnswered) {
  for (std::string_view word : {"status", "history", "diff", "bogus"})
    EXPECT_FALSE(doc_.query(word, "", ctx_).has_value()) << word;
  const auto specs = query_specs();
  std::vector<std::string> names;
  for (const auto& spec : specs) {
    names.push_back(spec.name);
    EXPECT_FALSE(spec.description.empty());
    EXPECT_TRUE(spec.syntax().starts_with(spec.name)) << spec.syntax();
    EXPECT_TRUE(doc_.query(spec.name, "", ctx_).has_value()) << spec.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"map", "conductor", "tempo", "meter", "key", "markers",
                                             "tracks", "events", "describe", "stats", "find",
                                             "piano-roll", "tracker", "instruments", "drums"}));
  EXPECT_FALSE(ask(doc_, "events", "\"Piano").has_value());  // unterminated quote
}

// How fast they are is measured by bench_midi (BM_MidiQueries), not here.
TEST_F(MidiQueriesTest, LargeSongQueriesAnswer) {
  Song song;
  const EntityId piano = add_track(song, "Piano", 0, 0);
  for (Tick i = 0; i < 100000; ++i)
    add_note(song, piano, i * (kBeat / 4), kBeat / 4, 48 + static_cast<int>(i % 24), 80);
  MidiDocument doc(std::move(song));
  for (std::string_view q : {"map", "tracks", "stats"})
    ok(doc, q);
  ok(doc, "events", "Piano");
  const std::string found = ok(doc, "find", "C4");  // pitch 60 is every 24th note from the 13th
  EXPECT_NE(found.find("Found 4167 note(s)"), std::string::npos) << found.substr(0, 200);
  ok(doc, "piano-roll", "Piano 100.1-104.1");
  ok(doc, "tracker", "Piano 100.1-104.1");
  ok(doc, "describe", "Piano");
}

// ---- status, help, warnings ---------------------------------------------------------------------

TEST_F(MidiQueriesTest, StatusLines) {
  EXPECT_EQ(doc_.status_lines(),
            (std::vector<std::string>{
                "song: \"Demo\" | tempo:140 | 4/4 | E minor | ppqn:480",
                "tracks (3): Piano (ch:1, 3 notes), Bass (ch:2, 1 note), Drums (ch:10, 3 notes)",
                "soundfont: the default GM SoundFont when exporting (none loaded; load-soundfont "
                "PATH for another)"}));
  // After an export the line names the SoundFont it rendered with, never "none".
  doc_.set_last_render("song.wav", "/usr/share/sounds/sf2/default-GM.sf2");
  EXPECT_EQ(doc_.status_lines()[2],
            "soundfont: /usr/share/sounds/sf2/default-GM.sf2 (the default GM SoundFont, which the "
            "last render, song.wav, used; load-soundfont PATH for another)");
  MidiDocument doc(Song{});
  doc.set_soundfont("/sf/a.sf2", {{0, 0, "One"}});
  EXPECT_EQ(doc.status_lines()[1], "tracks (0): none");
  EXPECT_EQ(doc.status_lines()[2],
            "soundfont: /sf/a.sf2 (1 preset, loaded; export renders with it)");
}

TEST_F(MidiQueriesTest, HelpAdditionsListTracksAndPresets) {
  EXPECT_EQ(MidiDocument(Song{}).help_additions(), "");
  EXPECT_EQ(doc_.help_additions(),
            "### RUNTIME\n"
            "Tracks (3):\n"
            "  Piano  ch:1  acoustic-grand-piano\n"
            "  Bass  ch:2  electric-bass-finger\n"
            "  Drums  ch:10  drums (drum names: kick snare closed-hat crash …)");
  MidiDocument doc(Song{});
  std::vector<MidiDocument::Preset> presets;
  presets.reserve(45);
  for (int i = 0; i < 45; ++i)
    presets.push_back({i / 10, i % 10, "Preset " + std::to_string(i)});
  doc.set_soundfont("/sf/big.sf2", std::move(presets));
  const std::string help = doc.help_additions();
  EXPECT_TRUE(
      help.starts_with("### RUNTIME\nSoundFont presets (45, from /sf/big.sf2):\n"
                       "  Preset 0  bank:0 program:0\n"))
      << help;
  EXPECT_NE(help.find("  Preset 39  bank:3 program:9\n"), std::string::npos);
  EXPECT_EQ(help.find("Preset 40"), std::string::npos);
  EXPECT_TRUE(help.ends_with("\n  … and 5 more (midi_query 'instruments source:soundfont')"));
}

// A batch of one SongEdit that (re)wrote the given notes.
std::vector<core::EventPtr> batch_touching(const std::vector<Note>& notes) {
  std::vector<SongChange> changes;
  changes.reserve(notes.size());
  for (const auto& note : notes)
    changes.emplace_back(EntityChange<Note>{note.id, std::nullopt, note});
  return {std::make_shared<SongEdit>("test", std::move(changes))};
}

TEST_F(MidiQueriesTest, WarningsForGapsRangeAndOverlaps) {
  Song song;
  const EntityId strings = add_track(song, "Strings", 0, 48);
  const EntityId bass = add_track(song, "Bass", 1, 33);
  const EntityId piano = add_track(song, "Piano", 2, 0);
  const Note s1 = add_note(song, strings, 0, kBar, 60, 80);
  add_note(song, strings, 5 * kBar, kBar, 60, 80);        // bars 2-5 empty
  add_note(song, strings, 7 * kBar + kBeat, 10, 60, 80);  // bar 7 partly filled: no gap
  const Note b1 = add_note(song, bass, 0, kBeat, 20, 80);
  add_note(song, bass, kBeat, kBeat, 80, 80);
  add_note(song, bass, 2 * kBeat, kBeat, 90, 80);
  add_note(song, bass, 3 * kBeat, kBeat, 40, 80);
  const Note p1 = add_note(song, piano, kBar, 2 * kBeat, 60, 80);
  add_note(song, piano, kBar, kBeat, 60, 90);
  add_note(song, piano, kBar + kBeat, kBeat, 62, 90);  // different pitch: fine
  MidiDocument doc(std::move(song));
  EXPECT_EQ(doc.warnings(batch_touching({s1, b1, p1}), core::Applied::forward),
            (std::vector<std::string>{"Strings: empty at measures 2-5",
                                      "Bass: 3 notes outside the instrument's range (E1..G4)",
                                      "Piano: overlapping identical notes at 2.1 (C4)"}));
  EXPECT_EQ(doc.warnings(batch_touching({p1}), core::Applied::forward),
            std::vector<std::string>{"Piano: overlapping identical notes at 2.1 (C4)"});
  EXPECT_TRUE(doc.warnings({}, core::Applied::forward).empty());
}

TEST_F(MidiQueriesTest, NoWarningsForCleanTracksAndDrums) {
  Song song;
  const EntityId drums = add_track(song, "Drums", 9);
  const Note kick = add_note(song, drums, 0, kBeat, 36, 100);
  add_note(song, drums, 2 * kBar, kBeat, 36, 100);  // one empty bar only
  MidiDocument doc(std::move(song));
  EXPECT_TRUE(doc.warnings(batch_touching({kick}), core::Applied::forward).empty());
}

TEST_F(MidiQueriesTest, WarningsAreCapped) {
  Song song;
  std::vector<Note> touched;
  for (int i = 0; i < 12; ++i) {
    const EntityId id = add_track(song, "T" + std::to_string(i), i % 9, 0);
    touched.push_back(add_note(song, id, 0, kBeat, 60, 80));
    add_note(song, id, 4 * kBar, kBeat, 60, 80);
  }
  MidiDocument doc(std::move(song));
  const auto warnings = doc.warnings(batch_touching(touched), core::Applied::forward);
  ASSERT_EQ(warnings.size(), 11u);
  EXPECT_EQ(warnings.front(), "T0: empty at measures 2-4");
  EXPECT_EQ(warnings.back(), "… and 2 more warnings");
}

}  // namespace
}  // namespace fcp::midi

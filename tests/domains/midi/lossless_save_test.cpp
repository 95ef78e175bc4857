// Open → save with no edit gives the file back: every event of every track with its tick, its
// bytes and its order, over the shared corpus of real files (skipped when ../shared is absent) and
// the project's own SMF fixtures; nothing the model only assumes is added; an edit changes only the
// events it touches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/event_log.hpp"
#include "core/parsed_op.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/smf/meta.hpp"
#include "domains/midi/song_io.hpp"
#include "tests/domains/midi/smf/smf_test_support.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

namespace fs = std::filesystem;
using smf::testing::read_file;
using smf::testing::source_dir;

fs::path corpus_dir() {
  return source_dir() / ".." / "shared" / "corpus" / "midi";
}

// The MIDI files in `dir` (.mid, .midi, RIFF .rmi, karaoke .kar), sorted.
std::vector<fs::path> files_in(const fs::path& dir) {
  static const std::vector<std::string> extensions = {".mid", ".midi", ".rmi", ".kar"};
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() &&
        std::find(extensions.begin(), extensions.end(), extension) != extensions.end())
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<fs::path> fixture_files() {
  return files_in(smf::testing::fixture_dir());
}

smf::File parse(std::string_view bytes) {
  auto file = smf::read_smf(bytes);
  EXPECT_TRUE(file.has_value()) << (file ? "" : file.error().message);
  return file ? *file : smf::File{};
}

// The file open → save writes for `bytes`.
std::string open_and_save(std::string_view bytes) {
  auto song = read_song(bytes);
  EXPECT_TRUE(song.has_value()) << (song ? "" : song.error().message);
  if (!song) return {};
  std::string saved = write_song(*song);
  // The save made one track at a time writes what the whole file made at once does.
  EXPECT_EQ(saved, smf::write_smf(file_from_song(*song)));
  // Reading the file whole gives the same song as reading it track by track.
  auto whole = song_from_file(parse(bytes));
  EXPECT_TRUE(whole && write_song(*whole) == saved);
  return saved;
}

// Every event of `saved` is the event of `original` at the same index of the same track (tick,
// status, meta type, data bytes), every track ends where it ended, and the header and extra
// chunks are the same. EXPECTs each difference; returns whether there was none.
bool same_events(const smf::File& original, const smf::File& saved) {
  const bool same_file = original.format == saved.format && original.division == saved.division &&
                         original.extra_chunks == saved.extra_chunks &&
                         original.tracks.size() == saved.tracks.size();
  EXPECT_EQ(saved.format, original.format);
  EXPECT_EQ(saved.division, original.division);
  EXPECT_EQ(saved.extra_chunks, original.extra_chunks);
  EXPECT_EQ(saved.tracks.size(), original.tracks.size());
  bool same = same_file;
  for (std::size_t t = 0; t < std::min(original.tracks.size(), saved.tracks.size()); ++t) {
    SCOPED_TRACE("track " + std::to_string(t + 1));
    const smf::Track& before = original.tracks[t];
    const smf::Track& after = saved.tracks[t];
    EXPECT_EQ(after.end_tick, before.end_tick);
    EXPECT_EQ(after.events.size(), before.events.size());
    same = same && after.end_tick == before.end_tick && after.events.size() == before.events.size();
    for (std::size_t i = 0; i < std::min(before.events.size(), after.events.size()); ++i) {
      if (after.events[i] == before.events[i]) continue;
      ADD_FAILURE() << "event " << i << ": saved " << ::testing::PrintToString(after.events[i])
                    << ", read " << ::testing::PrintToString(before.events[i]);
      same = false;
      break;  // one difference per track says enough
    }
  }
  return same;
}

struct SaveCounts {
  std::size_t files = 0, same_events = 0, same_bytes = 0, canonical_same_bytes = 0;
};

// Open → save for each file: the saved file holds every event as read; files already written
// in canonical form (the SMF writer's own output) come back byte for byte.
SaveCounts check_open_save(const std::vector<fs::path>& files) {
  SaveCounts counts;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string original_bytes = read_file(path);
    const smf::File original = parse(original_bytes);
    const std::string saved_bytes = open_and_save(original_bytes);
    const bool events_kept = same_events(original, parse(saved_bytes));
    const bool bytes_kept = saved_bytes == original_bytes;
    const std::string canonical = smf::write_smf(original);
    const bool canonical_kept = open_and_save(canonical) == canonical;
    EXPECT_TRUE(canonical_kept) << "the canonical form did not come back byte for byte";
    // A file differs from its canonical form only in how the SMF writer encodes (running status,
    // VLQ length, RIFF wrapping, bytes after the end of a track): whatever the song adds or moves
    // is an error.
    EXPECT_EQ(bytes_kept, canonical == original_bytes);
    ++counts.files;
    counts.same_events += events_kept ? 1 : 0;
    counts.same_bytes += bytes_kept ? 1 : 0;
    counts.canonical_same_bytes += canonical_kept ? 1 : 0;
    std::printf("  %-62s %s%s\n", path.filename().c_str(), events_kept ? "events kept" : "CHANGED",
                bytes_kept ? ", byte-identical" : "");
  }
  std::printf(
      "  %zu files: %zu with every event kept, %zu byte-identical, %zu of %zu in canonical "
      "form byte-identical\n",
      counts.files, counts.same_events, counts.same_bytes, counts.canonical_same_bytes,
      counts.files);
  return counts;
}

TEST(LosslessSave, EveryCorpusFileKeepsEveryEvent) {
  const std::vector<fs::path> files = files_in(corpus_dir());
  if (files.empty()) GTEST_SKIP() << "no corpus at " << corpus_dir();
  const SaveCounts counts = check_open_save(files);
  EXPECT_EQ(counts.same_events, counts.files);
}

TEST(LosslessSave, EveryFixtureKeepsEveryEvent) {
  const std::vector<fs::path> files = fixture_files();
  ASSERT_FALSE(files.empty()) << "no fixtures in " << smf::testing::fixture_dir();
  const SaveCounts counts = check_open_save(files);
  EXPECT_EQ(counts.same_events, counts.files);
}

// --- Small files that show one loss each -----------------------------------------------------

using smf::testing::event;
using smf::testing::meta_event;

smf::File one_note_file(std::vector<smf::Event> conductor) {
  smf::File file;
  file.format = 1;
  file.division.ticks_per_quarter = 96;
  smf::Track head;
  head.events = std::move(conductor);
  head.end_tick = head.events.empty() ? 0 : head.events.back().tick;
  smf::Track notes;
  notes.events = {meta_event(0, smf::meta::track_name, "Piano"), event(0, 0x90, {60, 100}),
                  event(96, 0x80, {60, 64})};
  notes.end_tick = 96;
  file.tracks = {head, notes};
  return file;
}

std::vector<smf::Event> metas_of_type(const smf::File& file, std::uint8_t type) {
  std::vector<smf::Event> found;
  for (const smf::Track& track : file.tracks) {
    for (const smf::Event& e : track.events) {
      if (smf::is_meta(e, type)) found.push_back(e);
    }
  }
  return found;
}

std::unique_ptr<MidiDocument> open_document(const std::string& bytes) {
  static const std::unique_ptr<core::Domain> domain = make_midi_domain();
  auto document = domain->load("song.mid", bytes, {});
  EXPECT_TRUE(document.has_value()) << (document ? "" : document.error().message);
  return std::unique_ptr<MidiDocument>(static_cast<MidiDocument*>(document.value().release()));
}

// Runs one op on `document`; returns its event (null when it changed nothing).
core::EventPtr run(MidiDocument& document, const std::string& text) {
  auto op = core::parse_op(text);
  EXPECT_TRUE(op.has_value()) << text;
  if (!op) return nullptr;
  core::EventLog log;
  testing::NoFiles paths;
  core::EffectSink effects;
  core::ProgressFn progress;
  core::CallContext ctx{log, paths, effects, progress};
  auto outcome = document.execute(*op, ctx);
  EXPECT_TRUE(outcome.has_value()) << text << ": " << (outcome ? "" : outcome.error().message);
  return outcome ? outcome->event : nullptr;
}

std::string saved(const MidiDocument& document) {
  return document.serialize("song.mid").value();
}

TEST(LosslessSave, NoTempoPlaysAt120AndSavesNoTempo) {
  const std::string bytes = smf::write_smf(one_note_file({}));
  auto document = open_document(bytes);
  EXPECT_EQ(document->song().tempo_at(0), 120.0);
  EXPECT_NE(document->digest().find("tempo:120 4/4 C-major"), std::string::npos)
      << document->digest();
  const smf::File file = parse(saved(*document));
  EXPECT_TRUE(metas_of_type(file, smf::meta::tempo).empty());
  EXPECT_TRUE(metas_of_type(file, smf::meta::time_signature).empty());
  EXPECT_TRUE(metas_of_type(file, smf::meta::key_signature).empty());
  EXPECT_EQ(saved(*document), bytes);
}

// A query's answer on `document`.
std::string query(const MidiDocument& document, std::string_view verb, std::string_view args = "") {
  core::EventLog log;
  testing::NoFiles paths;
  core::EffectSink effects;
  core::ProgressFn progress;
  const core::CallContext ctx{log, paths, effects, progress};
  auto answer = document.query(verb, args, ctx);
  EXPECT_TRUE(answer && *answer) << verb;
  return answer && *answer ? (*answer)->text : std::string();
}

TEST(LosslessSave, TheConductorViewSaysWhatTheModelAssumesAndTheFileLeavesOut) {
  EXPECT_EQ(query(*open_document(smf::write_smf(one_note_file({}))), "conductor"),
            "3 conductor events:\n"
            "  1.1      tempo  120 BPM (assumed: the file sets none)\n"
            "  1.1      meter  4/4 (assumed: the file sets none)\n"
            "  1.1      key    C major (assumed: the file sets none)");
  const std::string said = smf::write_smf(one_note_file({smf::make_tempo(500'000, 0)}));
  EXPECT_EQ(query(*open_document(said), "tempo"), "1 tempo event:\n  1.1      120 BPM");
}

TEST(LosslessSave, TimeSignatureKeepsItsMetronomeBytes) {
  const smf::Event signature = meta_event(0, smf::meta::time_signature, "\x04\x02\x12\x08");
  const std::string bytes = smf::write_smf(one_note_file({signature}));
  EXPECT_EQ(metas_of_type(parse(open_and_save(bytes)), smf::meta::time_signature),
            std::vector<smf::Event>{signature});
}

TEST(LosslessSave, RedundantTemposStay) {
  const std::vector<smf::Event> tempos = {
      smf::make_tempo(500'000, 0), smf::make_tempo(400'000, 0),   // two at one tick
      smf::make_tempo(400'000, 48), smf::make_tempo(400'000, 96)  // repeated values
  };
  const std::string bytes = smf::write_smf(one_note_file(tempos));
  EXPECT_EQ(metas_of_type(parse(open_and_save(bytes)), smf::meta::tempo), tempos);
  EXPECT_EQ(open_and_save(bytes), bytes);
}

TEST(LosslessSave, UnreleasedNoteGetsNoNoteOff) {
  smf::File file = one_note_file({});
  file.tracks[1].events.pop_back();  // the note-off
  file.tracks[1].end_tick = 480;
  const std::string bytes = smf::write_smf(file);
  auto song = read_song(bytes);
  ASSERT_TRUE(song.has_value());
  ASSERT_EQ(song->notes().size(), 1u);
  song->notes().for_each(
      [](const Note& note) { EXPECT_EQ(note.duration, 480u); });  // it sounds to the end
  EXPECT_EQ(write_song(*song), bytes);
}

TEST(LosslessSave, AnEmptyNameBeforeTheRealOneStays) {
  smf::File file = one_note_file(
      {meta_event(0, smf::meta::track_name, ""), meta_event(0, smf::meta::track_name, "Title")});
  file.tracks[1].events.insert(file.tracks[1].events.begin(),
                               meta_event(0, smf::meta::track_name, ""));
  const std::string bytes = smf::write_smf(file);
  auto document = open_document(bytes);
  EXPECT_EQ(document->title(), "Title");
  EXPECT_EQ(document->song().tracks()[0].name, "Piano");
  EXPECT_EQ(saved(*document), bytes);
  run(*document, "track rename Piano to:Keys");
  file.tracks[1].events[1].data = "Keys";
  EXPECT_EQ(parse(saved(*document)), file);
}

TEST(LosslessSave, ChangedTempoReplacesOnlyItsEvent) {
  const std::vector<smf::Event> conductor = {
      meta_event(0, smf::meta::track_name, "Title"),
      meta_event(0, smf::meta::time_signature, "\x03\x02\x18\x08"), smf::make_tempo(500'000, 0),
      smf::make_tempo(600'000, 96), meta_event(96, smf::meta::text, "after")};
  auto document = open_document(smf::write_smf(one_note_file(conductor)));
  run(*document, "tempo 150 at:1.1");
  std::vector<smf::Event> expected = conductor;
  expected[2] = smf::make_tempo(400'000, 0);
  EXPECT_EQ(parse(saved(*document)).tracks[0].events, expected);
}

TEST(LosslessSave, ScaledTemposReplaceOnlyTheirEventsAndTheNotesStay) {
  // ppqn 96: beat 1.2 is tick 96, where the second tempo and a text event are.
  const std::vector<smf::Event> conductor = {
      meta_event(0, smf::meta::track_name, "Title"), smf::make_tempo(500'000, 0),
      smf::make_tempo(600'000, 96), meta_event(96, smf::meta::text, "after")};
  const std::string bytes = smf::write_smf(one_note_file(conductor));
  auto document = open_document(bytes);
  run(*document, "tempo scale:2 @range:1.2-1.2");  // [96, 192): the tempo at 96 only
  smf::File expected = parse(bytes);
  expected.tracks[0].events[2] = smf::make_tempo(300'000, 96);
  EXPECT_EQ(parse(saved(*document)).tracks, expected.tracks);
}

TEST(LosslessSave, ATempoRestoredAfterTheRangeDoesNotLengthenTheSong) {
  const std::string bytes = smf::write_smf(one_note_file({smf::make_tempo(500'000, 0)}));
  auto document = open_document(bytes);
  run(*document, "tempo scale:2 @range:1.1-1.1");  // [0, 96): the note ends at 96
  smf::File expected = parse(bytes);
  expected.tracks[0].events = {smf::make_tempo(250'000, 0), smf::make_tempo(500'000, 96)};
  expected.tracks[0].end_tick = 96;  // the end of the song (the note's end), as before
  EXPECT_EQ(parse(saved(*document)).tracks, expected.tracks);
}

// --- An edit changes only what it touches -------------------------------------------------------

// `saved` is `original` plus `added` in one track: every event of the original keeps its tick,
// bytes and order, and nothing else changed.
void expect_only_added(const smf::File& original, const smf::File& saved, std::size_t track,
                       std::vector<smf::Event> added) {
  ASSERT_EQ(saved.tracks.size(), original.tracks.size());
  for (std::size_t t = 0; t < original.tracks.size(); ++t) {
    SCOPED_TRACE("track " + std::to_string(t + 1));
    if (t != track) {
      EXPECT_EQ(saved.tracks[t], original.tracks[t]);
      continue;
    }
    std::vector<smf::Event> rest;
    for (const smf::Event& e : saved.tracks[t].events) {
      const auto new_one = std::find(added.begin(), added.end(), e);
      if (new_one != added.end()) {
        added.erase(new_one);
      } else {
        rest.push_back(e);
      }
    }
    EXPECT_TRUE(added.empty()) << added.size() << " added events not found";
    EXPECT_EQ(rest, original.tracks[t].events);
  }
}

// A real multi-track file: the first corpus file with two tracks holding notes, else a fixture.
std::string real_file_with_tracks() {
  std::vector<fs::path> files = files_in(corpus_dir());
  const std::vector<fs::path> fixtures = fixture_files();
  files.insert(files.end(), fixtures.begin(), fixtures.end());
  for (const fs::path& path : files) {
    std::string bytes = read_file(path);
    auto song = read_song(bytes);
    if (song && song->tracks().size() >= 2 && song->origin()->format == 1 &&
        song->notes().count(song->tracks()[1].id) > 0)
      return bytes;
  }
  return {};
}

// Adds a note to song track `track` of the file `bytes`: the saved file is the original plus
// that note's two events in the track's file track.
void expect_adding_a_note_changes_nothing_else(const std::string& bytes, std::size_t track) {
  const smf::File original = parse(bytes);
  auto document = open_document(bytes);
  ASSERT_LT(track, document->song().tracks().size());
  const Track& chosen = document->song().tracks()[track];
  run(*document, "note \"" + chosen.name + "\" C4 at:2.1 dur:quarter vel:99");
  const Note* added = nullptr;  // the one note not read from the file
  document->song().notes().for_each([&](const Note& note) {
    if (!note.on_place) added = &note;
  });
  ASSERT_NE(added, nullptr);
  expect_only_added(original, parse(saved(*document)), *chosen.file_track,
                    {smf::make_note_on(added->channel, 60, 99, added->tick),
                     smf::make_note_on(added->channel, 60, 0, added->tick + added->duration)});
}

TEST(LosslessSave, AddingANoteChangesNothingElse) {
  const std::string bytes = real_file_with_tracks();
  ASSERT_FALSE(bytes.empty()) << "no multi-track file among the corpus and fixtures";
  expect_adding_a_note_changes_nothing_else(bytes, 1);
}

TEST(LosslessSave, AddingANoteToAChannelOfAFormatZeroFileChangesNothingElse) {
  const std::string bytes = read_file(smf::testing::fixture_dir() / "mido-format0.mid");
  ASSERT_EQ(parse(bytes).format, 0);
  expect_adding_a_note_changes_nothing_else(bytes, 0);
}

TEST(LosslessSave, ChangedEventsStayInTheirPlaces) {
  const std::string bytes = smf::write_smf(one_note_file({}));
  const smf::File original = parse(bytes);
  auto document = open_document(bytes);
  run(*document, "track rename Piano to:Keys");
  run(*document, "velocity @track:Keys =50");
  std::vector<smf::Event> expected = original.tracks[1].events;
  expected[0].data = "Keys";
  expected[1].data[1] = 50;
  const smf::File file = parse(saved(*document));
  EXPECT_EQ(file.tracks[0], original.tracks[0]);
  EXPECT_EQ(file.tracks[1].events, expected);
}

TEST(LosslessSave, UndoingEveryEditGivesTheFileBack) {
  const std::string bytes = real_file_with_tracks();
  ASSERT_FALSE(bytes.empty());
  auto document = open_document(bytes);
  const std::string track = "\"" + document->song().tracks()[1].name + "\"";
  std::vector<core::EventPtr> events;
  for (const std::string& op : std::vector<std::string>{
           "note " + track + " C4 at:2.1 dur:quarter", "transpose @track:" + track + " +2",
           "move @track:" + track + " @range:1.1-2.4 to:3.1", "cc " + track + " volume 90 at:1.1",
           "tempo 97 at:2.1", "tempo 133", "time-sig 6/8 at:3.1", "key-sig Bb",
           "marker \"B\" at:2.1", "title \"Renamed\"", "track rename " + track + " to:Other",
           "remove @track:Other"}) {
    SCOPED_TRACE(op);
    events.push_back(run(*document, op));
  }
  EXPECT_NE(saved(*document), bytes);
  core::EffectSink effects;
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if (*it) document->revert(**it, effects);
  }
  EXPECT_EQ(saved(*document), bytes);
}

TEST(LosslessSave, FormatZeroWithANewTrackBecomesFormatOne) {
  const std::string bytes = read_file(smf::testing::fixture_dir() / "mido-format0.mid");
  const smf::File original = parse(bytes);
  ASSERT_EQ(original.format, 0);
  auto document = open_document(bytes);
  EXPECT_EQ(saved(*document), bytes);
  run(*document, "track add Strings");
  run(*document, "note Strings C4 at:1.1 dur:quarter");
  const smf::File file = parse(saved(*document));
  EXPECT_EQ(file.format, 1);
  ASSERT_EQ(file.tracks.size(), 2u);
  EXPECT_EQ(file.tracks[0], original.tracks[0]);
}

}  // namespace
}  // namespace fcp::midi

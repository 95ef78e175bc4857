// Audio the client can play: what is heard (mute, solo, a preview's tracks), an excerpt of bars as
// a song of its own, `preview @range:…` and `export wav|flac|ogg` without a path returning the
// rendering as an attachment (MCP audio content), and the size cap the replies state.
#include "domains/midi/audio.hpp"

#include <gtest/gtest.h>

#include <cstdint>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

using testing::call_ops;
using testing::try_lines;

constexpr Tick kBeat = 480;
constexpr Tick kBar = 4 * kBeat;

EntityId add_track(Song& song, const std::string& name, int channel) {
  Track track;
  track.id = song.allocate_id();
  track.name = name;
  track.channel = channel;
  song.insert_track(song.tracks().size(), track);
  return track.id;
}

void add_note(Song& song, EntityId track, Tick tick, std::uint32_t duration, int pitch) {
  Note note;
  note.id = song.allocate_id();
  note.track = track;
  note.tick = tick;
  note.duration = duration;
  note.pitch = pitch;
  song.put_note(note);
}

void add_control(Song& song, EntityId track, Tick tick, ControlKind kind, int number, int value) {
  Control control;
  control.id = song.allocate_id();
  control.track = track;
  control.tick = tick;
  control.kind = kind;
  control.number = number;
  control.value = value;
  song.controls().put(control);
}

std::uint32_t u32le(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = (value << 8) | static_cast<std::uint8_t>(bytes.at(at + static_cast<std::size_t>(i)));
  return value;
}

// Seconds of a 16-bit stereo WAV image (checked to be one).
double wav_seconds(const std::string& wav, std::uint32_t rate) {
  EXPECT_EQ(wav.substr(0, 4), "RIFF");
  EXPECT_EQ(wav.substr(8, 4), "WAVE");
  EXPECT_EQ(u32le(wav, 24), rate);
  return static_cast<double>(u32le(wav, 40)) / (4.0 * rate);
}

TEST(MidiAudio, WhatIsHeard) {
  Song song;
  const EntityId a = add_track(song, "A", 0);
  const EntityId b = add_track(song, "B", 1);
  const EntityId c = add_track(song, "C", 2);
  EXPECT_EQ(silent_tracks(song), (std::set<EntityId>{}));
  Track muted = *song.track(a);
  muted.muted = true;
  song.replace_track(muted);
  EXPECT_EQ(silent_tracks(song), (std::set<EntityId>{a}));
  Track solo = *song.track(b);
  solo.solo = true;
  song.replace_track(solo);
  EXPECT_EQ(silent_tracks(song), (std::set<EntityId>{a, c}));
  EXPECT_EQ(silent_tracks(song, {a}), (std::set<EntityId>{b, c})) << "chosen tracks win";
}

// An excerpt sounds as the song does there: tempo, program and controller values in force,
// notes held into it, and it lasts the whole range.
TEST(MidiAudio, AnExcerptStartsWithWhatIsInForce) {
  Song song;
  song.conductor().tempos = {{0, 100.0}, {2 * kBar, 150.0}, {5 * kBar, 90.0}};
  const EntityId keys = add_track(song, "Keys", 0);
  const EntityId drums = add_track(song, "Drums", 9);
  add_control(song, keys, 0, ControlKind::program, 0, 4);
  add_control(song, keys, 0, ControlKind::cc, 7, 50);
  add_control(song, keys, kBar, ControlKind::cc, 7, 90);  // the volume in force at bar 4
  add_control(song, keys, 3 * kBar + kBeat, ControlKind::cc, 7, 100);  // within
  add_control(song, keys, 6 * kBar, ControlKind::cc, 7, 10);           // after
  add_note(song, keys, 2 * kBar, 2 * kBar, 60);                        // held from bar 3 into bar 4
  add_note(song, keys, 3 * kBar + kBeat, kBeat, 64);                   // within
  add_note(song, keys, 4 * kBar - 10, 3 * kBar, 67);                   // cut at the range's end
  add_note(song, keys, 5 * kBar, kBeat, 72);                           // after
  add_note(song, drums, 3 * kBar, kBeat, 36);
  const Song excerpt = song_excerpt(song, 3 * kBar, 5 * kBar, {drums});
  EXPECT_EQ(excerpt.conductor().tempos, (std::map<Tick, double>{{0, 150.0}}));
  std::vector<std::tuple<Tick, int, int>> notes;  // tick, duration, pitch
  for (const auto& [tick, id] : excerpt.notes().of_track(keys)) {
    const Note& note = *excerpt.notes().find(id);
    notes.emplace_back(tick, static_cast<int>(note.duration), note.pitch);
  }
  EXPECT_EQ(notes, (std::vector<std::tuple<Tick, int, int>>{
                       {0, static_cast<int>(kBar), 60},
                       {kBeat, static_cast<int>(kBeat), 64},
                       {kBar - 10, static_cast<int>(kBar) + 10, 67}}));
  EXPECT_EQ(excerpt.notes().count(drums), 0u) << "a silent track keeps no notes";
  std::vector<std::tuple<Tick, int, int>> controls;  // tick, number, value
  for (const auto& [tick, id] : excerpt.controls().of_track(keys)) {
    const Control& control = *excerpt.controls().find(id);
    controls.emplace_back(tick, control.kind == ControlKind::program ? -1 : control.number,
                          control.value);
  }
  EXPECT_EQ(controls,
            (std::vector<std::tuple<Tick, int, int>>{{0, -1, 4}, {0, 7, 90}, {kBeat, 7, 100}}));
  EXPECT_EQ(excerpt.conductor().markers.rbegin()->first, 2 * kBar) << "lasts the whole range";
}

class MidiAudioReplies : public ::testing::Test {
 protected:
  MidiAudioReplies() : domain_(make_midi_domain()), session_(*domain_, paths_) {
    if (!render::default_soundfont()) return;
    session_.run_session("new \"Listen\" tempo:120", {});
    call_ops(session_, {"track add Drums instrument:drums", "track add Keys instrument:rhodes",
                        "note Drums kick at:1.1 dur:8n", "note Drums snare at:1.3 dur:8n",
                        "repeat @track:Drums count:7", "chord Keys Am7 at:1.1 dur:2bars",
                        "chord Keys Dm7 at:3.1 dur:2bars"});
  }
  void SetUp() override {
    if (!render::default_soundfont()) GTEST_SKIP() << "no GM SoundFont (timgm6mb-soundfont)";
  }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_F(MidiAudioReplies, PreviewGivesTheBarsAsAudioAndChangesNothing) {
  const auto before = session_.run_query("map").text;
  const auto reply = call_ops(session_, {"preview @range:2-3"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  ASSERT_EQ(reply.attachments.size(), 1u);
  EXPECT_EQ(reply.attachments[0].mime_type, "audio/wav");
  // Two bars at 120 BPM and a second of ring-out, at the preview's 22050 Hz.
  EXPECT_NEAR(wav_seconds(reply.attachments[0].bytes, 22050), 5.0, 0.05);
  EXPECT_NE(
      reply.text.find("+ preview 2.1-3.4 (as heard): the audio is in this reply (5.0 s (4.0 s "
                      "of music, then 1.0 s of release tail), "),
      std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find("up to 4 MB in a reply"), std::string::npos) << reply.text;
  EXPECT_EQ(session_.run_query("map").text, before);
  EXPECT_EQ(session_.run_query("history").text.find("preview"), std::string::npos)
      << "a preview is no step to undo";
}

TEST_F(MidiAudioReplies, PreviewOfChosenTracksAndFormats) {
  const auto ogg = call_ops(session_, {"preview @range:1-2 @track:Drums fmt:ogg"});
  ASSERT_FALSE(ogg.is_error) << ogg.text;
  ASSERT_EQ(ogg.attachments.size(), 1u);
  EXPECT_EQ(ogg.attachments[0].mime_type, "audio/ogg");
  EXPECT_EQ(ogg.attachments[0].bytes.substr(0, 4), "OggS");
  EXPECT_NE(ogg.text.find("(Drums)"), std::string::npos) << ogg.text;
  const auto flac = call_ops(session_, {"preview @range:1 fmt:flac rate:44100"});
  ASSERT_FALSE(flac.is_error) << flac.text;
  EXPECT_EQ(flac.attachments.at(0).mime_type, "audio/flac");
  EXPECT_EQ(flac.attachments.at(0).bytes.substr(0, 4), "fLaC");
  // Bars without notes are heard as silence, and the reply says so.
  call_ops(session_, {"mute Keys", "mute Drums"});
  const auto silent = call_ops(session_, {"preview @range:1-2"});
  EXPECT_NE(silent.text.find("? the preview is silent"), std::string::npos) << silent.text;
  const auto chosen = call_ops(session_, {"preview @range:1-2 @track:Keys"});
  EXPECT_EQ(chosen.text.find("silent"), std::string::npos) << "a chosen track plays, muted or not";
}

// A range too long for one reply is refused before rendering, with the bars that fit.
TEST_F(MidiAudioReplies, PreviewStatesItsCapAndOffersWhatFits) {
  call_ops(session_, {"note Keys C4 at:40.1 dur:whole"});
  const auto reply = call_ops(session_, {"preview @range:1-40"});
  ASSERT_TRUE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("a preview is capped at 4 MB (about 47 s of WAV at 22050 Hz)"),
            std::string::npos)
      << reply.text;
  const auto hints = try_lines(reply.text);
  ASSERT_EQ(hints.size(), 1u) << reply.text;
  EXPECT_EQ(hints[0], "preview @range:1-23");
  const auto pasted = call_ops(session_, {hints[0]});
  EXPECT_FALSE(pasted.is_error) << pasted.text;
  ASSERT_EQ(pasted.attachments.size(), 1u);
  EXPECT_LE(pasted.attachments[0].bytes.size(), kMaxInlineAudioBytes);
  for (const char* op : {"preview", "preview @range:1-2 @pitch:C4", "preview @range:0-2"}) {
    const auto refused = call_ops(session_, {op});
    ASSERT_TRUE(refused.is_error) << op;
    for (const auto& hint : try_lines(refused.text))
      EXPECT_FALSE(call_ops(session_, {hint}).is_error) << op << "\n  try: " << hint;
  }
}

TEST_F(MidiAudioReplies, ExportWithoutAPathIsAudioInTheReply) {
  const auto wav = session_.run_session("export wav", {}).reply;
  ASSERT_FALSE(wav.is_error) << wav.text;
  ASSERT_EQ(wav.attachments.size(), 1u);
  EXPECT_EQ(wav.attachments[0].mime_type, "audio/wav");
  // Eight bars at 120 BPM (the last note ends at 8.3 plus an eighth) and two seconds of tail.
  EXPECT_NEAR(wav_seconds(wav.attachments[0].bytes, 44100), 15.25 + 2.0, 0.05);
  EXPECT_NE(wav.text.find("+ export wav: the audio is in this reply"), std::string::npos)
      << wav.text;
  const auto ogg = session_.run_session("export ogg rate:22050", {}).reply;
  ASSERT_FALSE(ogg.is_error) << ogg.text;
  EXPECT_EQ(ogg.attachments.at(0).mime_type, "audio/ogg");
  EXPECT_NE(session_.run_query("status").text.find("which the last render, an export in the "
                                                   "reply, used"),
            std::string::npos);
}

TEST_F(MidiAudioReplies, AnExportTooLongForAReplySaysWhatToDo) {
  call_ops(session_, {"note Keys C4 at:40.1 dur:whole"});
  const auto reply = session_.run_session("export wav", {}).reply;
  ASSERT_TRUE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("audio in the reply is capped at 4 MB (about 23 s at 44100 Hz)"),
            std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find("preview @range:M-N"), std::string::npos) << reply.text;
  EXPECT_EQ(try_lines(reply.text),
            (std::vector<std::string>{"export wav path:song.wav", "export ogg"}));
  const auto ogg = session_.run_session("export ogg", {}).reply;
  EXPECT_FALSE(ogg.is_error) << ogg.text;
  EXPECT_EQ(ogg.attachments.size(), 1u);
}

}  // namespace
}  // namespace fcp::midi

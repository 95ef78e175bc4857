// Suggestions that do not mislead: every `try:` of the replies below is pasted back into the song
// it was given for, must succeed and must do what was meant (its reply says so).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::midi {
namespace {

using testing::call_ops;
using testing::try_lines;

// A failing op, the first suggestion it must get, and what that suggestion's reply must say.
struct Case {
  std::string op;
  std::string first_hint;
  std::string effect;
};

class MidiSuggestions : public ::testing::Test {
 protected:
  MidiSuggestions() : domain_(make_midi_domain()) {}

  // A song with a piano, an electric piano with notes, and a drum track.
  static void prepare(core::Session& session) {
    session.run_session("new \"Suggestions\" tempo:100 discard:true", {});
    call_ops(session, {"track add Keys", "track add Ep instrument:rhodes",
                       "track add Drums instrument:drums", "note Ep C4 E4 G4 at:1.1 dur:half",
                       "note Ep D4 at:2.1", "note Drums kick at:1.1"});
  }

  // Runs `op` on a fresh prepared song; it must fail. Each of its suggestions must then succeed on
  // a fresh prepared song; the first must be `first_hint` and its reply must contain `effect`.
  void expect_working_suggestions(const Case& c, bool empty_song = false) {
    core::Session session(*domain_, paths_);
    empty_song ? void(session.run_session("new \"Empty\"", {})) : prepare(session);
    const auto reply = call_ops(session, {c.op});
    ASSERT_TRUE(reply.is_error) << c.op << "\n" << reply.text;
    const auto hints = try_lines(reply.text);
    ASSERT_FALSE(hints.empty()) << c.op << "\n" << reply.text;
    EXPECT_EQ(hints.front(), c.first_hint) << c.op << "\n" << reply.text;
    for (std::size_t i = 0; i < hints.size(); ++i) {
      core::Session fresh(*domain_, paths_);
      empty_song ? void(fresh.run_session("new \"Empty\"", {})) : prepare(fresh);
      const auto pasted = call_ops(fresh, {hints[i]});
      EXPECT_FALSE(pasted.is_error) << c.op << "\n  try: " << hints[i] << "\n" << pasted.text;
      if (i == 0) {
        EXPECT_NE(pasted.text.find(c.effect), std::string::npos)
            << c.op << "\n  try: " << hints[i] << "\n"
            << pasted.text;
      }
    }
  }

  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
};

TEST_F(MidiSuggestions, EverySuggestionWorksAsPastedAndDoesWhatWasMeant) {
  const std::vector<Case> cases{
      // Positions: a plain number is no duration; the ticks form is.
      {"note Ep C5 at:+5", "note Ep C5 at:+ticks:5", "Note C5 at 1.2.5 on Ep"},
      // Instruments: the word that names the instrument; drums and channel 10 go together.
      {"track add Ep2 instrument:\"vintage rhodes\"", "track add Ep2 instrument:electric-piano-1",
       "Track 'Ep2' added (ch:3, electric-piano-1)"},
      {"track add Lead instrument:bass-clarinet", "track add Lead instrument:clarinet",
       "Track 'Lead' added (ch:3, clarinet)"},
      {"track add Perc instrument:drums ch:3", "track add Perc instrument:drums ch:10",
       "Track 'Perc' added (ch:10, drums)"},
      {"track add Fiddle instrument:violin ch:10", "track add Fiddle instrument:violin",
       "Track 'Fiddle' added (ch:3, violin)"},
      {"program Drums violin", "program Drums jazz-kit",
       "Track 'Drums' instrument set to jazz-kit (program:32)"},
      {"program Ep jazz-kit", "track add Kit instrument:jazz-kit",
       "Track 'Kit' added (ch:10, jazz-kit)"},
      // Transpose: the op's own selectors, the semitones it said in words.
      {"transpose @track:Ep up 2", "transpose @track:Ep +2", "Transposed 4 notes up 2 semitones"},
      {"transpose Ep down 1 octave", "transpose @track:Ep -12",
       "Transposed 4 notes down 12 semitones"},
      {"transpose @track:Ep 2st", "transpose @track:Ep +2", "Transposed 4 notes up 2 semitones"},
      {"transpose Ep 5", "transpose @track:Ep 5", "Transposed 4 notes up 5 semitones"},
      // Tracks the song lacks: the track it most likely wants.
      {"note Strings C4", "note Keys C4", "Note C4 at 1.1 on Keys"},
      {"note Bass E1 at:1.1", "note Keys E1 at:1.1", "Note E1 at 1.1 on Keys"},
      // Drum names on a drum track, ranges as ranges.
      {"note Drums kik at:2.1", "note Drums kick at:2.1", "Note kick at 2.1 on Drums"},
      {"humanize @track:Ep @range:0.1-2.1 seed:2", "humanize @track:Ep @range:1.1-2.1 seed:2",
       "Humanized 4 notes"},
  };
  for (const auto& c : cases)
    expect_working_suggestions(c);
}

TEST_F(MidiSuggestions, TheTrackAddSuggestedForAMissingTrackFitsItsName) {
  core::Session session(*domain_, paths_);
  prepare(session);
  auto hints = try_lines(call_ops(session, {"note Strings C4"}).text);
  ASSERT_EQ(hints.size(), 2u);
  EXPECT_EQ(hints[1], "track add Strings instrument:string-ensemble-1");
  hints = try_lines(call_ops(session, {"note Bass E1"}).text);
  ASSERT_EQ(hints.size(), 2u);
  EXPECT_EQ(hints[1], "track add Bass instrument:electric-bass-finger");
  EXPECT_FALSE(call_ops(session, {hints[1], "note Bass E1"}).is_error);
}

// In a song without tracks no suggestion names a track: they add one.
TEST_F(MidiSuggestions, AnEmptySongIsOfferedATrack) {
  for (const Case& c : {
           Case{"note Piano C4", "track add Piano instrument:acoustic-grand-piano",
                "Track 'Piano' added"},
           Case{"transpose @track:Piano up 2", "track add Piano instrument:acoustic-grand-piano",
                "Track 'Piano' added"},
           Case{"transpose Piano up 2", "track add Piano instrument:acoustic-grand-piano",
                "Track 'Piano' added"},
           Case{"note Drums kick", "track add Drums instrument:drums",
                "Track 'Drums' added (ch:10, drums)"},
       }) {
    expect_working_suggestions(c, true);
  }
}

// What the agent wrote works as written now, with the program meant.
TEST_F(MidiSuggestions, InstrumentWordsMusiciansUseNameTheirProgram) {
  core::Session session(*domain_, paths_);
  prepare(session);
  const auto reply = call_ops(
      session, {"track add Ep2 instrument:\"Fender Rhodes\"", "track add Vib instrument:vibes",
                "track add Rh instrument:rhodes", "track add Kit instrument:\"drum kit\" ch:10",
                "track add Kit2 instrument:\"drum kit\"", "track add Organ instrument:b3"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  for (std::string_view line :
       {"Track 'Ep2' added (ch:3, electric-piano-1)", "Track 'Vib' added (ch:4, vibraphone)",
        "Track 'Rh' added (ch:5, electric-piano-1)", "Track 'Kit' added (ch:10, drums)",
        "Track 'Kit2' added (ch:10, drums)", "Track 'Organ' added (ch:6, drawbar-organ)"})
    EXPECT_NE(reply.text.find(line), std::string::npos) << line << "\n" << reply.text;
  const auto listed = session.run_query("instruments vibes");
  EXPECT_NE(listed.text.find("vibraphone  program:11"), std::string::npos) << listed.text;
  const auto relative = call_ops(session, {"note Ep C5 at:3.1 dur:half", "note Ep D5 at:+0"});
  EXPECT_NE(relative.text.find("Note D5 at 3.3 on Ep"), std::string::npos) << relative.text;
}

// After an export with the default SoundFont, status names it instead of "none loaded".
TEST_F(MidiSuggestions, StatusNamesTheSoundFontTheExportUsed) {
  const auto font = render::default_soundfont();
  if (!font) GTEST_SKIP() << "no GM SoundFont installed (timgm6mb-soundfont)";
  const auto dir = std::filesystem::temp_directory_path() / "fcp-midi-status-export";
  std::filesystem::create_directories(dir);
  testing::AllowAll files;
  core::Session session(*domain_, files);
  prepare(session);
  const std::string before = session.run_query("status").text;
  EXPECT_NE(before.find("soundfont: the default GM SoundFont when exporting (none loaded"),
            std::string::npos)
      << before;
  const std::string wav = (dir / "song.wav").string();
  const auto exported = session.run_session("export wav path:" + wav, {});
  ASSERT_FALSE(exported.reply.is_error) << exported.reply.text;
  const std::string after = session.run_query("status").text;
  EXPECT_EQ(after.find("none loaded"), std::string::npos) << after;
  EXPECT_NE(after.find("soundfont: " + font->string() +
                       " (the default GM SoundFont, which the last render, " + wav + ", used"),
            std::string::npos)
      << after;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace fcp::midi

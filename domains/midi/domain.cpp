#include "domains/midi/domain.hpp"

#include <charconv>
#include <cmath>

#include "core/call_scope.hpp"
#include "core/response.hpp"
#include "domains/midi/audio.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/queries.hpp"
#include "domains/midi/render/audio_encoder.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/song_io.hpp"
#include "domains/midi/theory/chords.hpp"
#include "domains/midi/theory/controllers.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

std::string make_card_sections() {
  std::string out = core::selector_card(selector_catalog());
  out +=
      "\nNEW SONG: midi_session new \"Title\" tempo:BPM (120) key:KEY (C; Am F#m Bb-major) "
      "time-sig:N/D (4/4) ppqn:N (480 ticks a quarter)\n";
  out +=
      "POSITIONS: M.B (bar.beat, the first is 1.1)  M.B.T (T ticks into the beat)  tick:N  "
      "+DUR/-DUR (from the end of the last note written; +0 is that end)  end (the song's end: "
      "where its last note ends)\n";
  out +=
      "DEFAULTS: at: 1.1 (the reply says when it used it), dur: quarter, vel: 80 (mf), ch: the "
      "track's channel\n";
  out +=
      "DURATIONS: whole half quarter eighth sixteenth 32nd 64th, 1n…64n, dotted-quarter or "
      "4n., double dots 4n.., triplet-eighth or 8t, ticks:N; bars by the meter where the note "
      "starts: bar, 2bars, half-bar\n";
  out +=
      "PITCH: C4 = 60 (C-1…G9), F#3 Bb2 C##4, midi:N; drum names on channel 10 (kick snare "
      "closed-hat open-hat pedal-hat crash ride clap side-stick low-tom high-tom …: midi_query "
      "drums lists all 47, GM names like bass-drum-1 work too; every view shows these); replies "
      "spell by the key in force (F minor: Ab Eb), in C major / A minor with sharps unless you "
      "wrote a flat\n";
  out += "VELOCITY: 1-127 or ppp(16) pp(33) p(49) mp(64) mf(80) f(96) ff(112) fff(127)\n";
  out += "CHORDS: ";
  bool first = true;
  for (const auto quality : theory::chord_qualities()) {
    out += (first ? "" : " ") + std::string(quality.empty() ? "(major)" : quality);
    first = false;
  }
  out += "; slash chords C/E\n";
  out +=
      "CONTROLLERS: names (volume pan modulation expression sustain reverb chorus …) or "
      "numbers 0-127\n";
  out +=
      "INSTRUMENTS: 128 GM names (acoustic-grand-piano, string-ensemble-1 …) and the words "
      "musicians use (rhodes, vibes, b3, fiddle); program:0-127; drums or a kit (jazz-kit, 808) "
      "→ a drum track on channel 10; midi_query instruments FILTER lists them\n";
  out +=
      "TRACKER BLOCK (all in one call; a block left open fails the call): [\"tracker Drums "
      "import at:1.1 res:16th\", \"Step 01: [kick_v110_1], [closed-hat_v70_1]\", \"Step 03: "
      "[snare_v100_2]\", \"tracker end\"]\n";
  out +=
      "\nEXAMPLE:\n"
      "  midi_session: new \"Groove\" tempo:96 key:Am\n"
      "  midi: [\"track add Drums instrument:drums\", \"track add Bass instrument:"
      "electric-bass-finger\", \"track add Keys instrument:electric-piano-1\", \"note Drums kick "
      "at:1.1 dur:8n\", \"note Drums snare at:1.2 dur:8n\", \"repeat @track:Drums count:3\", "
      "\"note Bass A1 at:1.1 dur:half\", \"chord Keys Am7 at:1.1 dur:whole\"]\n"
      "  midi_session: save as:groove.mid\n"
      "  midi_session: export wav path:groove.wav\n";
  return out;
}

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// The formats `export` and `preview` take here: wav, and flac and ogg when libsndfile writes them.
std::string available_formats() {
  std::string out;
  for (const auto format :
       {render::AudioFormat::wav, render::AudioFormat::flac, render::AudioFormat::ogg}) {
    if (render::format_available(format))
      out += (out.empty() ? "" : "|") + std::string(render::format_name(format));
  }
  return out;
}

// export wav|flac|ogg [path:FILE] [rate:N]: the song as heard (mute, solo) into FILE, or without
// a path as audio content in the reply (up to kMaxInlineAudioBytes).
core::Result<std::vector<std::string>> export_audio(const core::SessionCommand& command,
                                                    MidiDocument& doc, core::CallContext& ctx) {
  const std::string name = command.positionals.empty() ? "" : command.positionals.front();
  const auto format = render::audio_format_named(name);
  if (!format || !render::format_available(*format)) {
    return core::make_error(
        (name.empty() ? std::string("export needs a format") : "cannot export " + name) + ": " +
            available_formats() + " (save writes the .mid)",
        {"export wav path:song.wav", "export wav"});
  }
  const std::string* path_text = command.param("path");
  if (path_text == nullptr) path_text = command.param("as");
  std::optional<std::filesystem::path> path;
  if (path_text != nullptr) {
    auto allowed = ctx.paths.for_writing(*path_text);
    if (!allowed) return allowed.error();
    path = *allowed;
  }
  const Song audible = audible_song(doc.song(), silent_tracks(doc.song()));
  AudioSettings settings;
  settings.format = *format;
  if (auto rate = command.integer("rate")) settings.sample_rate = static_cast<int>(*rate);
  if (!path && *format == render::AudioFormat::wav) {
    const double seconds = audible.seconds_at(audible.end_tick());
    if (const std::size_t bytes = wav_bytes(seconds, settings); bytes > kMaxInlineAudioBytes) {
      return core::make_error(
          "the song as WAV would take " + size_text(bytes) + "; audio in the reply is capped at " +
              size_text(kMaxInlineAudioBytes) + " (about " +
              std::to_string(inline_wav_seconds(settings.sample_rate)) + " s at " +
              std::to_string(settings.sample_rate) +
              " Hz): write a file, or listen to a few bars with the op preview @range:M-N",
          {"export wav path:song.wav", "export ogg"});
    }
  }
  auto soundfont = soundfont_for(doc);
  if (!soundfont) return soundfont.error();
  auto audio = render_audio(audible, *soundfont, settings, ctx.progress);
  if (auto stop = core::stop_error("export", "no audio was made and no file written")) return *stop;
  if (!audio) return core::make_error("export failed: " + audio.error().message);
  doc.set_last_render(path_text ? *path_text : "an export in the reply", soundfont->string());
  std::vector<std::string> lines;
  if (path) {
    if (auto written = core::write_file_atomically(*path, audio->bytes); !written)
      return written.error();
    lines.push_back(
        core::created("exported " + *path_text + " (" + audio->detail(settings.sample_rate) + ")"));
  } else {
    if (audio->bytes.size() > kMaxInlineAudioBytes || ctx.attachments == nullptr) {
      return core::make_error("the rendering takes " + size_text(audio->bytes.size()) +
                                  "; audio in the reply is capped at " +
                                  size_text(kMaxInlineAudioBytes) + ": write a file",
                              {"export " + name + " path:song." + name});
    }
    lines.push_back(core::created("export " + name + ": the audio is in this reply (" +
                                  audio->detail(settings.sample_rate) + "; up to " +
                                  size_text(kMaxInlineAudioBytes) + " in a reply)"));
    ctx.attachments->push_back({audio->mime_type(), std::move(audio->bytes)});
  }
  if (audio->stats.peak <= 0.0001)
    lines.push_back(core::warning_line("the rendered audio is silent (no audible notes)"));
  return lines;
}

class MidiDomain final : public core::Domain {
 public:
  MidiDomain() : card_(make_card_sections()) {
    // `midi:61` is a pitch, not a key:value param.
    hooks_.is_positional = [](std::string_view token) { return token.starts_with("midi:"); };
  }
  const core::ParseHooks* parse_hooks() const override { return &hooks_; }

  std::string_view name() const override { return "midi"; }
  std::string_view display_name() const override { return "MIDI songs"; }
  const core::VerbRegistry& verbs() const override { return verb_table(); }
  std::string card_sections() const override { return card_; }
  std::vector<core::VerbSpec> queries() const override { return query_specs(); }
  std::vector<core::Synonym> query_synonyms() const override {
    return {{"notes", "events", {}},
            {"list", "events", {}},
            {"song", "map", {}},
            {"overview", "map", {}},
            {"summary", "map", {}},
            {"info", "describe", {}},
            {"show", "describe", {}},
            {"search", "find", {}},
            {"roll", "piano-roll", {}},
            {"pianoroll", "piano-roll", {}},
            {"tempos", "tempo", {}},
            {"meters", "meter", {}},
            {"timesig", "meter", {}},
            {"keys", "key", {}},
            {"marker", "markers", {}},
            {"track", "tracks", {}},
            {"instrument", "instruments", {}},
            {"drum", "drums", {}}};
  }
  std::vector<core::KeySpec> new_document_keys() const override {
    return {core::number_key("tempo").between(10, 1000).by_default("120"),
            core::key("key", "KEY").by_default("C"), core::key("time-sig", "N/D").by_default("4/4"),
            core::integer_key("ppqn").between(24, 32767).by_default("480")};
  }
  std::vector<core::VerbSpec> session_extensions() const override {
    return {
        {"load-soundfont", "PATH", "", "use an SF2 for export and instruments"},
        core::VerbSpec{"export", available_formats(), "",
                       "render the song as heard (mute, solo) through FluidSynth, with progress; "
                       "into path:, or without one as audio in the reply (up to " +
                           size_text(kMaxInlineAudioBytes) + ")"}
            .with(core::key("path", "FILE").also({"as"}))
            .with(core::integer_key("rate").between(8000, 96000).by_default("44100"))
            .example("export wav path:song.wav")
            .example("export ogg")};
  }
  std::vector<std::string> file_extensions() const override { return {"mid", "midi"}; }
  std::string file_mime_type(const std::filesystem::path& path,
                             std::string_view bytes) const override {
    (void)path;
    (void)bytes;
    return "audio/midi";
  }
  std::vector<core::ResourceForm> resource_forms() const override {
    return {{".wav", "audio/wav", "song rendering (WAV)",
             "The song as heard (mute, solo) rendered through FluidSynth with the loaded or the "
             "default General MIDI SoundFont, 44100 Hz, when read (up to " +
                 size_text(kMaxInlineAudioBytes) + ")"}};
  }
  // The rendering `export wav` gives in its reply, without recording it as the last render.
  core::Result<core::Attachment> render_resource(std::string_view suffix, core::Document& document,
                                                 core::CallContext& ctx) const override {
    if (suffix != ".wav") return core::make_error("no " + std::string(suffix) + " form");
    auto& doc = static_cast<MidiDocument&>(document);
    const Song audible = audible_song(doc.song(), silent_tracks(doc.song()));
    const AudioSettings settings;
    const double seconds = audible.seconds_at(audible.end_tick());
    if (const std::size_t bytes = wav_bytes(seconds, settings); bytes > kMaxInlineAudioBytes) {
      return core::make_error("the song as WAV would take " + size_text(bytes) +
                                  "; a WAV resource is capped at " +
                                  size_text(kMaxInlineAudioBytes) + " (about " +
                                  std::to_string(inline_wav_seconds(settings.sample_rate)) +
                                  " s): write it to a file with midi_session",
                              {"export wav path:song.wav"});
    }
    auto soundfont = soundfont_for(doc);
    if (!soundfont) {
      return core::make_error("cannot render the WAV: " + soundfont.error().message,
                              soundfont.error().hints);
    }
    auto audio = render_audio(audible, *soundfont, settings, ctx.progress);
    if (!audio) return core::make_error("rendering the WAV failed: " + audio.error().message);
    return core::Attachment{audio->mime_type(), std::move(audio->bytes)};
  }

  core::Result<std::unique_ptr<core::Document>> create(
      const core::SessionCommand& command) const override {
    Song song;
    Conductor& c = song.conductor();
    if (const std::string* title = command.arg("title")) c.title = *title;
    if (auto ppqn = command.integer("ppqn")) {
      c.ppqn = static_cast<int>(*ppqn);
      c.division.ticks_per_quarter = c.ppqn;
      c.meter = theory::MeterMap(c.ppqn);
    }
    if (auto bpm = command.number("tempo")) c.tempos[0] = *bpm;
    if (const std::string* meter = command.param("time-sig")) {
      const auto slash = meter->find('/');
      auto n = to_int(std::string_view(*meter).substr(0, slash));
      auto d = slash == std::string::npos ? std::nullopt
                                          : to_int(std::string_view(*meter).substr(slash + 1));
      if (!n || !d) return core::make_error("invalid time-sig:" + *meter + " — e.g. 3/4");
      if (auto set = c.meter.set(1, *n, *d); !set) return set.error();
    }
    if (const std::string* key = command.param("key")) {
      auto parsed = theory::parse_key(*key);
      if (!parsed) return parsed.error();
      c.keys[0] = KeySignature{parsed->sharps, parsed->minor};
    }
    return std::unique_ptr<core::Document>(std::make_unique<MidiDocument>(std::move(song)));
  }

  std::size_t estimated_bytes_for_file(std::size_t file_bytes) const override {
    return file_bytes * kBytesPerFileByte;
  }

  core::Result<std::unique_ptr<core::Document>> load(
      const std::filesystem::path& path, const core::FileBytes& bytes,
      const core::ProgressFn& progress) const override {
    if (progress) progress(0, 0, "parsing");
    auto song = read_song(bytes.view());
    if (!song) return song.error();
    auto document = std::make_unique<MidiDocument>(std::move(*song));
    document->set_fallback_title(path.stem().string());
    return std::unique_ptr<core::Document>(std::move(document));
  }

  core::Result<std::vector<std::string>> run_session_extension(
      const core::SessionCommand& command, core::Document* document,
      core::CallContext& ctx) const override {
    auto* doc = static_cast<MidiDocument*>(document);
    if (doc == nullptr) return core::make_error("no song open", {"midi_session new \"Untitled\""});
    if (command.command == "load-soundfont") {
      if (command.positionals.empty())
        return core::make_error("load-soundfont needs a path",
                                {"load-soundfont /usr/share/sounds/sf2/TimGM6mb.sf2"});
      auto path = ctx.paths.for_reading(command.positionals.front());
      if (!path) return path.error();
      auto presets = render::soundfont_presets(*path);
      if (!presets) return presets.error();
      std::vector<MidiDocument::Preset> kept;
      for (const auto& p : *presets)
        kept.push_back({p.bank, p.program, p.name});
      const std::size_t count = kept.size();
      doc->set_soundfont(path->string(), std::move(kept));
      return std::vector<std::string>{core::created("Loaded " + core::plural(count, "preset") +
                                                    " from " + command.positionals.front())};
    }
    if (command.command == "export") return export_audio(command, *doc, ctx);
    return core::make_error("unknown session command \"" + command.command + "\"");
  }

 private:
  std::string card_;
  core::ParseHooks hooks_;
};

}  // namespace

std::unique_ptr<core::Domain> make_midi_domain() {
  return std::make_unique<MidiDomain>();
}

}  // namespace fcp::midi

#include "domains/midi/render/wav_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/call_scope.hpp"
#include "domains/midi/render/fluid_support.hpp"
#include "domains/midi/render/song_length.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "domains/midi/render/wav_builder.hpp"

namespace fcp::midi::render {
namespace {

constexpr int kMinSampleRate = 8000;  // FluidSynth's synth.sample-rate range
constexpr int kMaxSampleRate = 96000;
constexpr double kMaxGain = 10.0;           // FluidSynth's synth.gain range
constexpr std::size_t kBlockFrames = 4096;  // ~93 ms at 44.1 kHz: the cancel latency
constexpr double kProgressInterval = 1.0;   // seconds of audio between progress calls

// The FluidSynth objects of one render, destroyed in reverse order of declaration.
struct FluidEngine {
  detail::SettingsPtr settings;
  detail::SynthPtr synth;
  detail::PlayerPtr player;
};

std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

// "42.5 s" under a minute, "3:07" from there on.
std::string duration_text(double seconds) {
  if (seconds < 60) return one_decimal(seconds) + " s";
  const auto whole = static_cast<long>(std::round(seconds));
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
  return text;
}

core::Result<void> validate(const RenderOptions& options) {
  if (options.soundfont.empty()) {
    std::vector<std::string> hints;
    if (auto fallback = default_soundfont()) hints.push_back(fallback->string());
    return core::make_error("no SoundFont to render with: load one (load-soundfont)",
                            std::move(hints));
  }
  if (options.sample_rate < kMinSampleRate || options.sample_rate > kMaxSampleRate) {
    return core::make_error(
        "sample rate " + std::to_string(options.sample_rate) + " Hz is outside 8000..96000",
        {"44100"});
  }
  if (!(options.gain >= 0 && options.gain <= kMaxGain)) {
    return core::make_error("gain " + one_decimal(options.gain) + " is outside 0..10", {"0.6"});
  }
  if (!(options.tail_seconds >= 0) || !(options.max_seconds > 0)) {
    return core::make_error("tail_seconds must be 0 or more and max_seconds more than 0");
  }
  return {};
}

// The song plus its tail, cut at max_seconds; songs that are longer on their own are refused.
core::Result<std::uint64_t> output_frames(double song_seconds, const RenderOptions& options) {
  if (song_seconds > options.max_seconds) {
    return core::make_error("the song lasts " + duration_text(song_seconds) +
                            ", longer than the audio export limit of " +
                            duration_text(options.max_seconds));
  }
  const double seconds = std::min(song_seconds + options.tail_seconds, options.max_seconds);
  const auto frames = static_cast<std::uint64_t>(std::ceil(seconds * options.sample_rate));
  if (frames * 4 > kWavMaxDataBytes) {
    return core::make_error("the song is too long for a WAV file at " +
                            std::to_string(options.sample_rate) + " Hz");
  }
  return frames;
}

// Checked before FluidSynth sees the file: it hands files its SF2 loader rejects to
// libinstpatch, which reports through GLib straight to stderr, past FluidSynth's log functions.
core::Result<void> check_soundfont(const std::filesystem::path& soundfont) {
  auto presets = soundfont_presets(soundfont);
  if (!presets) return presets.error();
  if (presets->empty()) {
    return core::make_error("the SoundFont " + soundfont.string() + " has no presets");
  }
  return {};
}

core::Result<detail::SettingsPtr> make_settings(const RenderOptions& options) {
  detail::SettingsPtr settings(new_fluid_settings());
  if (!settings) return core::make_error("FluidSynth could not create its settings");
  fluid_settings_t* s = settings.get();
  const bool ok = fluid_settings_setnum(s, "synth.sample-rate", options.sample_rate) == FLUID_OK &&
                  fluid_settings_setnum(s, "synth.gain", options.gain) == FLUID_OK &&
                  fluid_settings_setint(s, "synth.lock-memory", 0) == FLUID_OK &&
                  fluid_settings_setint(s, "synth.cpu-cores", 1) == FLUID_OK &&
                  fluid_settings_setstr(s, "player.timing-source", "sample") == FLUID_OK;
  if (!ok) return core::make_error("FluidSynth rejected the render settings");
  return settings;
}

// Settings, synth with the SoundFont loaded, and a player holding a copy of the MIDI bytes,
// started: from here on every rendered sample advances the song.
core::Result<FluidEngine> open_engine(std::string_view smf_bytes, const RenderOptions& options,
                                      const detail::FluidLogCapture& log) {
  FluidEngine engine;
  auto settings = make_settings(options);
  if (!settings) return settings.error();
  engine.settings = std::move(*settings);
  engine.synth.reset(new_fluid_synth(engine.settings.get()));
  if (!engine.synth) return core::make_error("FluidSynth could not create a synth" + log.suffix());
  const std::string font = options.soundfont.string();
  if (fluid_synth_sfload(engine.synth.get(), font.c_str(), 1) == FLUID_FAILED) {
    return core::make_error("FluidSynth cannot load the SoundFont " + font + log.suffix());
  }
  engine.player.reset(new_fluid_player(engine.synth.get()));
  if (!engine.player ||
      fluid_player_add_mem(engine.player.get(), smf_bytes.data(), smf_bytes.size()) != FLUID_OK ||
      fluid_player_play(engine.player.get()) != FLUID_OK) {
    return core::make_error("FluidSynth could not start its MIDI player" + log.suffix());
  }
  return engine;
}

// One render's output size and the caller's hooks.
struct RenderJob {
  int sample_rate = 0;
  std::uint64_t total_frames = 0;
  double song_seconds = 0;
  const std::function<void(double, double)>& progress;
  const std::atomic<bool>* cancel = nullptr;

  double seconds(std::uint64_t frames) const { return static_cast<double>(frames) / sample_rate; }
  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
};

// A player that could not parse the file stops at once, while a song never ends before its
// length: checked after the first block, when the player has loaded the file.
bool player_failed(const FluidEngine& engine, const RenderJob& job, std::uint64_t rendered) {
  return job.song_seconds > job.seconds(rendered) &&
         fluid_player_get_status(engine.player.get()) == FLUID_PLAYER_DONE;
}

// Renders the job's frames into `wav`, block by block; the player advances with them.
core::Result<void> render_frames(const FluidEngine& engine, const RenderJob& job, WavBuilder& wav,
                                 const detail::FluidLogCapture& log) {
  const double total_seconds = job.seconds(job.total_frames);
  std::vector<float> block(kBlockFrames * 2);
  double next_progress = kProgressInterval;
  if (job.progress) job.progress(0.0, total_seconds);
  while (wav.frames() < job.total_frames) {
    if (core::call_stop()) {
      if (auto stop =
              core::stop_error("audio rendering (at " + one_decimal(job.seconds(wav.frames())) +
                                   " s of " + one_decimal(total_seconds) + " s)",
                               "no audio was made"))
        return *stop;
    }
    if (job.cancelled()) {
      return core::make_error("audio rendering cancelled at " +
                              one_decimal(job.seconds(wav.frames())) + " s of " +
                              one_decimal(total_seconds) + " s");
    }
    const auto frames =
        static_cast<int>(std::min<std::uint64_t>(kBlockFrames, job.total_frames - wav.frames()));
    if (fluid_synth_write_float(engine.synth.get(), frames, block.data(), 0, 2, block.data(), 1,
                                2) != FLUID_OK) {
      return core::make_error("FluidSynth failed while rendering" + log.suffix());
    }
    if (wav.frames() == 0 && player_failed(engine, job, static_cast<std::uint64_t>(frames))) {
      return core::make_error("FluidSynth could not play the MIDI data" + log.suffix());
    }
    wav.append_stereo(block.data(), static_cast<std::size_t>(frames));
    const double now = job.seconds(wav.frames());
    if (job.progress && (now >= next_progress || wav.frames() == job.total_frames)) {
      job.progress(now, total_seconds);
      next_progress = std::floor(now / kProgressInterval) * kProgressInterval + kProgressInterval;
    }
  }
  return {};
}

}  // namespace

core::Result<std::string> render_wav(std::string_view smf_bytes, const RenderOptions& options,
                                     const std::function<void(double, double)>& progress,
                                     const std::atomic<bool>* cancel, RenderStats* stats) {
  if (auto valid = validate(options); !valid) return valid.error();
  auto length = scan_song_length(smf_bytes);
  if (!length) return length.error();
  auto total_frames = output_frames(length->seconds, options);
  if (!total_frames) return total_frames.error();
  if (auto font = check_soundfont(options.soundfont); !font) return font.error();
  detail::prepare_fluidsynth();
  detail::FluidLogCapture log;
  auto engine = open_engine(smf_bytes, options, log);
  if (!engine) return engine.error();
  const RenderJob job{options.sample_rate, *total_frames, length->seconds, progress, cancel};
  WavBuilder wav(options.sample_rate, *total_frames);
  if (auto rendered = render_frames(*engine, job, wav, log); !rendered) return rendered.error();
  if (stats != nullptr) {
    const double seconds = job.seconds(wav.frames());
    *stats = RenderStats{seconds, std::min(job.song_seconds, seconds), wav.peak(), wav.rms()};
  }
  return wav.finish();
}

}  // namespace fcp::midi::render

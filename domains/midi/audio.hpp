// A song's audio: what is heard (mute, solo, a preview's tracks), a range of bars cut out as a
// song of its own, and the rendering through FluidSynth as WAV, FLAC or Ogg Vorbis, for export
// and preview.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "core/domain.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/render/audio_encoder.hpp"
#include "domains/midi/render/wav_renderer.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

// Audio given in the reply (MCP audio content) is at most this many bytes, whatever its format.
inline constexpr std::size_t kMaxInlineAudioBytes = 4u << 20;

// The tracks not heard: the muted ones and, when some track is solo, the others. With `only`
// given, every track not in it instead (a preview of chosen tracks plays them whatever their mute).
std::set<EntityId> silent_tracks(const Song& song, const std::set<EntityId>& only = {});

// The whole song without the notes of `silent` tracks; everything else is kept (for export).
Song audible_song(const Song& song, const std::set<EntityId>& silent);

// [start, stop) of the song as a song of its own from tick 0, as it sounds there: the tempo in
// force at `start` and the changes within; on each track the last value of every controller, the
// program, bend and pressure before `start` (at 0, in their order) and those within; notes sounding
// in the range, cut to it; SysEx before and within. It lasts stop - start. `silent` tracks keep
// no notes.
Song song_excerpt(const Song& song, Tick start, Tick stop, const std::set<EntityId>& silent);

struct AudioSettings {
  render::AudioFormat format = render::AudioFormat::wav;
  int sample_rate = 44100;
  double tail_seconds = 2.0;  // rendered after the last event so notes ring out
};

struct RenderedAudio {
  std::string bytes;
  render::AudioFormat format = render::AudioFormat::wav;
  render::RenderStats stats;
  std::filesystem::path soundfont;

  std::string mime_type() const { return std::string(render::mime_type(format)); }
  // "7.0 s (5.0 s of music, then 2.0 s of release tail), 1.2 MB WAV, 44100 Hz, peak -10.6 dBFS,
  // TimGM6mb.sf2"
  std::string detail(int sample_rate) const;
};

// The SoundFont a render uses: the loaded one, else the default GM one; an error says how to get
// one.
core::Result<std::filesystem::path> soundfont_for(const MidiDocument& doc);

// The song rendered with `soundfont` in the settings' format (progress: rendered seconds).
core::Result<RenderedAudio> render_audio(const Song& song, const std::filesystem::path& soundfont,
                                         const AudioSettings& settings,
                                         const core::ProgressFn& progress);

// The bytes a WAV of `seconds` (plus the tail) takes at `sample_rate`: 16-bit stereo.
std::size_t wav_bytes(double seconds, const AudioSettings& settings);
// "4 MB", "1.3 MB", "800 KB"
std::string size_text(std::size_t bytes);
// The longest audio that fits kMaxInlineAudioBytes as WAV at `sample_rate`, in whole seconds.
int inline_wav_seconds(int sample_rate);

}  // namespace fcp::midi

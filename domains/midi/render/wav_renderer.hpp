// Audio rendering: a Standard MIDI File played through FluidSynth into a WAV file image.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::midi::render {

struct RenderOptions {
  std::filesystem::path soundfont;  // required: an SF2 file (see default_soundfont())
  int sample_rate = 44100;          // 8000..96000 Hz
  double gain = 0.6;                // FluidSynth master gain, 0..10
  double tail_seconds = 2.0;        // rendered after the last event so notes ring out
  double max_seconds = 60 * 30;     // refuse longer songs
};

struct RenderStats {
  double seconds = 0;       // length of the output
  double song_seconds = 0;  // of which the song itself (its last event); the rest is the tail
  double peak = 0;          // 0..1 of full scale
  double rms = 0;           // 0..1 of full scale; near 0 means silent output
};

// Renders a Standard MIDI File (the bytes a writer produced) to a 16-bit stereo PCM WAV file
// image, entirely in memory, with FluidSynth's own MIDI player timed by the rendered samples.
// The output lasts the song (its last event, through the tempo map) plus tail_seconds; songs
// longer than max_seconds are refused, and the tail is cut to fit max_seconds.
//
// progress(rendered_seconds, total_seconds) is called on the calling thread with 0 first, then
// about every second of audio, and last with rendered == total. When *cancel becomes true the
// render stops within a few milliseconds with an error. `stats`, when given, is filled on success.
//
// Blocking and CPU-bound: run it on a worker thread. Each call owns its FluidSynth objects, so
// concurrent calls on different threads are safe. FluidSynth's log messages never reach stdout
// or stderr; the relevant ones are quoted in the error when a render fails.
core::Result<std::string> render_wav(std::string_view smf_bytes, const RenderOptions& options,
                                     const std::function<void(double, double)>& progress = {},
                                     const std::atomic<bool>* cancel = nullptr,
                                     RenderStats* stats = nullptr);

}  // namespace fcp::midi::render

// The playing length of a Standard MIDI File, from a bounds-checked scan of its bytes: the last
// tick of any track and the tempo map. Deliberately tiny and independent of the SMF library, so
// the renderer can size its output and validate its input before handing the bytes to FluidSynth.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.hpp"

namespace fcp::midi::render {

struct SongLength {
  int ticks_per_quarter = 0;
  int tracks = 0;
  std::uint64_t end_tick = 0;  // the latest event (including End of Track) of any track
  double seconds = 0;          // end_tick through the tempo map (120 bpm until the first tempo)
};

// Scans MThd and every MTrk: events, running status, meta and SysEx lengths. Fails on anything a
// player could not read ("not a Standard MIDI File: …"), and on SMPTE time division, which
// FluidSynth's player does not implement. Tempo changes from every track apply (format 1).
core::Result<SongLength> scan_song_length(std::string_view smf_bytes);

}  // namespace fcp::midi::render

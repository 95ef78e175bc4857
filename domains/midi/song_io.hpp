// Song ⇄ Standard MIDI File: which events become notes, controls, conductor data or raw events,
// and the format 1 file a song is written as.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/midi/smf/smf.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

// A song from a parsed file. Track 0's tempo, time and key signatures, markers and name become
// the conductor (a format 0 file's single track is split into one track per channel); every
// track keeps its name, notes (paired first-in-first-out), controls and other events at their
// ticks and channels.
core::Result<Song> song_from_file(const smf::File& file);
// Format 1: the conductor track (title, tempo map, meter, keys, markers as FF 06, kept events),
// then one track per song track (name, controls, notes, kept events), exact ticks throughout.
smf::File file_from_song(const Song& song);

// Convenience wrappers over read_smf / write_smf.
core::Result<Song> read_song(std::string_view bytes);
std::string write_song(const Song& song);

}  // namespace fcp::midi

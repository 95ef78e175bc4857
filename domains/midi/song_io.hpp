// Song ⇄ Standard MIDI File: which events become notes, controls, conductor data or raw events,
// and the format 1 file a song is written as.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/midi/smf/smf.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

// A song from a parsed file. Track 0's tempo, time and key signatures and markers become the
// conductor, and when track 0 holds no channel messages, all of it (its name is the title);
// a format 0 file's single track is split into one track per channel. Every track keeps its name,
// notes (paired first-in-first-out), controls and other events at their ticks and channels, and
// every event its place in the file (see FilePlace and FileOrigin).
core::Result<Song> song_from_file(const smf::File& file);
// The file of a song. A song read from a file is written back as it was read wherever the song
// still says the same: the file's format, tracks, extra chunks and end-of-track ticks, every event
// at its index among those of its tick, with its bytes (conductor events too, while they still
// say what the conductor says). Edited and new events go where fcp puts new events: at one tick,
// metas and SysEx, controls, note-offs, note-ons. Nothing the model only assumes is added (120
// BPM, 4/4, C major, made-up track names; a note the file never released gets no note-off).
// A song made here is written as format 1: the conductor track (title, meter, keys, tempos,
// markers), then one track per song track.
smf::File file_from_song(const Song& song);

// read_smf then song_from_file, with each track taken into the song as soon as it is read (the
// file's events are never all held at once).
core::Result<Song> read_song(std::string_view bytes);
// write_smf(file_from_song(song)), made and written one file track at a time.
// Inside a call that must stop (core::call_stop: cancelled, past its time limit, the daemon
// shutting down) write_song's file ends after the track it was writing and is incomplete: a
// caller inside a call asks core::stop_error after it and drops the bytes.
std::string write_song(const Song& song);

}  // namespace fcp::midi

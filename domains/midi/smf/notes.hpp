// Pairing note-ons with note-offs: how a track's event stream becomes notes with durations.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "domains/midi/smf/smf.hpp"

namespace fcp::midi::smf {

// One note: indexes into Track::events of its note-on and of the note-off that ends it.
struct NotePair {
  static constexpr std::size_t npos = std::numeric_limits<std::size_t>::max();
  std::size_t on;
  std::size_t off;  // npos when the note is never released
  bool operator==(const NotePair&) const = default;
};

// Pairs each note-on with the first later note-off of the same channel and pitch, first in,
// first out for overlapping same-pitch notes; a note-on with velocity 0 counts as note-off, and a
// note-off with no sounding note is ignored. "Later" means later in the event list, so an off
// at the same tick after a repeated on ends the older note. Pairs come in note-on order.
// O(n) time, no allocation per pitch.
std::vector<NotePair> pair_notes(const Track& track);

}  // namespace fcp::midi::smf

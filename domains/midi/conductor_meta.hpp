// How a song reads the conductor's meta events, and how it writes the ones it makes. Reading and
// saving share these, so that saving can tell which events as read still say what the conductor
// says (and writes those back as they were).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "domains/midi/smf/smf.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

struct Meter {
  int numerator = 4;
  int denominator = 4;
  bool operator==(const Meter&) const = default;
};

// What one event sets, or nullopt when the song does not take it as that kind (it is then kept
// as an event of its own, as read).
std::optional<double> bpm_of(const smf::Event& event);  // FF 51, in BPM
// FF 58 whose denominator a MeterMap of `ppqn` accepts.
std::optional<Meter> meter_of(const smf::Event& event, int ppqn);
std::optional<KeySignature> key_of(const smf::Event& event);  // FF 59, sharps clamped to ±7
bool is_marker(const smf::Event& event);                      // FF 06
bool is_track_name(const smf::Event& event);                  // FF 03

// Which of a track's track-name events (FF 03, in file order, at least one) names it: the first
// with text, else the first (some files start a track with an empty name and name it later).
// The others stay events of their own.
std::size_t naming_event(const std::vector<const smf::Event*>& names);

// The events fcp writes for a conductor value it has no event as read for.
smf::Event tempo_event(Tick tick, double bpm);
smf::Event meter_event(Tick tick, Meter meter);  // 24 MIDI clocks per click, 8 32nds per quarter
smf::Event key_event(Tick tick, KeySignature key);

}  // namespace fcp::midi

// Ticks ↔ seconds for a MIDI file: the tempo changes of all its tracks, merged.
#pragma once

#include <cstdint>
#include <vector>

#include "domains/midi/smf/meta.hpp"
#include "domains/midi/smf/smf.hpp"

namespace fcp::midi::smf {

// Immutable after construction; cheap queries. Copyable value.
class TempoMap {
 public:
  // A stretch of constant tempo starting at `tick`, which falls at `seconds`.
  struct Segment {
    std::uint64_t tick = 0;
    double seconds = 0;
    std::uint32_t us_per_quarter = default_us_per_quarter;
    bool operator==(const Segment&) const = default;
  };

  // From the tempo metas (FF 51, 3-byte payload, non-zero) of all tracks (format 1: conductor
  // and others; format 0: the one track; format 2: all tracks merged too), 120 BPM before the
  // first. Several tempos at one tick: the last one in track order, then event order, wins.
  // SMPTE division: constant ticks per second (29 means 30000/1001 frames per second), tempo
  // metas ignored. A division of 0 ticks per quarter is treated as 1.
  explicit TempoMap(const File& file);

  // Seconds from the start to `tick`. O(log n) in the number of tempo changes.
  double seconds_at(std::uint64_t tick) const;
  // The tick nearest to `seconds` (0 for negative times). O(log n).
  std::uint64_t tick_at(double seconds) const;
  // Microseconds per quarter note in effect at `tick` (after any change at that tick).
  std::uint32_t us_per_quarter_at(std::uint64_t tick) const;
  // The constant-tempo stretches, by tick; the first starts at tick 0. Empty for SMPTE.
  const std::vector<Segment>& segments() const { return segments_; }

 private:
  const Segment& segment_at(std::uint64_t tick) const;

  std::vector<Segment> segments_;
  double ticks_per_quarter_ = 480;
  double smpte_ticks_per_second_ = 0;  // > 0 for SMPTE division
};

}  // namespace fcp::midi::smf

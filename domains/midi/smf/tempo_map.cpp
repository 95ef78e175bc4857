#include "domains/midi/smf/tempo_map.hpp"

#include <algorithm>
#include <cmath>

namespace fcp::midi::smf {
namespace {

struct Change {
  std::uint64_t tick;
  std::uint32_t us_per_quarter;
};

}  // namespace

TempoMap::TempoMap(const File& file) {
  if (file.division.smpte) {
    const double fps =
        file.division.frames_per_second == 29 ? 30000.0 / 1001.0 : file.division.frames_per_second;
    smpte_ticks_per_second_ = std::max(1.0, fps * file.division.ticks_per_frame);
    return;
  }
  ticks_per_quarter_ = std::max(1, file.division.ticks_per_quarter);
  std::vector<Change> changes;
  for (const Track& track : file.tracks) {
    for (const Event& event : track.events) {
      const auto us = tempo_of(event);
      if (us && *us > 0) changes.push_back({event.tick, *us});
    }
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.tick < b.tick; });
  segments_.push_back({});
  for (const Change& change : changes) {
    Segment& last = segments_.back();
    if (change.tick == last.tick) {
      last.us_per_quarter = change.us_per_quarter;
      continue;
    }
    if (change.us_per_quarter == last.us_per_quarter) continue;
    const double seconds = seconds_at(change.tick);
    segments_.push_back({change.tick, seconds, change.us_per_quarter});
  }
}

const TempoMap::Segment& TempoMap::segment_at(std::uint64_t tick) const {
  auto after = std::upper_bound(segments_.begin(), segments_.end(), tick,
                                [](std::uint64_t t, const Segment& s) { return t < s.tick; });
  return *std::prev(after);  // segments_ starts at tick 0
}

double TempoMap::seconds_at(std::uint64_t tick) const {
  if (smpte_ticks_per_second_ > 0) return static_cast<double>(tick) / smpte_ticks_per_second_;
  const Segment& segment = segment_at(tick);
  // One product and one division, each exact or correctly rounded, keep round values exact.
  const double elapsed = static_cast<double>(tick - segment.tick) * segment.us_per_quarter;
  return segment.seconds + elapsed / (ticks_per_quarter_ * 1e6);
}

std::uint64_t TempoMap::tick_at(double seconds) const {
  if (!(seconds > 0)) return 0;
  double ticks = 0;
  if (smpte_ticks_per_second_ > 0) {
    ticks = seconds * smpte_ticks_per_second_;
  } else {
    auto after =
        std::upper_bound(segments_.begin(), segments_.end(), seconds,
                         [](double s, const Segment& segment) { return s < segment.seconds; });
    const Segment& segment = *std::prev(after);
    ticks = static_cast<double>(segment.tick) +
            (seconds - segment.seconds) * ticks_per_quarter_ * 1e6 / segment.us_per_quarter;
  }
  constexpr double max_tick = 18446744073709549568.0;  // the largest double below 2^64
  return static_cast<std::uint64_t>(std::min(std::round(ticks), max_tick));
}

std::uint32_t TempoMap::us_per_quarter_at(std::uint64_t tick) const {
  if (smpte_ticks_per_second_ > 0) return default_us_per_quarter;
  return segment_at(tick).us_per_quarter;
}

}  // namespace fcp::midi::smf

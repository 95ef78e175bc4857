#include "domains/midi/smf/notes.hpp"

#include <array>

namespace fcp::midi::smf {

std::vector<NotePair> pair_notes(const Track& track) {
  constexpr std::size_t none = NotePair::npos;
  constexpr std::size_t keys = std::size_t{16} * 128;  // channel × pitch
  // One FIFO per key, kept as a singly linked list through the pairs: head/tail per key and
  // `next` per pair, all indexes into `pairs`.
  std::array<std::size_t, keys> head;
  std::array<std::size_t, keys> tail;
  head.fill(none);
  tail.fill(none);
  std::vector<std::size_t> next;
  std::vector<NotePair> pairs;

  for (std::size_t i = 0; i < track.events.size(); ++i) {
    const Event& event = track.events[i];
    if (!event.is_channel() || (event.kind() != 0x80 && event.kind() != 0x90)) continue;
    const std::size_t key =
        static_cast<std::size_t>(event.channel()) * 128 + static_cast<std::size_t>(event.data1());
    if (event.is_note_on()) {
      const std::size_t pair = pairs.size();
      pairs.push_back({i, none});
      next.push_back(none);
      if (tail[key] == none) {
        head[key] = pair;
      } else {
        next[tail[key]] = pair;
      }
      tail[key] = pair;
    } else if (event.is_note_off() && head[key] != none) {
      const std::size_t pair = head[key];
      pairs[pair].off = i;
      head[key] = next[pair];
      if (head[key] == none) tail[key] = none;
    }
  }
  return pairs;
}

}  // namespace fcp::midi::smf

// voice_chord: inversions, voicings and slash basses (declared in chords.hpp).
#include <algorithm>
#include <string>

#include "domains/midi/theory/chords.hpp"
#include "domains/midi/theory/pitch.hpp"

namespace fcp::midi::theory {
namespace {

constexpr int lowest_octave = -1;
constexpr int highest_octave = 9;

// Chord tone k lowest: every tone listed before it rises by octaves until it is above tone k.
void invert(std::vector<int>& tones, int inversion) {
  const auto k = static_cast<std::size_t>(inversion);
  for (std::size_t j = 0; j < k; ++j) {
    while (tones[j] <= tones[k])
      tones[j] += 12;
  }
  std::sort(tones.begin(), tones.end());
}

void raise_every_second(std::vector<int>& tones, std::size_t from) {
  for (std::size_t i = from + 1; i < tones.size(); i += 2)
    tones[i] += 12;
}

core::Result<void> apply_voicing(std::vector<int>& tones, Voicing voicing, const Chord& chord) {
  const std::size_t n = tones.size();
  const auto too_few = [&](std::size_t needed) {
    return core::make_error(std::string(voicing_name(voicing)) + " needs " +
                                std::to_string(needed) + " or more voices; " + chord.symbol +
                                " has " + std::to_string(n),
                            {"voicing:close", "voicing:open"});
  };
  switch (voicing) {
    case Voicing::close:
      break;
    case Voicing::open:
      raise_every_second(tones, 0);
      break;
    case Voicing::drop2:
      if (n < 3) return too_few(3);
      tones[n - 2] -= 12;
      break;
    case Voicing::drop3:
      if (n < 4) return too_few(4);
      tones[n - 3] -= 12;
      break;
    case Voicing::spread:
      tones[0] -= 12;
      raise_every_second(tones, 1);
      break;
  }
  std::sort(tones.begin(), tones.end());
  return {};
}

// The highest pitch of pitch class `pc` strictly below `pitch`.
int below(int pitch, int pc) {
  int distance = ((pitch - pc) % 12 + 12) % 12;
  return pitch - (distance == 0 ? 12 : distance);
}

core::Error out_of_range(const Chord& chord, int octave, const std::vector<int>& pitches) {
  const int lo = pitches.front();
  const int hi = pitches.back();
  const bool high = hi > highest_pitch;
  const int shift = high ? -((hi - highest_pitch + 11) / 12) : (lowest_pitch - lo + 11) / 12;
  std::vector<std::string> hints;
  const int fixed = octave + shift;
  if (lo + 12 * shift >= lowest_pitch && hi + 12 * shift <= highest_pitch &&
      fixed >= lowest_octave && fixed <= highest_octave)
    hints.push_back("octave:" + std::to_string(fixed));
  return core::make_error(chord.symbol + " at octave " + std::to_string(octave) + " reaches MIDI " +
                              std::to_string(high ? hi : lo) +
                              (high ? ", above G9 (127)" : ", below C-1 (0)"),
                          std::move(hints));
}

}  // namespace

core::Result<std::vector<int>> voice_chord(const Chord& chord, int octave, int inversion,
                                           Voicing voicing) {
  if (octave < lowest_octave || octave > highest_octave) {
    return core::make_error("octave " + std::to_string(octave) + " is out of range (-1..9)",
                            {"octave:4"});
  }
  if (chord.intervals.empty()) return core::make_error("chord " + chord.symbol + " has no notes");
  const int root = (octave + 1) * 12 + chord.root;
  std::vector<int> tones;
  for (int interval : chord.intervals) {
    if (!chord.bass || (root + interval) % 12 != *chord.bass) tones.push_back(root + interval);
  }
  if (tones.empty()) tones.push_back(root);  // "C5/C": keep the root above its own bass
  const int n = static_cast<int>(tones.size());
  if (inversion < 0 || inversion >= n) {
    return core::make_error(chord.symbol + " has " + std::to_string(n) +
                                " voices, so inversions run 0.." + std::to_string(n - 1) +
                                ", not " + std::to_string(inversion),
                            {"inv:" + std::to_string(std::clamp(inversion, 0, n - 1))});
  }
  invert(tones, inversion);
  if (auto done = apply_voicing(tones, voicing, chord); !done) return done.error();
  if (chord.bass) tones.insert(tones.begin(), below(tones.front(), *chord.bass));
  if (tones.front() < lowest_pitch || tones.back() > highest_pitch)
    return out_of_range(chord, octave, tones);
  return tones;
}

}  // namespace fcp::midi::theory

// Standard MIDI Files written byte by byte for the render tests, independent of any SMF library.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace fcp::midi::render::testing {

inline std::string vlq(std::uint32_t value) {
  std::string out(1, static_cast<char>(value & 0x7F));
  while ((value >>= 7) != 0)
    out.insert(out.begin(), static_cast<char>(0x80 | (value & 0x7F)));
  return out;
}

inline std::string be(std::uint32_t value, int bytes) {
  std::string out;
  for (int i = bytes - 1; i >= 0; --i)
    out += static_cast<char>((value >> (8 * i)) & 0xFF);
  return out;
}

// The events of one MTrk chunk; every call takes the delta time in ticks from the previous event.
class Track {
 public:
  Track& tempo_bpm(std::uint32_t delta, double bpm) {
    return raw(delta, "\xFF\x51\x03" + be(static_cast<std::uint32_t>(60e6 / bpm), 3));
  }
  Track& control(std::uint32_t delta, int channel, int controller, int value) {
    return raw(delta, bytes({0xB0 | channel, controller, value}));
  }
  Track& program(std::uint32_t delta, int channel, int program) {
    return raw(delta, bytes({0xC0 | channel, program}));
  }
  Track& note_on(std::uint32_t delta, int channel, int key, int velocity) {
    return raw(delta, bytes({0x90 | channel, key, velocity}));
  }
  Track& note_off(std::uint32_t delta, int channel, int key) {
    return raw(delta, bytes({0x80 | channel, key, 0}));
  }
  Track& end(std::uint32_t delta = 0) { return raw(delta, std::string("\xFF\x2F\x00", 3)); }
  Track& raw(std::uint32_t delta, const std::string& event) {
    events_ += vlq(delta) + event;
    return *this;
  }
  std::string chunk() const {
    return "MTrk" + be(static_cast<std::uint32_t>(events_.size()), 4) + events_;
  }

 private:
  static std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (int v : values)
      out += static_cast<char>(v);
    return out;
  }
  std::string events_;
};

inline std::string smf(int division, const std::vector<Track>& tracks) {
  std::string out = "MThd" + be(6, 4) + be(tracks.size() > 1 ? 1 : 0, 2) +
                    be(static_cast<std::uint32_t>(tracks.size()), 2) +
                    be(static_cast<std::uint32_t>(division), 2);
  for (const Track& track : tracks)
    out += track.chunk();
  return out;
}

constexpr int kDivision = 480;

// A piano melody of `beats` quarter notes (C major scale, repeating) at `bpm`: beats * 60 / bpm s.
inline std::string melody(double bpm, int beats) {
  static const int kScale[] = {60, 62, 64, 65, 67, 69, 71, 72};
  Track track;
  track.tempo_bpm(0, bpm).program(0, 0, 0);
  for (int i = 0; i < beats; ++i) {
    track.note_on(0, 0, kScale[i % 8], 100).note_off(kDivision, 0, kScale[i % 8]);
  }
  return smf(kDivision, {track.end()});
}

// Tempo, programs and an End of Track `beats` quarters later: a song of rests.
inline std::string rests(double bpm, int beats) {
  Track track;
  track.tempo_bpm(0, bpm).program(0, 0, 0).program(0, 9, 0);
  return smf(kDivision, {track.end(static_cast<std::uint32_t>(beats * kDivision))});
}

// A format-1 band arrangement of `beats` beats at 120 bpm: piano triads, bass and hi-hats on
// separate tracks, for timing renders under a realistic voice count.
inline std::string band(int beats) {
  Track conductor;
  conductor.tempo_bpm(0, 120).end(static_cast<std::uint32_t>(beats * kDivision));
  Track piano, bass, drums;
  piano.program(0, 0, 0);
  bass.program(0, 1, 33);
  for (int i = 0; i < beats; ++i) {
    const int root = 48 + (i / 4 % 4) * 2;
    piano.note_on(0, 0, root + 12, 90).note_on(0, 0, root + 16, 90).note_on(0, 0, root + 19, 90);
    piano.note_off(kDivision, 0, root + 12).note_off(0, 0, root + 16).note_off(0, 0, root + 19);
    bass.note_on(0, 1, root - 12, 100).note_off(kDivision, 1, root - 12);
    drums.note_on(0, 9, i % 2 == 0 ? 36 : 38, 110).note_on(0, 9, 42, 80);
    drums.note_off(kDivision / 2, 9, 42).note_on(0, 9, 42, 70).note_off(kDivision / 2, 9, 42);
    drums.note_off(0, 9, i % 2 == 0 ? 36 : 38);
  }
  return smf(kDivision, {conductor, piano.end(), bass.end(), drums.end()});
}

}  // namespace fcp::midi::render::testing

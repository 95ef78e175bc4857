// How replies and views write the song's values: tempo, meter, key and event text. One spelling
// for every query, status line and digest.
#pragma once

#include <string>
#include <string_view>

#include "domains/midi/song.hpp"

namespace fcp::midi {

// "120", "93.75": whole BPM without decimals, else two.
std::string bpm_text(double bpm);
// "E minor", "Bb major"; "sharps:N" outside ±7.
std::string key_text(const KeySignature& key);
// "3/4"
std::string meter_text(int numerator, int denominator);
// A text or marker event's text in double quotes, control bytes and invalid UTF-8 escaped (a
// reply must be valid UTF-8), at most 80 characters ("…" marks the cut).
std::string quoted_text(std::string_view text);

}  // namespace fcp::midi

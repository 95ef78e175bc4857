// Reading and building the meta events (and common channel messages) of the SMF event model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domains/midi/smf/smf.hpp"

namespace fcp::midi::smf {

// Meta event types (the byte after FF) defined by SMF 1.0 and its recommended practices.
namespace meta {
inline constexpr std::uint8_t sequence_number = 0x00;
inline constexpr std::uint8_t text = 0x01;
inline constexpr std::uint8_t copyright = 0x02;
inline constexpr std::uint8_t track_name = 0x03;
inline constexpr std::uint8_t instrument_name = 0x04;
inline constexpr std::uint8_t lyric = 0x05;
inline constexpr std::uint8_t marker = 0x06;
inline constexpr std::uint8_t cue_point = 0x07;
inline constexpr std::uint8_t program_name = 0x08;
inline constexpr std::uint8_t device_name = 0x09;
inline constexpr std::uint8_t channel_prefix = 0x20;
inline constexpr std::uint8_t port = 0x21;
inline constexpr std::uint8_t end_of_track = 0x2F;
inline constexpr std::uint8_t tempo = 0x51;
inline constexpr std::uint8_t smpte_offset = 0x54;
inline constexpr std::uint8_t time_signature = 0x58;
inline constexpr std::uint8_t key_signature = 0x59;
inline constexpr std::uint8_t sequencer_specific = 0x7F;
}  // namespace meta

// The default tempo when a file has none: 120 BPM.
inline constexpr std::uint32_t default_us_per_quarter = 500'000;

// FF 58: numerator / 2^denominator_power, MIDI clocks per metronome click, 32nds per quarter.
struct TimeSignature {
  int numerator = 4;
  int denominator_power = 2;
  int clocks_per_click = 24;
  int thirty_seconds_per_quarter = 8;
  // 2^denominator_power, or 0 when the power is beyond 30 (a nonsense file value).
  int denominator() const { return denominator_power <= 30 ? 1 << denominator_power : 0; }
  bool operator==(const TimeSignature&) const = default;
};

// FF 59: sharps (> 0) or flats (< 0), -7..7 in valid files, and major/minor.
struct KeySignature {
  int sharps_flats = 0;
  bool minor = false;
  bool operator==(const KeySignature&) const = default;
};

// The meta type when `event` is FF `type`, for tests like `is_meta(e, meta::marker)`.
inline bool is_meta(const Event& event, std::uint8_t type) {
  return event.is_meta() && event.meta_type == type;
}

// The raw text bytes of FF 01..0F (text, copyright, track name, …), else nullopt. SMF text has
// no declared encoding; the bytes are returned as stored.
std::optional<std::string_view> text_of(const Event& event);
// Microseconds per quarter note of FF 51 with a 3-byte payload, else nullopt.
std::optional<std::uint32_t> tempo_of(const Event& event);
// FF 58 with a 4-byte payload, else nullopt.
std::optional<TimeSignature> time_signature_of(const Event& event);
// FF 59 with a 2-byte payload (sf read as signed, mi != 0 is minor), else nullopt.
std::optional<KeySignature> key_signature_of(const Event& event);
// Pitch bend 0xEn as -8192..8191 (0 is centre), else nullopt.
std::optional<int> pitch_bend_of(const Event& event);

// BPM ↔ µs per quarter note (rounded to the nearest microsecond, clamped to 1..0xFFFFFF).
double bpm_from_us(std::uint32_t us_per_quarter);
std::uint32_t us_from_bpm(double bpm);

// Builders. Each returns one Event at `tick`; values are stored as given, truncated to the
// field's width (callers validate ranges; the writer keeps the stream valid regardless).
Event make_meta(std::uint8_t type, std::string data, std::uint64_t tick = 0);
// FF `type` (0x01..0x0F) with `text` as its bytes.
Event make_text(std::uint8_t type, std::string_view text, std::uint64_t tick = 0);
Event make_track_name(std::string_view name, std::uint64_t tick = 0);  // FF 03
Event make_marker(std::string_view text, std::uint64_t tick = 0);      // FF 06
Event make_lyric(std::string_view text, std::uint64_t tick = 0);       // FF 05
Event make_tempo(std::uint32_t us_per_quarter,
                 std::uint64_t tick = 0);  // FF 51, clamped to 24 bits
// FF 58 with 24 clocks per click and 8 32nds per quarter.
Event make_time_signature(int numerator, int denominator_power, std::uint64_t tick = 0);
Event make_time_signature(const TimeSignature& signature, std::uint64_t tick = 0);
// FF 59: sharps_flats -7..7, minor or major.
Event make_key_signature(int sharps_flats, bool minor, std::uint64_t tick = 0);
Event make_end_of_track(std::uint64_t tick = 0);  // FF 2F; Track keeps it in end_tick instead

// Channel messages; channel 0..15, data values 0..127 (masked to 7 bits).
Event make_note_on(int channel, int pitch, int velocity, std::uint64_t tick = 0);
Event make_note_off(int channel, int pitch, int velocity, std::uint64_t tick = 0);  // 0x8n
Event make_control_change(int channel, int controller, int value, std::uint64_t tick = 0);
Event make_program_change(int channel, int program, std::uint64_t tick = 0);
Event make_channel_pressure(int channel, int pressure, std::uint64_t tick = 0);
Event make_poly_pressure(int channel, int pitch, int pressure, std::uint64_t tick = 0);
// `value` -8192..8191, clamped.
Event make_pitch_bend(int channel, int value, std::uint64_t tick = 0);
// A complete SysEx message: F0 event whose payload is `body` (the bytes between F0 and F7)
// followed by F7.
Event make_sysex(std::string_view body, std::uint64_t tick = 0);

}  // namespace fcp::midi::smf

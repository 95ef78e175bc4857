#include "domains/midi/smf/meta.hpp"

#include <algorithm>
#include <cmath>

namespace fcp::midi::smf {
namespace {

int byte_at(const Event& event, std::size_t index) {
  return static_cast<unsigned char>(event.data[index]);
}

char data_byte(int value) {
  return static_cast<char>(value & 0x7F);
}

Event channel_message(int kind, int channel, std::string data, std::uint64_t tick) {
  Event event;
  event.tick = tick;
  event.status = static_cast<std::uint8_t>(kind | (channel & 0x0F));
  event.data = std::move(data);
  return event;
}

}  // namespace

std::optional<std::string_view> text_of(const Event& event) {
  if (!event.is_meta() || event.meta_type < 0x01 || event.meta_type > 0x0F) return std::nullopt;
  return std::string_view(event.data);
}

std::optional<std::uint32_t> tempo_of(const Event& event) {
  if (!is_meta(event, meta::tempo) || event.data.size() != 3) return std::nullopt;
  return static_cast<std::uint32_t>((byte_at(event, 0) << 16) | (byte_at(event, 1) << 8) |
                                    byte_at(event, 2));
}

std::optional<TimeSignature> time_signature_of(const Event& event) {
  if (!is_meta(event, meta::time_signature) || event.data.size() != 4) return std::nullopt;
  return TimeSignature{byte_at(event, 0), byte_at(event, 1), byte_at(event, 2), byte_at(event, 3)};
}

std::optional<KeySignature> key_signature_of(const Event& event) {
  if (!is_meta(event, meta::key_signature) || event.data.size() != 2) return std::nullopt;
  return KeySignature{static_cast<signed char>(event.data[0]), event.data[1] != 0};
}

std::optional<int> pitch_bend_of(const Event& event) {
  if (!event.is_channel() || event.kind() != 0xE0 || event.data.size() != 2) return std::nullopt;
  return (event.data2() << 7 | event.data1()) - 8192;
}

double bpm_from_us(std::uint32_t us_per_quarter) {
  return 60'000'000.0 / std::max<std::uint32_t>(us_per_quarter, 1);
}

std::uint32_t us_from_bpm(double bpm) {
  if (!(bpm > 0)) return 0xFFFFFF;
  return static_cast<std::uint32_t>(std::clamp(std::round(60'000'000.0 / bpm), 1.0, 16777215.0));
}

Event make_meta(std::uint8_t type, std::string data, std::uint64_t tick) {
  Event event;
  event.tick = tick;
  event.status = 0xFF;
  event.meta_type = type;
  event.data = std::move(data);
  return event;
}

Event make_text(std::uint8_t type, std::string_view text, std::uint64_t tick) {
  return make_meta(type, std::string(text), tick);
}

Event make_track_name(std::string_view name, std::uint64_t tick) {
  return make_text(meta::track_name, name, tick);
}

Event make_marker(std::string_view text, std::uint64_t tick) {
  return make_text(meta::marker, text, tick);
}

Event make_lyric(std::string_view text, std::uint64_t tick) {
  return make_text(meta::lyric, text, tick);
}

Event make_tempo(std::uint32_t us_per_quarter, std::uint64_t tick) {
  const std::uint32_t us = std::min<std::uint32_t>(us_per_quarter, 0xFFFFFF);
  return make_meta(meta::tempo,
                   {static_cast<char>(us >> 16), static_cast<char>((us >> 8) & 0xFF),
                    static_cast<char>(us & 0xFF)},
                   tick);
}

Event make_time_signature(int numerator, int denominator_power, std::uint64_t tick) {
  return make_time_signature(TimeSignature{numerator, denominator_power, 24, 8}, tick);
}

Event make_time_signature(const TimeSignature& signature, std::uint64_t tick) {
  return make_meta(
      meta::time_signature,
      {static_cast<char>(signature.numerator), static_cast<char>(signature.denominator_power),
       static_cast<char>(signature.clocks_per_click),
       static_cast<char>(signature.thirty_seconds_per_quarter)},
      tick);
}

Event make_key_signature(int sharps_flats, bool minor, std::uint64_t tick) {
  return make_meta(meta::key_signature,
                   {static_cast<char>(sharps_flats), static_cast<char>(minor ? 1 : 0)}, tick);
}

Event make_end_of_track(std::uint64_t tick) {
  return make_meta(meta::end_of_track, {}, tick);
}

Event make_note_on(int channel, int pitch, int velocity, std::uint64_t tick) {
  return channel_message(0x90, channel, {data_byte(pitch), data_byte(velocity)}, tick);
}

Event make_note_off(int channel, int pitch, int velocity, std::uint64_t tick) {
  return channel_message(0x80, channel, {data_byte(pitch), data_byte(velocity)}, tick);
}

Event make_control_change(int channel, int controller, int value, std::uint64_t tick) {
  return channel_message(0xB0, channel, {data_byte(controller), data_byte(value)}, tick);
}

Event make_program_change(int channel, int program, std::uint64_t tick) {
  return channel_message(0xC0, channel, {data_byte(program)}, tick);
}

Event make_channel_pressure(int channel, int pressure, std::uint64_t tick) {
  return channel_message(0xD0, channel, {data_byte(pressure)}, tick);
}

Event make_poly_pressure(int channel, int pitch, int pressure, std::uint64_t tick) {
  return channel_message(0xA0, channel, {data_byte(pitch), data_byte(pressure)}, tick);
}

Event make_pitch_bend(int channel, int value, std::uint64_t tick) {
  const int raw = std::clamp(value, -8192, 8191) + 8192;
  return channel_message(0xE0, channel, {data_byte(raw), data_byte(raw >> 7)}, tick);
}

Event make_sysex(std::string_view body, std::uint64_t tick) {
  Event event;
  event.tick = tick;
  event.status = 0xF0;
  event.data.reserve(body.size() + 1);
  event.data.append(body);
  event.data.push_back('\xF7');
  return event;
}

}  // namespace fcp::midi::smf

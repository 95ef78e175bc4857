#include "domains/midi/conductor_meta.hpp"

#include <algorithm>

#include "domains/midi/smf/meta.hpp"

namespace fcp::midi {
namespace {

int byte(const std::string& data, std::size_t i) {
  return i < data.size() ? static_cast<unsigned char>(data[i]) : 0;
}

}  // namespace

// Longer payloads than the spec's are read by their first bytes, as players do.
std::optional<double> bpm_of(const smf::Event& event) {
  if (!smf::is_meta(event, smf::meta::tempo) || event.data.size() < 3) return std::nullopt;
  const int us = (byte(event.data, 0) << 16) | (byte(event.data, 1) << 8) | byte(event.data, 2);
  if (us == 0) return std::nullopt;
  return smf::bpm_from_us(static_cast<std::uint32_t>(us));
}

std::optional<Meter> meter_of(const smf::Event& event, int ppqn) {
  if (!smf::is_meta(event, smf::meta::time_signature) || event.data.size() < 2) return std::nullopt;
  const int numerator = byte(event.data, 0);
  const int power = byte(event.data, 1);
  if (numerator < 1 || power > 6) return std::nullopt;
  const Meter meter{numerator, 1 << power};
  // The beat must be a whole number of ticks (theory::MeterMap::set refuses it otherwise).
  if ((4 * std::clamp(ppqn, 1, 0x7FFF)) % meter.denominator != 0) return std::nullopt;
  return meter;
}

std::optional<KeySignature> key_of(const smf::Event& event) {
  if (!smf::is_meta(event, smf::meta::key_signature) || event.data.size() < 2) return std::nullopt;
  const int raw = byte(event.data, 0);
  const int sharps = raw < 0x80 ? raw : raw - 0x100;  // a signed byte
  return KeySignature{std::clamp(sharps, -7, 7), byte(event.data, 1) != 0};
}

bool is_marker(const smf::Event& event) {
  return smf::is_meta(event, smf::meta::marker);
}

bool is_track_name(const smf::Event& event) {
  return smf::is_meta(event, smf::meta::track_name);
}

std::size_t naming_event(const std::vector<const smf::Event*>& names) {
  const auto named = std::find_if(names.begin(), names.end(),
                                  [](const smf::Event* name) { return !name->data.empty(); });
  return named == names.end() ? 0 : static_cast<std::size_t>(named - names.begin());
}

smf::Event tempo_event(Tick tick, double bpm) {
  return smf::make_tempo(smf::us_from_bpm(bpm), tick);
}

smf::Event meter_event(Tick tick, Meter meter) {
  int power = 0;
  while ((1 << power) < meter.denominator)
    ++power;
  return smf::make_time_signature(meter.numerator, power, tick);
}

smf::Event key_event(Tick tick, KeySignature key) {
  return smf::make_key_signature(key.sharps, key.minor, tick);
}

}  // namespace fcp::midi

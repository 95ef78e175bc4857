#include "domains/midi/render/wav_builder.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace fcp::midi::render {
namespace {

constexpr int kChannels = 2;
constexpr int kBytesPerSample = 2;
constexpr int kBlockAlign = kChannels * kBytesPerSample;
constexpr double kFullScale = 32767.0;

void put_u32le(std::string& out, std::size_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out[at + i] = static_cast<char>((value >> (8 * i)) & 0xFFU);
}

void put_u16le(std::string& out, std::size_t at, std::uint16_t value) {
  out[at] = static_cast<char>(value & 0xFFU);
  out[at + 1] = static_cast<char>(value >> 8);
}

void put_tag(std::string& out, std::size_t at, const char (&tag)[5]) {
  out.replace(at, 4, tag, 4);
}

}  // namespace

WavBuilder::WavBuilder(int sample_rate, std::size_t expected_frames)
    : bytes_(kWavHeaderSize, '\0') {
  bytes_.reserve(kWavHeaderSize + expected_frames * kBlockAlign);
  put_tag(bytes_, 0, "RIFF");
  put_tag(bytes_, 8, "WAVE");
  put_tag(bytes_, 12, "fmt ");
  put_u32le(bytes_, 16, 16);  // fmt payload size for PCM
  put_u16le(bytes_, 20, 1);   // WAVE_FORMAT_PCM
  put_u16le(bytes_, 22, kChannels);
  put_u32le(bytes_, 24, static_cast<std::uint32_t>(sample_rate));
  put_u32le(bytes_, 28, static_cast<std::uint32_t>(sample_rate * kBlockAlign));
  put_u16le(bytes_, 32, kBlockAlign);
  put_u16le(bytes_, 34, 8 * kBytesPerSample);
  put_tag(bytes_, 36, "data");
}

void WavBuilder::append_stereo(const float* interleaved, std::size_t frames) {
  const std::size_t samples = frames * kChannels;
  const std::size_t at = bytes_.size();
  bytes_.resize(at + samples * kBytesPerSample);
  for (std::size_t i = 0; i < samples; ++i) {
    const double clipped = std::clamp(static_cast<double>(interleaved[i]), -1.0, 1.0);
    const auto quantised = static_cast<std::int16_t>(std::lrint(clipped * kFullScale));
    const double level = quantised / kFullScale;
    peak_ = std::max(peak_, std::abs(level));
    sum_of_squares_ += level * level;
    put_u16le(bytes_, at + i * kBytesPerSample, static_cast<std::uint16_t>(quantised));
  }
  frames_ += frames;
}

double WavBuilder::rms() const {
  return frames_ == 0 ? 0.0 : std::sqrt(sum_of_squares_ / static_cast<double>(frames_ * kChannels));
}

std::string WavBuilder::finish() {
  const auto data_bytes = static_cast<std::uint32_t>(bytes_.size() - kWavHeaderSize);
  put_u32le(bytes_, 4, data_bytes + static_cast<std::uint32_t>(kWavHeaderSize - 8));
  put_u32le(bytes_, 40, data_bytes);
  frames_ = 0;
  peak_ = 0;
  sum_of_squares_ = 0;
  return std::exchange(bytes_, std::string());
}

}  // namespace fcp::midi::render

// The WAV container: header fields, little-endian 16-bit samples, clipping and level statistics.
#include "domains/midi/render/wav_builder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace fcp::midi::render {
namespace {

std::uint32_t u32(const std::string& bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | static_cast<std::uint8_t>(bytes[at + i]);
  return v;
}

std::uint16_t u16(const std::string& bytes, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<std::uint8_t>(bytes[at]) |
                                    (static_cast<std::uint8_t>(bytes[at + 1]) << 8));
}

std::int16_t sample(const std::string& bytes, std::size_t index) {
  return static_cast<std::int16_t>(u16(bytes, kWavHeaderSize + 2 * index));
}

TEST(WavBuilder, EmptyFileHasACompleteHeader) {
  WavBuilder builder(22050);
  const std::string wav = builder.finish();
  ASSERT_EQ(wav.size(), 44U);
  EXPECT_EQ(wav.substr(0, 4), "RIFF");
  EXPECT_EQ(u32(wav, 4), 36U);
  EXPECT_EQ(wav.substr(8, 8), "WAVEfmt ");
  EXPECT_EQ(u32(wav, 16), 16U);
  EXPECT_EQ(u16(wav, 20), 1);  // PCM
  EXPECT_EQ(u16(wav, 22), 2);
  EXPECT_EQ(u32(wav, 24), 22050U);
  EXPECT_EQ(u32(wav, 28), 22050U * 4);
  EXPECT_EQ(u16(wav, 32), 4);
  EXPECT_EQ(u16(wav, 34), 16);
  EXPECT_EQ(wav.substr(36, 4), "data");
  EXPECT_EQ(u32(wav, 40), 0U);
}

TEST(WavBuilder, SamplesAreLittleEndianClippedAndCounted) {
  WavBuilder builder(44100);
  const std::vector<float> frames = {0.5F, -0.5F, 2.0F, -3.0F, 0.0F, 1.0F / 32767};
  builder.append_stereo(frames.data(), 2);
  builder.append_stereo(frames.data() + 4, 1);
  EXPECT_EQ(builder.frames(), 3U);
  EXPECT_DOUBLE_EQ(builder.peak(), 1.0);
  const std::string wav = builder.finish();
  ASSERT_EQ(wav.size(), 44U + 12);
  EXPECT_EQ(u32(wav, 4), 36U + 12);
  EXPECT_EQ(u32(wav, 40), 12U);
  EXPECT_EQ(static_cast<std::uint8_t>(wav[44]), 0x00);  // 16384 = 0x4000, low byte first
  EXPECT_EQ(static_cast<std::uint8_t>(wav[45]), 0x40);
  EXPECT_EQ(sample(wav, 0), 16384);
  EXPECT_EQ(sample(wav, 1), -16384);
  EXPECT_EQ(sample(wav, 2), 32767);
  EXPECT_EQ(sample(wav, 3), -32767);
  EXPECT_EQ(sample(wav, 4), 0);
  EXPECT_EQ(sample(wav, 5), 1);
}

TEST(WavBuilder, RmsOfAFullScaleSquareWaveIsOne) {
  WavBuilder builder(8000);
  std::vector<float> frames;
  for (int i = 0; i < 100; ++i) {
    const float v = i % 2 == 0 ? 1.0F : -1.0F;
    frames.insert(frames.end(), {v, v});
  }
  builder.append_stereo(frames.data(), 100);
  EXPECT_DOUBLE_EQ(builder.rms(), 1.0);
  WavBuilder half(8000);
  const std::vector<float> quiet = {0.5F, 0.0F};
  half.append_stereo(quiet.data(), 1);
  EXPECT_NEAR(half.rms(), std::sqrt(0.125), 1e-4);
  WavBuilder silent(8000);
  EXPECT_EQ(silent.rms(), 0.0);
}

}  // namespace
}  // namespace fcp::midi::render

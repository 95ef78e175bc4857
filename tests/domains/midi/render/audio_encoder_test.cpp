// A rendered WAV re-encoded as FLAC and Ogg Vorbis: the streams are read back here from their own
// headers (FLAC STREAMINFO, the Vorbis identification header), independent of libsndfile.
#include "domains/midi/render/audio_encoder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "domains/midi/render/wav_builder.hpp"

namespace fcp::midi::render {
namespace {

constexpr int kRate = 22050;
constexpr std::size_t kFrames = kRate / 2;  // half a second

// Half a second of a 440 Hz tone, as render_wav makes WAVs.
std::string tone_wav() {
  WavBuilder wav(kRate, kFrames);
  std::vector<float> frames(kFrames * 2);
  for (std::size_t i = 0; i < kFrames; ++i) {
    const auto value = static_cast<float>(
        0.5 * std::sin(2 * std::numbers::pi * 440.0 * static_cast<double>(i) / kRate));
    frames[2 * i] = frames[2 * i + 1] = value;
  }
  wav.append_stereo(frames.data(), kFrames);
  return wav.finish();
}

std::uint64_t bits(const std::string& bytes, std::size_t bit_offset, int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) {
    const std::size_t bit = bit_offset + static_cast<std::size_t>(i);
    const auto byte = static_cast<std::uint8_t>(bytes.at(bit / 8));
    value = (value << 1) | ((byte >> (7 - bit % 8)) & 1U);
  }
  return value;
}

TEST(AudioEncoder, FormatsByNameAndMimeType) {
  EXPECT_EQ(audio_format_named("wav"), AudioFormat::wav);
  EXPECT_EQ(audio_format_named("flac"), AudioFormat::flac);
  EXPECT_EQ(audio_format_named("ogg"), AudioFormat::ogg);
  EXPECT_EQ(audio_format_named("mp3"), std::nullopt);
  EXPECT_EQ(mime_type(AudioFormat::wav), "audio/wav");
  EXPECT_EQ(mime_type(AudioFormat::flac), "audio/flac");
  EXPECT_EQ(mime_type(AudioFormat::ogg), "audio/ogg");
  EXPECT_TRUE(format_available(AudioFormat::wav));
}

TEST(AudioEncoder, WavComesBackAsItIs) {
  const std::string wav = tone_wav();
  EXPECT_EQ(encode_wav(wav, AudioFormat::wav).value(), wav);
}

// FLAC: the STREAMINFO block says the rate, channels, bits and every frame of the WAV.
TEST(AudioEncoder, FlacKeepsEverySample) {
  if (!format_available(AudioFormat::flac)) GTEST_SKIP() << "libsndfile without FLAC";
  const std::string wav = tone_wav();
  const auto flac = encode_wav(wav, AudioFormat::flac);
  ASSERT_TRUE(flac) << flac.error().message;
  ASSERT_GT(flac->size(), 42u);
  EXPECT_EQ(flac->substr(0, 4), "fLaC");
  EXPECT_EQ(static_cast<std::uint8_t>((*flac)[4]) & 0x7F, 0) << "STREAMINFO comes first";
  const std::size_t info = 8 * 8;  // the STREAMINFO payload, in bits
  EXPECT_EQ(bits(*flac, info + 80, 20), static_cast<std::uint64_t>(kRate));
  EXPECT_EQ(bits(*flac, info + 100, 3) + 1, 2u);   // channels
  EXPECT_EQ(bits(*flac, info + 103, 5) + 1, 16u);  // bits per sample
  EXPECT_EQ(bits(*flac, info + 108, 36), kFrames);
  EXPECT_LT(flac->size(), wav.size());
}

// Ogg Vorbis: an Ogg page whose first packet is the Vorbis identification header.
TEST(AudioEncoder, OggVorbisStream) {
  if (!format_available(AudioFormat::ogg)) GTEST_SKIP() << "libsndfile without Ogg Vorbis";
  const std::string wav = tone_wav();
  const auto ogg = encode_wav(wav, AudioFormat::ogg);
  ASSERT_TRUE(ogg) << ogg.error().message;
  EXPECT_EQ(ogg->substr(0, 4), "OggS");
  const auto header = ogg->find("\x01vorbis");
  ASSERT_NE(header, std::string::npos);
  EXPECT_EQ(static_cast<int>((*ogg)[header + 11]), 2);  // channels
  std::uint32_t rate = 0;
  for (int i = 3; i >= 0; --i)
    rate = (rate << 8) | static_cast<std::uint8_t>((*ogg)[header + 12 + i]);
  EXPECT_EQ(rate, static_cast<std::uint32_t>(kRate));
  EXPECT_LT(ogg->size(), wav.size() / 4);
}

TEST(AudioEncoder, NotAWavIsAnError) {
  if (!format_available(AudioFormat::flac)) GTEST_SKIP() << "libsndfile without FLAC";
  const auto bad = encode_wav("not a wav file at all", AudioFormat::flac);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("cannot read the rendered WAV"), std::string::npos);
}

}  // namespace
}  // namespace fcp::midi::render

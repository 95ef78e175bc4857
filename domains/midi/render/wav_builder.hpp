// A 16-bit stereo PCM WAV file image built in memory from float samples, with level statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fcp::midi::render {

// Bytes before the samples: RIFF header (12), fmt chunk (8 + 16), data chunk header (8).
inline constexpr std::size_t kWavHeaderSize = 44;
// The most sample bytes a RIFF file can hold (its size fields are 32-bit).
inline constexpr std::uint64_t kWavMaxDataBytes = 0xFFFFFFFFULL - (kWavHeaderSize - 8);

// Appends interleaved stereo frames (floats, nominally -1..1; clipped) as little-endian 16-bit
// PCM, tracking peak and RMS of the quantised output. finish() writes the final chunk sizes.
// Single-threaded; the caller keeps the frame count within kWavMaxDataBytes / 4.
class WavBuilder {
 public:
  explicit WavBuilder(int sample_rate, std::size_t expected_frames = 0);

  void append_stereo(const float* interleaved, std::size_t frames);

  std::size_t frames() const { return frames_; }
  double peak() const { return peak_; }  // 0..1, of full scale
  double rms() const;                    // 0..1, over both channels

  // The complete file image; call once, the builder is spent afterwards.
  std::string finish();

 private:
  std::string bytes_;
  std::size_t frames_ = 0;
  double peak_ = 0;
  double sum_of_squares_ = 0;
};

}  // namespace fcp::midi::render

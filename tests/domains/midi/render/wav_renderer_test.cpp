// Rendering SMF bytes through FluidSynth to WAV: format, duration, audibility, progress, cancel,
// errors, silence of stdout/stderr, concurrency, and speed.
#include "domains/midi/render/wav_renderer.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <latch>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "domains/midi/render/soundfont.hpp"
#include "tests/domains/midi/render/sf2_fixture.hpp"
#include "tests/domains/midi/render/smf_fixture.hpp"

namespace fcp::midi::render {
namespace {

namespace fs = std::filesystem;
using testing::kDivision;
using testing::smf;
using testing::Track;

constexpr int kRate = 44100;
constexpr std::size_t kOneBufferFrames = 4096;

// An independent reading of the WAV image: every header field and the samples.
struct Wav {
  std::string riff, wave, fmt, data;
  std::uint32_t riff_size = 0, fmt_size = 0, sample_rate = 0, byte_rate = 0, data_size = 0;
  std::uint16_t format = 0, channels = 0, block_align = 0, bits = 0;
  std::vector<std::int16_t> samples;

  std::size_t frames() const { return samples.size() / 2; }
  double rms(std::size_t first_frame, std::size_t end_frame) const {
    double sum = 0;
    for (std::size_t i = 2 * first_frame; i < 2 * end_frame; ++i) {
      sum += (samples[i] / 32767.0) * (samples[i] / 32767.0);
    }
    return end_frame > first_frame ? std::sqrt(sum / (2.0 * (end_frame - first_frame))) : 0.0;
  }
};

Wav parse_wav(const std::string& bytes) {
  auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i)
      v = (v << 8) | static_cast<std::uint8_t>(bytes.at(at + i));
    return v;
  };
  auto u16 = [&](std::size_t at) {
    return static_cast<std::uint16_t>(static_cast<std::uint8_t>(bytes.at(at)) |
                                      (static_cast<std::uint8_t>(bytes.at(at + 1)) << 8));
  };
  Wav wav;
  wav.riff = bytes.substr(0, 4);
  wav.riff_size = u32(4);
  wav.wave = bytes.substr(8, 4);
  wav.fmt = bytes.substr(12, 4);
  wav.fmt_size = u32(16);
  wav.format = u16(20);
  wav.channels = u16(22);
  wav.sample_rate = u32(24);
  wav.byte_rate = u32(28);
  wav.block_align = u16(32);
  wav.bits = u16(34);
  wav.data = bytes.substr(36, 4);
  wav.data_size = u32(40);
  for (std::size_t at = 44; at + 1 < bytes.size(); at += 2) {
    wav.samples.push_back(static_cast<std::int16_t>(u16(at)));
  }
  return wav;
}

class WavRenderer : public ::testing::Test {
 protected:
  void SetUp() override {
    auto font = default_soundfont();
    if (!font) GTEST_SKIP() << "no GM SoundFont installed (timgm6mb-soundfont)";
    options_.soundfont = *font;
  }
  RenderOptions options_;
};

TEST_F(WavRenderer, MelodyBecomesAudibleStereoWavOfSongPlusTail) {
  RenderStats stats;
  auto wav_bytes = render_wav(testing::melody(120, 4), options_, {}, nullptr, &stats);
  ASSERT_TRUE(wav_bytes) << wav_bytes.error().message;
  const Wav wav = parse_wav(*wav_bytes);
  EXPECT_EQ(wav.riff, "RIFF");
  EXPECT_EQ(wav.riff_size, wav_bytes->size() - 8);
  EXPECT_EQ(wav.wave, "WAVE");
  EXPECT_EQ(wav.fmt, "fmt ");
  EXPECT_EQ(wav.fmt_size, 16U);
  EXPECT_EQ(wav.format, 1);
  EXPECT_EQ(wav.channels, 2);
  EXPECT_EQ(wav.sample_rate, static_cast<std::uint32_t>(kRate));
  EXPECT_EQ(wav.byte_rate, kRate * 4U);
  EXPECT_EQ(wav.block_align, 4);
  EXPECT_EQ(wav.bits, 16);
  EXPECT_EQ(wav.data, "data");
  EXPECT_EQ(wav.data_size, wav_bytes->size() - 44);

  const double expected_frames = (2.0 + options_.tail_seconds) * kRate;  // 4 beats at 120 bpm
  EXPECT_NEAR(static_cast<double>(wav.frames()), expected_frames, kOneBufferFrames);
  EXPECT_NEAR(stats.seconds, wav.frames() / double{kRate}, 1e-9);

  const std::size_t song_end = 2 * kRate;
  EXPECT_GT(wav.rms(0, song_end), 0.01) << "the melody should be clearly audible";
  EXPECT_GT(stats.peak, 0.05);
  EXPECT_LE(stats.peak, 1.0);
  EXPECT_NEAR(stats.rms, wav.rms(0, wav.frames()), 1e-6);
  // The notes ring out into the tail, then fade.
  EXPECT_GT(wav.rms(song_end, song_end + kRate / 10), 0.0);
  EXPECT_LT(wav.rms(wav.frames() - kRate / 2, wav.frames()), wav.rms(0, song_end) / 4);
}

TEST_F(WavRenderer, DurationFollowsTempoChangesAndSampleRate) {
  Track conductor, notes;
  conductor.tempo_bpm(0, 60).tempo_bpm(2 * kDivision, 240).end();
  notes.program(0, 0, 40).note_on(0, 0, 67, 100).note_off(6 * kDivision, 0, 67).end();
  options_.sample_rate = 22050;
  options_.tail_seconds = 0.5;
  auto wav_bytes = render_wav(smf(kDivision, {conductor, notes}), options_);
  ASSERT_TRUE(wav_bytes) << wav_bytes.error().message;
  const Wav wav = parse_wav(*wav_bytes);
  EXPECT_EQ(wav.sample_rate, 22050U);
  EXPECT_NEAR(wav.frames(), (2.0 + 4 * 0.25 + 0.5) * 22050, kOneBufferFrames);
}

TEST_F(WavRenderer, SongOfRestsIsSilent) {
  RenderStats stats;
  auto wav_bytes = render_wav(testing::rests(120, 8), options_, {}, nullptr, &stats);
  ASSERT_TRUE(wav_bytes) << wav_bytes.error().message;
  const Wav wav = parse_wav(*wav_bytes);
  EXPECT_NEAR(wav.frames(), (4.0 + options_.tail_seconds) * kRate, kOneBufferFrames);
  EXPECT_EQ(stats.peak, 0.0);
  EXPECT_EQ(stats.rms, 0.0);
  EXPECT_EQ(wav.rms(0, wav.frames()), 0.0);
}

TEST_F(WavRenderer, ProgressIsMonotonicAboutEverySecondAndReachesTheTotal) {
  std::vector<std::pair<double, double>> calls;
  auto wav_bytes = render_wav(testing::melody(120, 16), options_,
                              [&](double done, double total) { calls.emplace_back(done, total); });
  ASSERT_TRUE(wav_bytes) << wav_bytes.error().message;
  const double total = parse_wav(*wav_bytes).frames() / double{kRate};
  ASSERT_GE(calls.size(), 3U);
  EXPECT_EQ(calls.front().first, 0.0);
  EXPECT_DOUBLE_EQ(calls.back().first, total);
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_DOUBLE_EQ(calls[i].second, total);
    if (i > 0) {
      EXPECT_GT(calls[i].first, calls[i - 1].first);
      EXPECT_LE(calls[i].first - calls[i - 1].first, 1.0 + kOneBufferFrames / double{kRate});
    }
  }
  EXPECT_NEAR(static_cast<double>(calls.size()), std::ceil(total) + 1, 1.0);  // 8 s + 2 s tail
}

TEST_F(WavRenderer, CancelStopsEarlyWithAnError) {
  std::atomic<bool> cancel = false;
  double last_progress = 0;
  const auto started = std::chrono::steady_clock::now();
  auto wav_bytes = render_wav(
      testing::band(120), options_,
      [&](double done, double) {
        last_progress = done;
        if (done >= 2.0) cancel = true;
      },
      &cancel);
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(wav_bytes);
  EXPECT_NE(wav_bytes.error().message.find("cancelled at 2."), std::string::npos)
      << wav_bytes.error().message;
  EXPECT_LT(last_progress, 3.0);
  EXPECT_LT(elapsed, std::chrono::seconds(20));
}

TEST_F(WavRenderer, CancelBeforeStartRendersNothing) {
  std::atomic<bool> cancel = true;
  std::vector<double> progress;
  auto wav_bytes = render_wav(
      testing::melody(120, 4), options_, [&](double done, double) { progress.push_back(done); },
      &cancel);
  ASSERT_FALSE(wav_bytes);
  EXPECT_NE(wav_bytes.error().message.find("cancelled at 0.0 s"), std::string::npos);
  EXPECT_EQ(progress, std::vector<double>{0.0});
}

TEST_F(WavRenderer, GarbageBytesGiveAnErrorNotACrash) {
  std::mt19937 random(42);
  std::string noise(4096, '\0');
  for (char& c : noise)
    c = static_cast<char>(random() & 0xFF);
  const std::string valid = testing::melody(120, 4);
  const std::string inputs[] = {
      "", "garbage", noise, "MThd" + noise, valid.substr(0, 30), valid.substr(0, valid.size() - 2)};
  for (const std::string& input : inputs) {
    auto wav_bytes = render_wav(input, options_);
    ASSERT_FALSE(wav_bytes) << "input of " << input.size() << " bytes";
    EXPECT_EQ(wav_bytes.error().message.rfind("not a Standard MIDI File", 0), 0U)
        << wav_bytes.error().message;
  }
}

TEST_F(WavRenderer, SongsLongerThanTheLimitAreRefusedAndTheTailIsCut) {
  options_.max_seconds = 1.5;
  auto refused = render_wav(testing::melody(120, 4), options_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "the song lasts 2.0 s, longer than the audio export limit of 1.5 s");
  options_.max_seconds = 3.0;
  auto cut = render_wav(testing::melody(120, 4), options_);
  ASSERT_TRUE(cut) << cut.error().message;
  EXPECT_NEAR(parse_wav(*cut).frames(), 3.0 * kRate, kOneBufferFrames);
}

TEST_F(WavRenderer, BadOptionsAreRefused) {
  RenderOptions no_font;
  auto missing = render_wav(testing::melody(120, 1), no_font);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no SoundFont"), std::string::npos);
  EXPECT_FALSE(missing.error().hints.empty());
  RenderOptions bad_rate = options_;
  bad_rate.sample_rate = 1000;
  EXPECT_FALSE(render_wav(testing::melody(120, 1), bad_rate));
  RenderOptions bad_gain = options_;
  bad_gain.gain = std::nan("");
  EXPECT_FALSE(render_wav(testing::melody(120, 1), bad_gain));
}

TEST_F(WavRenderer, MissingOrNonSoundfontFilesAreRefusedBeforeFluidSynthSeesThem) {
  options_.soundfont = "/nonexistent/fcp/missing.sf2";
  auto missing = render_wav(testing::melody(120, 1), options_);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "cannot read SoundFont /nonexistent/fcp/missing.sf2: no such file");
  const fs::path text = fs::temp_directory_path() / "fcp_render_text.sf2";
  std::ofstream(text) << "this is text, not RIFF";
  options_.soundfont = text;
  auto not_a_font = render_wav(testing::melody(120, 1), options_);
  fs::remove(text);
  ASSERT_FALSE(not_a_font);
  EXPECT_EQ(not_a_font.error().message.rfind("not a SoundFont: " + text.string(), 0), 0U)
      << not_a_font.error().message;
}

// Points a file descriptor at a temporary file for the scope, then reports what was written.
class CapturedFd {
 public:
  explicit CapturedFd(int fd) : fd_(fd) {
    path_ = fs::temp_directory_path() /
            ("fcp_render_fd" + std::to_string(fd) + "_" + std::to_string(::getpid()));
    std::fflush(nullptr);
    saved_ = ::dup(fd_);
    const int file = ::open(path_.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    ::dup2(file, fd_);
    ::close(file);
  }
  ~CapturedFd() { restore(); }
  std::string finish() {
    restore();
    std::ifstream in(path_, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(path_);
    return text;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(nullptr);
    ::dup2(saved_, fd_);
    ::close(saved_);
    saved_ = -1;
  }
  int fd_;
  int saved_ = -1;
  fs::path path_;
};

TEST_F(WavRenderer, NothingReachesStdoutOrStderr) {
  // Bank 99 does not exist in a GM font: FluidSynth warns and substitutes. A SoundFont with preset
  // headers but nothing else passes the preset check and then makes FluidSynth log errors, which
  // the returned message quotes: proof that FluidSynth did log during the capture.
  Track track;
  track.control(0, 0, 0, 99).program(0, 0, 5).note_on(0, 0, 60, 100).note_off(kDivision, 0, 60);
  const std::string missing_bank = smf(kDivision, {track.end()});
  const fs::path hollow_font = fs::temp_directory_path() / "fcp_render_hollow.sf2";
  std::ofstream(hollow_font, std::ios::binary) << testing::skeleton_sf2(
      testing::phdr_record("Piano", 0, 0) + testing::phdr_record("EOP", 0, 0));
  RenderOptions hollow = options_;
  hollow.soundfont = hollow_font;

  CapturedFd out(STDOUT_FILENO), err(STDERR_FILENO);
  auto rendered = render_wav(missing_bank, options_);
  auto failed = render_wav(testing::melody(120, 1), hollow);
  const std::string out_text = out.finish();
  const std::string err_text = err.finish();
  fs::remove(hollow_font);

  EXPECT_TRUE(rendered) << rendered.error().message;
  ASSERT_FALSE(failed);
  const std::string prefix = "FluidSynth cannot load the SoundFont " + hollow_font.string() + ": ";
  EXPECT_EQ(failed.error().message.rfind(prefix, 0), 0U) << failed.error().message;
  EXPECT_GT(failed.error().message.size(), prefix.size());
  EXPECT_EQ(out_text, "");
  EXPECT_EQ(err_text, "");
}

TEST_F(WavRenderer, TwoRendersOnTwoThreadsAtOnce) {
  const std::string song = testing::band(16);
  auto alone = render_wav(song, options_);
  ASSERT_TRUE(alone) << alone.error().message;
  std::latch start(2);
  core::Result<std::string> results[2] = {core::make_error("not run"), core::make_error("not run")};
  std::vector<std::thread> threads;
  for (auto& result : results) {
    threads.emplace_back([&] {
      start.arrive_and_wait();
      result = render_wav(song, options_);
    });
  }
  for (auto& thread : threads)
    thread.join();
  for (const auto& result : results) {
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->size(), alone->size());
    EXPECT_TRUE(*result == *alone) << "rendering is deterministic, whatever runs alongside";
  }
}

TEST_F(WavRenderer, SpeedOfASixtySecondSong) {
  const std::string song = testing::band(120);  // 120 beats at 120 bpm
  RenderStats stats;
  const auto started = std::chrono::steady_clock::now();
  auto wav_bytes = render_wav(song, options_, {}, nullptr, &stats);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(wav_bytes) << wav_bytes.error().message;
  EXPECT_NEAR(stats.seconds, 62.0, 0.1);
  EXPECT_GT(stats.rms, 0.01);
  const double speed = stats.seconds / elapsed.count();
  RecordProperty("audio_seconds_per_second", std::to_string(speed));
  std::printf("[ speed    ] %.1f s of audio in %.3f s: %.0fx real time\n", stats.seconds,
              elapsed.count(), speed);
  EXPECT_GT(speed, 1.0) << "offline rendering should beat real time";
}

}  // namespace
}  // namespace fcp::midi::render

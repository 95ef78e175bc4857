#include "domains/midi/render/audio_encoder.hpp"

#include <sndfile.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

namespace fcp::midi::render {
namespace {

constexpr sf_count_t kBlockFrames = 4096;
constexpr double kVorbisQuality = 0.5;  // libsndfile's 0..1 scale (about 160 kbit/s stereo)

// A file in memory for libsndfile's virtual I/O: reads from `data`, writes into it.
struct MemoryFile {
  std::string data;
  sf_count_t position = 0;
};

sf_count_t memory_length(void* user) {
  return static_cast<sf_count_t>(static_cast<MemoryFile*>(user)->data.size());
}

sf_count_t memory_seek(sf_count_t offset, int whence, void* user) {
  auto* file = static_cast<MemoryFile*>(user);
  sf_count_t base = 0;
  if (whence == SEEK_CUR) base = file->position;
  if (whence == SEEK_END) base = static_cast<sf_count_t>(file->data.size());
  file->position = std::max<sf_count_t>(0, base + offset);
  return file->position;
}

sf_count_t memory_read(void* into, sf_count_t count, void* user) {
  auto* file = static_cast<MemoryFile*>(user);
  const auto size = static_cast<sf_count_t>(file->data.size());
  const sf_count_t n = std::clamp<sf_count_t>(size - file->position, 0, count);
  if (n > 0) std::memcpy(into, file->data.data() + file->position, static_cast<std::size_t>(n));
  file->position += n;
  return n;
}

sf_count_t memory_write(const void* from, sf_count_t count, void* user) {
  auto* file = static_cast<MemoryFile*>(user);
  const auto end = static_cast<std::size_t>(file->position + count);
  if (file->data.size() < end) file->data.resize(end);
  std::memcpy(file->data.data() + file->position, from, static_cast<std::size_t>(count));
  file->position += count;
  return count;
}

sf_count_t memory_tell(void* user) {
  return static_cast<MemoryFile*>(user)->position;
}

SF_VIRTUAL_IO memory_io() {
  return SF_VIRTUAL_IO{memory_length, memory_seek, memory_read, memory_write, memory_tell};
}

struct SndfileCloser {
  void operator()(SNDFILE* file) const { sf_close(file); }
};
using SndfilePtr = std::unique_ptr<SNDFILE, SndfileCloser>;

int sndfile_format(AudioFormat format) {
  switch (format) {
    case AudioFormat::flac:
      return SF_FORMAT_FLAC | SF_FORMAT_PCM_16;
    case AudioFormat::ogg:
      return SF_FORMAT_OGG | SF_FORMAT_VORBIS;
    case AudioFormat::wav:
      break;
  }
  return SF_FORMAT_WAV | SF_FORMAT_PCM_16;
}

core::Error sndfile_error(std::string_view what, SNDFILE* file) {
  return core::make_error(std::string(what) + ": " + sf_strerror(file));
}

}  // namespace

std::optional<AudioFormat> audio_format_named(std::string_view name) {
  if (name == "wav" || name == "wave") return AudioFormat::wav;
  if (name == "flac") return AudioFormat::flac;
  if (name == "ogg" || name == "oga" || name == "vorbis") return AudioFormat::ogg;
  return std::nullopt;
}

std::string_view format_name(AudioFormat format) {
  switch (format) {
    case AudioFormat::flac:
      return "flac";
    case AudioFormat::ogg:
      return "ogg";
    case AudioFormat::wav:
      break;
  }
  return "wav";
}

std::string_view mime_type(AudioFormat format) {
  switch (format) {
    case AudioFormat::flac:
      return "audio/flac";
    case AudioFormat::ogg:
      return "audio/ogg";
    case AudioFormat::wav:
      break;
  }
  return "audio/wav";
}

bool format_available(AudioFormat format) {
  if (format == AudioFormat::wav) return true;
  SF_INFO info{};
  info.samplerate = 44100;
  info.channels = 2;
  info.format = sndfile_format(format);
  return sf_format_check(&info) != 0;
}

core::Result<std::string> encode_wav(std::string_view wav, AudioFormat format) {
  if (format == AudioFormat::wav) return std::string(wav);
  if (!format_available(format)) {
    return core::make_error("this libsndfile cannot write " + std::string(format_name(format)),
                            {"wav"});
  }
  SF_VIRTUAL_IO io = memory_io();
  MemoryFile input{std::string(wav), 0};
  SF_INFO in_info{};
  SndfilePtr in(sf_open_virtual(&io, SFM_READ, &in_info, &input));
  if (!in) return sndfile_error("cannot read the rendered WAV", nullptr);
  MemoryFile output;
  SF_INFO out_info{};
  out_info.samplerate = in_info.samplerate;
  out_info.channels = in_info.channels;
  out_info.format = sndfile_format(format);
  SndfilePtr out(sf_open_virtual(&io, SFM_WRITE, &out_info, &output));
  if (!out) return sndfile_error("cannot encode " + std::string(format_name(format)), nullptr);
  if (format == AudioFormat::ogg) {
    double quality = kVorbisQuality;
    sf_command(out.get(), SFC_SET_VBR_ENCODING_QUALITY, &quality, sizeof quality);
  }
  std::vector<short> block(static_cast<std::size_t>(kBlockFrames * in_info.channels));
  for (;;) {
    const sf_count_t frames = sf_readf_short(in.get(), block.data(), kBlockFrames);
    if (frames <= 0) break;
    if (sf_writef_short(out.get(), block.data(), frames) != frames)
      return sndfile_error("encoding " + std::string(format_name(format)) + " failed", out.get());
  }
  out.reset();  // flushes and finishes the stream
  return std::move(output.data);
}

}  // namespace fcp::midi::render

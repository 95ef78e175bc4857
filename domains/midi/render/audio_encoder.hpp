// Audio file formats besides WAV: a rendered WAV image re-encoded as FLAC or Ogg Vorbis through
// libsndfile (the library FluidSynth itself writes files with), in memory.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::midi::render {

enum class AudioFormat { wav, flac, ogg };

// "wav", "flac", "ogg" (also "oga", "vorbis"); nullopt for other names.
std::optional<AudioFormat> audio_format_named(std::string_view name);
std::string_view format_name(AudioFormat format);  // "wav", "flac", "ogg"
// The MIME type MCP clients are given: audio/wav, audio/flac, audio/ogg.
std::string_view mime_type(AudioFormat format);
// Whether this libsndfile can write the format (WAV always: fcp writes it itself).
bool format_available(AudioFormat format);

// The samples of a 16-bit PCM WAV image (as render_wav makes) in `format`: FLAC (lossless, 16-bit)
// or Ogg Vorbis (quality 0.5); WAV comes back as it is. Errors say what libsndfile reported.
// Thread-safe: each call owns its libsndfile handles.
core::Result<std::string> encode_wav(std::string_view wav, AudioFormat format);

}  // namespace fcp::midi::render

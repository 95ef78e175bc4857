// SoundFont (SF2) inspection: the presets a file offers, and which GM SoundFont to use by default.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace fcp::midi::render {

// One preset header (PHDR record) of an SF2 file. Bank 128 holds the percussion kits in GM fonts.
struct Preset {
  int bank = 0;
  int program = 0;
  std::string name;
};

// The presets of an SF2 file, read from its PHDR chunk with a bounds-checked RIFF reader (no
// FluidSynth involved). Sorted by bank, then program; the terminal "EOP" record is dropped.
// Fails with "not a SoundFont: <path> (<reason>)" for non-SF2, truncated or malformed files.
// Reads only the chunk headers and the pdta list, so large fonts are cheap to inspect.
// Thread-safe (no shared state).
core::Result<std::vector<Preset>> soundfont_presets(const std::filesystem::path& file);

// The GM SoundFont to use when none is loaded: $FCP_SOUNDFONT if it names a readable file, else
// the first readable one of /usr/share/sounds/sf2/default-GM.sf2,
// /usr/share/sounds/sf2/TimGM6mb.sf2, /usr/share/sounds/sf2/FluidR3_GM.sf2,
// /usr/share/soundfonts/default.sf2. nullopt if none is.
std::optional<std::filesystem::path> default_soundfont();

}  // namespace fcp::midi::render

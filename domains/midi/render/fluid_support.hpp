// Private to fcp_midi_render: RAII ownership of FluidSynth objects, and where FluidSynth's log
// messages go (never to stdout, which carries the MCP protocol in stdio mode).
#pragma once

#include <fluidsynth.h>

#include <memory>
#include <string>

namespace fcp::midi::render::detail {

struct SettingsDeleter {
  void operator()(fluid_settings_t* settings) const { delete_fluid_settings(settings); }
};
struct SynthDeleter {
  void operator()(fluid_synth_t* synth) const { delete_fluid_synth(synth); }
};
struct PlayerDeleter {
  void operator()(fluid_player_t* player) const { delete_fluid_player(player); }
};
using SettingsPtr = std::unique_ptr<fluid_settings_t, SettingsDeleter>;
using SynthPtr = std::unique_ptr<fluid_synth_t, SynthDeleter>;
using PlayerPtr = std::unique_ptr<fluid_player_t, PlayerDeleter>;

// Installs, once per process and thread-safely, a log function for every FluidSynth level that
// hands the message to the FluidLogCapture active on the logging thread, or drops it; the same
// for GLib's log domains used by FluidSynth's helpers (libinstpatch, GLib, GObject). Also runs
// FluidSynth's one-time global initialisation, so that concurrent first uses cannot race on it.
// Call before creating any FluidSynth object.
void prepare_fluidsynth();

// While alive, collects the warnings and errors FluidSynth logs on this thread (synth creation,
// SoundFont loading and rendering all run on the caller's thread), to explain failures.
// Not movable; one per thread at a time (nesting restores the outer one).
class FluidLogCapture {
 public:
  FluidLogCapture();
  ~FluidLogCapture();
  FluidLogCapture(const FluidLogCapture&) = delete;
  FluidLogCapture& operator=(const FluidLogCapture&) = delete;

  void add(const char* message);
  // ": " + the messages, or "" when nothing was logged: ready to append to an error message.
  std::string suffix() const;

 private:
  FluidLogCapture* outer_;
  std::string text_;
};

}  // namespace fcp::midi::render::detail

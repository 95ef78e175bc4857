#include "domains/midi/render/fluid_support.hpp"

#include <dlfcn.h>

#include <mutex>

namespace fcp::midi::render::detail {
namespace {

constexpr std::size_t kMaxCapturedChars = 600;

thread_local FluidLogCapture* active_capture = nullptr;

void route_log(int level, const char* message, void* /*data*/) {
  if (active_capture != nullptr && message != nullptr && level <= FLUID_WARN) {
    active_capture->add(message);
  }
}

void install_log_functions() {
  for (int level = FLUID_PANIC; level < LAST_LOG_LEVEL; ++level) {
    fluid_set_log_function(level, route_log, nullptr);
  }
}

// GLib's GLogFunc and g_log_set_handler, declared here rather than through <glib.h>: GLib is a
// private dependency of (some builds of) libfluidsynth, not of this library, so it is looked up
// in the process at run time and simply skipped when FluidSynth was built without it.
using GLogFunction = void (*)(const char* domain, int level, const char* message, void* data);
using GLogSetHandler = unsigned (*)(const char* domain, int levels, GLogFunction, void* data);
constexpr int kAllGLogLevels = ~0;  // every level, fatal and recursion flags included

void route_glib_log(const char* /*domain*/, int /*level*/, const char* message, void* /*data*/) {
  if (active_capture != nullptr && message != nullptr) active_capture->add(message);
}

// libinstpatch (FluidSynth's DLS loader, tried on files the SF2 loader rejects) and GLib report
// through g_log, whose default handler prints to stderr, or to stdout for info and debug.
void install_glib_log_handlers() {
  void* symbol = dlsym(RTLD_DEFAULT, "g_log_set_handler");
  if (symbol == nullptr) return;
  const auto set_handler = reinterpret_cast<GLogSetHandler>(symbol);
  for (const char* domain :
       {static_cast<const char*>(nullptr), "libInstPatch", "GLib", "GLib-GObject"}) {
    set_handler(domain, kAllGLogLevels, route_glib_log, nullptr);
  }
}

// new_fluid_synth initialises global tables on first use behind a flag that another thread can
// see set before the tables are filled; doing it once here, under call_once, closes that window.
void initialise_synth_globals() {
  SettingsPtr settings(new_fluid_settings());
  if (!settings) return;
  fluid_settings_setint(settings.get(), "synth.lock-memory", 0);
  SynthPtr synth(new_fluid_synth(settings.get()));
}

}  // namespace

void prepare_fluidsynth() {
  static std::once_flag once;
  std::call_once(once, [] {
    install_log_functions();
    install_glib_log_handlers();
    initialise_synth_globals();
  });
}

FluidLogCapture::FluidLogCapture() : outer_(active_capture) {
  active_capture = this;
}

FluidLogCapture::~FluidLogCapture() {
  active_capture = outer_;
}

void FluidLogCapture::add(const char* message) {
  if (text_.size() >= kMaxCapturedChars) return;
  if (!text_.empty()) text_ += "; ";
  for (const char* c = message; *c != '\0'; ++c) {
    text_ += (*c == '\n' || *c == '\r') ? ' ' : *c;
  }
  if (text_.size() > kMaxCapturedChars) text_.resize(kMaxCapturedChars);
}

std::string FluidLogCapture::suffix() const {
  return text_.empty() ? "" : ": " + text_;
}

}  // namespace fcp::midi::render::detail

// preview @range:M-N [@track:NAME…]: a few bars rendered quickly and given in the reply as audio
// the client can play. Changes nothing.
#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "domains/midi/audio.hpp"
#include "domains/midi/selection.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kPreviewRate = 22050;
constexpr double kPreviewTail = 1.0;        // seconds after the range so its last notes ring out
constexpr double kMaxPreviewSeconds = 300;  // compressed formats: the render itself stays quick

// `raw` without the token `token` (and the space before it).
std::string without_token(std::string raw, std::string_view token) {
  if (const auto at = raw.find(" " + std::string(token)); at != std::string::npos)
    raw.erase(at, token.size() + 1);
  return raw;
}

struct PreviewScope {
  const core::Selector* range = nullptr;
  Tick start = 0, stop = 0;
  std::set<EntityId> tracks;  // empty: the tracks as heard (mute, solo)
  std::vector<std::string> names;
};

core::Result<PreviewScope> preview_scope(const OpContext& ctx) {
  PreviewScope scope;
  for (const auto& selector : ctx.op.selectors) {
    if (selector.type == "range" && !selector.negated && scope.range == nullptr) {
      scope.range = &selector;
    } else if (selector.type == "track" && !selector.negated) {
      auto id = resolve_track(ctx, selector.value);
      if (!id) return id.error();
      if (scope.tracks.insert(*id).second) scope.names.push_back(ctx.song().track(*id)->name);
    } else {
      return core::make_error("preview takes one @range and any @track: " + selector.raw +
                                  " chooses no bars or tracks to hear",
                              {without_token(ctx.op.raw, selector.raw)});
    }
  }
  if (scope.range == nullptr) {
    return core::make_error("preview needs the bars to hear: @range:M-N",
                            {ctx.op.raw + " @range:1-4"});
  }
  auto span = parse_range(ctx.song(), scope.range->value, true);
  if (!span) {
    core::Error error = span.error();
    for (auto& hint : error.hints)
      hint = core::replace_reference(ctx.op.raw, scope.range->raw, "@range:" + hint);
    return error;
  }
  std::tie(scope.start, scope.stop) = *span;
  // Past the song's end there is nothing to hear: the preview ends with the song.
  const Tick end = ctx.song().end_tick();
  if (end > scope.start) scope.stop = std::min(scope.stop, end);
  return scope;
}

// The last bar from `start`'s bar whose end is within `seconds` of `start`, as "@range:M-N".
std::string fitting_range(const Song& song, Tick start, double seconds) {
  const auto& meter = song.conductor().meter;
  const int first = meter.bar_of(start);
  const double from = song.seconds_at(meter.bar_start(first));
  int last = first;
  while (last < first + 10000 && song.seconds_at(meter.bar_start(last + 2)) - from <= seconds)
    ++last;
  return "@range:" + std::to_string(first) + "-" + std::to_string(last);
}

// A range too long for one reply: said before anything is rendered, with the range that fits.
std::optional<core::Error> too_long(const OpContext& ctx, const PreviewScope& scope,
                                    const AudioSettings& settings) {
  const double seconds = ctx.song().seconds_at(scope.stop) - ctx.song().seconds_at(scope.start);
  const bool wav = settings.format == render::AudioFormat::wav;
  const double fits =
      wav ? inline_wav_seconds(settings.sample_rate) - settings.tail_seconds : kMaxPreviewSeconds;
  if (seconds <= fits) return std::nullopt;
  const std::string limit = wav ? size_text(kMaxInlineAudioBytes) + " (about " +
                                      std::to_string(inline_wav_seconds(settings.sample_rate)) +
                                      " s of WAV at " + std::to_string(settings.sample_rate) +
                                      " Hz)"
                                : std::to_string(static_cast<int>(kMaxPreviewSeconds)) + " s";
  char length[32];
  std::snprintf(length, sizeof length, "%.1f s", seconds);
  std::vector<std::string> hints{core::replace_reference(
      ctx.op.raw, scope.range->raw, fitting_range(ctx.song(), scope.start, fits))};
  return core::make_error("preview " + scope.range->value + " lasts " + length +
                              "; a preview is capped at " + limit +
                              ": hear fewer bars, or export the song to a file",
                          std::move(hints));
}

}  // namespace

core::Result<void> verb_preview(OpContext& ctx) {
  auto scope = preview_scope(ctx);
  if (!scope) return scope.error();
  AudioSettings settings;
  settings.sample_rate = static_cast<int>(ctx.op.integer("rate").value_or(kPreviewRate));
  settings.tail_seconds = kPreviewTail;
  const std::string format_name = ctx.op.param_or("fmt", "wav");
  settings.format = render::audio_format_named(format_name).value_or(render::AudioFormat::wav);
  if (!render::format_available(settings.format)) {
    return core::make_error("this build's libsndfile cannot write " + format_name,
                            {core::replace_param_token(ctx.op.raw, "fmt", "fmt:wav")});
  }
  if (auto error = too_long(ctx, *scope, settings)) return *error;
  auto soundfont = soundfont_for(ctx.doc);
  if (!soundfont) return soundfont.error();
  const Song excerpt =
      song_excerpt(ctx.song(), scope->start, scope->stop, silent_tracks(ctx.song(), scope->tracks));
  auto audio = render_audio(excerpt, *soundfont, settings, ctx.call.progress);
  if (!audio) return core::make_error("preview failed: " + audio.error().message);
  if (audio->bytes.size() > kMaxInlineAudioBytes) {
    return core::make_error("the preview takes " + size_text(audio->bytes.size()) +
                            "; audio in a reply is capped at " + size_text(kMaxInlineAudioBytes) +
                            ": hear fewer bars");
  }
  std::string heard = scope->names.empty() ? std::string("as heard") : "";
  for (const auto& name : scope->names)
    heard += (heard.empty() ? "" : ", ") + name;
  ctx.lines.push_back(core::created("preview " + range_text(ctx.song(), scope->start, scope->stop) +
                                    " (" + heard + "): the audio is in this reply (" +
                                    audio->detail(settings.sample_rate) + "; up to " +
                                    size_text(kMaxInlineAudioBytes) + " in a reply)"));
  if (audio->stats.peak <= 0.0001)
    ctx.lines.push_back(
        core::warning_line("the preview is silent (no audible notes in the range)"));
  ctx.doc.set_last_render("a preview", soundfont->string());
  ctx.attachments.push_back({audio->mime_type(), std::move(audio->bytes)});
  return {};
}

}  // namespace fcp::midi

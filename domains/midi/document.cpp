#include "domains/midi/document.hpp"

#include <cmath>

#include "core/call_scope.hpp"
#include "core/response.hpp"
#include "domains/midi/queries.hpp"
#include "domains/midi/song_io.hpp"
#include "domains/midi/song_text.hpp"
#include "domains/midi/theory/keys.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {

MidiDocument::MidiDocument(Song song) : song_(std::move(song)) {}

core::Result<core::OpOutcome> MidiDocument::execute(const core::ParsedOp& op,
                                                    core::CallContext& ctx) {
  const auto handler = verb_table().handler(op.verb);
  if (handler == nullptr) return core::make_error("verb \"" + op.verb + "\" is not implemented");
  SongTransaction edit(song_);
  const auto anchor = anchor_;
  OpContext context{*this, edit, ctx, op, {}, {}};
  if (auto done = handler(context); !done) {
    anchor_ = anchor;
    return done.error();
  }
  core::OpOutcome outcome;
  outcome.lines = std::move(context.lines);
  outcome.attachments = std::move(context.attachments);
  outcome.event = edit.commit(op.raw);
  return outcome;
}

void MidiDocument::revert(const core::Event& event, core::EffectSink& effects) {
  (void)effects;
  core::apply_event<SongChanges>(song_, event, false);
}

void MidiDocument::replay(const core::Event& event, core::EffectSink& effects) {
  (void)effects;
  core::apply_event<SongChanges>(song_, event, true);
}

std::optional<core::Error> MidiDocument::close_open_block() {
  if (!tracker_) return std::nullopt;
  const TrackerBlock open = std::move(*tracker_);
  tracker_.reset();
  const Track* track = song_.track(open.track);
  return core::make_error(
      "the tracker block on " + (track ? track->name : std::string("its track")) +
      " is still open at the end of the call (" + core::plural(open.lines.size(), "step line") +
      " not imported): a block closes in the call that opens it; send `" + open.opened_by +
      "`, the Step lines and `tracker end` as the ops of one call");
}

std::optional<core::Result<core::QueryAnswer>> MidiDocument::query(
    std::string_view verb, std::string_view args, const core::CallContext& ctx) const {
  return run_query(*this, verb, args, ctx);
}

std::size_t MidiDocument::entity_count() const {
  return song_.notes().size() + song_.controls().size() + song_.raws().size() +
         song_.tracks().size();
}

std::string MidiDocument::digest() const {
  const Conductor& c = song_.conductor();
  const auto& meter = c.meter.changes().front();
  const KeySignature key = song_.key_at(0);
  std::string key_text = theory::key_name(key.sharps, key.minor);
  if (key.minor && key_text.ends_with('m')) key_text.pop_back();
  key_text += key.minor ? "-minor" : "-major";
  // The tempo at the start, and how many times it changes after (the `tempo` query lists them).
  const std::size_t tempo_changes = c.tempos.size() - 1;
  const std::string tempo_text =
      bpm_text(song_.tempo_at(0)) + (tempo_changes == 0
                                         ? ""
                                         : " (" + std::to_string(tempo_changes) +
                                               (tempo_changes == 1 ? " change)" : " changes)"));
  std::string out = "[" + std::to_string(song_.tracks().size()) + "t " +
                    std::to_string(song_.notes().size() + song_.controls().size()) +
                    "e tempo:" + tempo_text + " " + std::to_string(meter.numerator) + "/" +
                    std::to_string(meter.denominator) + " " + key_text;
  if (const Tick end = song_.end_tick(); end > 0)
    out += " " + std::to_string(c.meter.bar_of(end - 1)) + "bars";
  return out + "]";
}

core::Result<std::string> MidiDocument::serialize(const std::filesystem::path& path) const {
  (void)path;
  auto bytes = write_song(song_);
  // write_song ends early inside a call that must stop: its bytes are incomplete then.
  if (auto stop = core::stop_error("writing the song", "nothing was written")) return *stop;
  return bytes;
}

std::string MidiDocument::title() const {
  if (!song_.conductor().title.empty()) return song_.conductor().title;
  if (!fallback_title_.empty()) return fallback_title_;
  return "Untitled";
}

std::string MidiDocument::summary() const {
  // Each kind of non-note event by its own name (a program change is no controller event).
  std::size_t cc = 0, bends = 0, programs = 0, pressure = 0;
  song_.controls().for_each([&](const Control& control) {
    switch (control.kind) {
      case ControlKind::cc:
        ++cc;
        break;
      case ControlKind::bend:
        ++bends;
        break;
      case ControlKind::program:
        ++programs;
        break;
      case ControlKind::channel_pressure:
      case ControlKind::key_pressure:
        ++pressure;
        break;
    }
  });
  std::string text = core::plural(song_.tracks().size(), "track") + ", " +
                     core::plural(song_.notes().size(), "note");
  if (cc > 0) text += ", " + core::plural(cc, "controller change");
  if (programs > 0) text += ", " + core::plural(programs, "program change");
  if (bends > 0) text += ", " + core::plural(bends, "pitch bend");
  if (pressure > 0) text += ", " + std::to_string(pressure) + " aftertouch";
  return text;
}

}  // namespace fcp::midi

// The tracker block: `tracker TRACK import at:POS [res:RES]`, step lines
// `Step 01: [C4_v80_2], [E4_v80_2]`, then `tracker end`, all in one call (the block's notes are
// one undo step; a block left open fails the call: MidiDocument::close_open_block).
#include <charconv>

#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

core::Result<std::uint32_t> resolution(const OpContext& ctx) {
  const std::string res = ctx.op.param_or("res", "16th");
  const int ppqn = ctx.song().ppqn();
  if (res == "quarter" || res == "4n" || res == "4th") return static_cast<std::uint32_t>(ppqn);
  if (res == "8th" || res == "8n" || res == "eighth") return static_cast<std::uint32_t>(ppqn / 2);
  if (res == "16th" || res == "16n" || res == "sixteenth")
    return static_cast<std::uint32_t>(ppqn / 4);
  if (res == "32nd" || res == "32n") return static_cast<std::uint32_t>(ppqn / 8);
  return core::make_error("invalid res:" + res + " — quarter, 8th, 16th or 32nd");
}

}  // namespace

core::Result<void> verb_tracker(OpContext& ctx) {
  const auto& op = ctx.op;
  auto& block = ctx.doc.tracker_block();
  if (op.positionals.size() == 1 && op.positionals[0] == "end") {
    if (!block)
      return core::make_error("'tracker end' without a 'tracker TRACK import at:POS' before it");
    TrackerBlock done = std::move(*block);
    block.reset();
    if (done.lines.empty()) return core::make_error("no step lines in the tracker block");
    const Track* track = ctx.song().track(done.track);
    if (track == nullptr) return core::make_error("the block's track was removed");
    std::size_t notes = 0, steps = 0;
    for (const auto& line : done.lines) {
      // Step NN: [PITCH_vVEL_STEPS], …
      const auto colon = line.find(':');
      std::string_view head = std::string_view(line).substr(0, colon);
      while (!head.empty() && (head.back() == ' '))
        head.remove_suffix(1);
      const auto space = head.rfind(' ');
      int step = 0;
      const std::string_view number = head.substr(space == std::string_view::npos ? 0 : space + 1);
      auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), step);
      if (colon == std::string::npos || ec != std::errc() || step < 1)
        return core::make_error("bad step line: " + line, {"Step 01: [C4_v80_2]"});
      ++steps;
      std::size_t at = colon;
      while ((at = line.find('[', at)) != std::string::npos) {
        const auto close = line.find(']', at);
        if (close == std::string::npos) return core::make_error("bad step line: " + line);
        const std::string token = line.substr(at + 1, close - at - 1);
        at = close;
        const auto v = token.rfind("_v");
        const auto d = token.rfind('_');
        if (v == std::string::npos || d == std::string::npos || d <= v)
          return core::make_error("bad note \"[" + token + "]\" — [PITCH_vVELOCITY_STEPS]");
        auto pitch = parse_pitch_for(ctx, *track, token.substr(0, v));
        if (!pitch) return pitch.error();
        int velocity = 0, length = 0;
        std::from_chars(token.data() + v + 2, token.data() + d, velocity);
        std::from_chars(token.data() + d + 1, token.data() + token.size(), length);
        if (velocity < 1 || velocity > 127 || length < 1)
          return core::make_error("bad note \"[" + token + "]\" — velocity 1..127, steps ≥ 1");
        Note note;
        note.id = ctx.edit.song().allocate_id();
        note.track = track->id;
        note.tick = done.start + static_cast<Tick>(step - 1) * done.step;
        note.duration = static_cast<std::uint32_t>(length) * done.step;
        note.pitch = *pitch;
        note.velocity = velocity;
        note.channel = track->channel;
        ctx.edit.put_note(note);
        ++notes;
      }
    }
    ctx.lines.push_back(core::created("Imported " + core::plural(notes, "note") + " from " +
                                      core::plural(steps, "step") + " on " + track->name));
    return {};
  }
  if (op.positionals.size() != 2 || op.positionals[1] != "import")
    return core::make_error("tracker TRACK import at:POS [res:16th], step lines, then tracker end",
                            {"tracker Drums import at:1.1 res:16th"});
  if (block)
    return core::make_error("nested tracker blocks are not allowed; end the open one first",
                            {"tracker end"});
  auto track = resolve_track(ctx, op.positionals[0]);
  if (!track) return track.error();
  if (!op.has_param("at"))
    return core::make_error("missing at: for tracker import",
                            {"tracker " + op.positionals[0] + " import at:1.1"});
  auto start = position_param(ctx, "at", "1.1");
  if (!start) return start.error();
  auto step = resolution(ctx);
  if (!step) return step.error();
  block = TrackerBlock{*track, *start, *step, {}, op.raw};
  ctx.lines.push_back(core::meta("tracker block open for " + track_of(ctx, *track).name +
                                 " (send Step lines, then tracker end, in this call)"));
  return {};
}

core::Result<void> verb_step(OpContext& ctx) {
  auto& block = ctx.doc.tracker_block();
  if (!block)
    return core::make_error(
        "a Step line outside a tracker block: send `tracker TRACK import at:POS`, the Step lines "
        "and `tracker end` as the ops of one call");
  block->lines.push_back(ctx.op.raw);
  ctx.lines.push_back(core::meta("buffered"));
  return {};
}

}  // namespace fcp::midi

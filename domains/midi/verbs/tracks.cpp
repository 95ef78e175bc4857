// Track verbs: track add|remove|rename, program, cc (values and ramps), bend, mute, solo.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>

#include "core/op_contract.hpp"
#include "core/resolve.hpp"
#include "domains/midi/theory/controllers.hpp"
#include "domains/midi/theory/drums.hpp"
#include "domains/midi/theory/gm.hpp"
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

constexpr int kDrumChannel = 9;

std::optional<int> to_int(std::string_view text) {
  const auto value = core::to_integer(text);
  if (!value || *value < INT_MIN || *value > INT_MAX) return std::nullopt;
  return static_cast<int>(*value);
}

// "Violin" for violin: a track name made from an instrument.
std::string capitalized(std::string text) {
  if (!text.empty())
    text.front() = static_cast<char>(std::toupper(static_cast<unsigned char>(text.front())));
  return text;
}

// A track name that asks for the drum channel when no instrument is given ("Drums", "Drum Kit").
bool is_drum_word(std::string_view name) {
  std::string key;
  for (const char c : core::to_lower(name)) {
    if (std::isalnum(static_cast<unsigned char>(c))) key += c;
  }
  return key == "drums" || key == "drumkit" || key == "drumset" || key == "standardkit" ||
         key == "percussion" || key == "kit";
}

// The name replies give a kit's program: "drums" for the standard kit, else the kit's name.
std::string kit_name(int program) {
  if (program == 0) return "drums";
  for (const auto& [name, number] : theory::drum_kits()) {
    if (number == program) return std::string(name);
  }
  return "drums";
}

// The program, bank and whether the instrument means the drum channel.
struct InstrumentChoice {
  std::optional<int> program;
  std::optional<int> msb, lsb;
  bool drums = false;
  std::string name;
};

core::Result<InstrumentChoice> instrument_params(const OpContext& ctx,
                                                 std::optional<std::string_view> positional) {
  InstrumentChoice choice;
  std::optional<std::string_view> name = positional;
  const std::string* keyed = ctx.op.param("instrument");
  if (keyed != nullptr) name = *keyed;
  if (name) {
    if (const auto kit = theory::drum_kit_program(*name)) {  // "drum kit", jazz-kit, 808
      choice.drums = true;
      choice.program = *kit;
      choice.name = kit_name(*kit);
    } else {
      auto instrument = theory::find_instrument(*name);
      if (!instrument)
        return hints_as_ops(ctx, instrument.error(), *name, keyed ? "instrument" : "");
      choice.program = (*instrument)->program;
      choice.name = std::string((*instrument)->name);
    }
  }
  if (auto program = ctx.op.integer("program")) {
    choice.program = static_cast<int>(*program);
    choice.name = std::string(theory::gm_instruments()[static_cast<std::size_t>(*program)].name);
  }
  if (const std::string* text = ctx.op.param("bank")) {
    const auto dot = text->find('.');
    auto msb = to_int(std::string_view(*text).substr(0, dot));
    std::optional<int> lsb;
    if (dot != std::string::npos) lsb = to_int(std::string_view(*text).substr(dot + 1));
    if (!msb || *msb < 0 || *msb > 127 ||
        (dot != std::string::npos && (!lsb || *lsb < 0 || *lsb > 127)))
      return core::make_error("invalid bank:" + *text + " — MSB[.LSB], each 0..127");
    choice.msb = msb;
    choice.lsb = lsb;
  }
  return choice;
}

Control make_control(OpContext& ctx, EntityId track, Tick tick, int channel, ControlKind kind,
                     int number, int value) {
  Control control;
  control.id = ctx.edit.song().allocate_id();
  control.track = track;
  control.tick = tick;
  control.channel = channel;
  control.kind = kind;
  control.number = number;
  control.value = value;
  return control;
}

// Sets (replacing any at that tick) the bank select and program of a track.
void set_program(OpContext& ctx, const Track& track, Tick tick, const InstrumentChoice& choice) {
  std::vector<EntityId> replaced;
  for (auto it = ctx.song().controls().of_track(track.id).lower_bound({tick, 0});
       it != ctx.song().controls().of_track(track.id).end() && it->first == tick; ++it) {
    const Control* c = ctx.song().controls().find(it->second);
    const bool bank = c->kind == ControlKind::cc && (c->number == 0 || c->number == 32);
    if (c->kind == ControlKind::program || (bank && (choice.msb || choice.lsb)))
      replaced.push_back(c->id);
  }
  for (EntityId id : replaced)
    ctx.edit.erase_control(id);
  if (choice.msb)
    ctx.edit.put_control(
        make_control(ctx, track.id, tick, track.channel, ControlKind::cc, 0, *choice.msb));
  if (choice.lsb)
    ctx.edit.put_control(
        make_control(ctx, track.id, tick, track.channel, ControlKind::cc, 32, *choice.lsb));
  if (choice.program)
    ctx.edit.put_control(
        make_control(ctx, track.id, tick, track.channel, ControlKind::program, 0, *choice.program));
}

// In General MIDI channel 10 plays drums and only drums: a kit on another channel, or a melodic
// instrument on channel 10, would not sound as the reply says. Errors offer the op that would.
core::Result<void> check_drum_channel(const OpContext& ctx, const InstrumentChoice& choice,
                                      std::optional<long long> channel) {
  if (!channel) return {};
  const std::string ch = "ch:" + std::to_string(*channel);
  if (choice.drums && *channel - 1 != kDrumChannel) {
    return core::make_error(choice.name + " play on channel 10 in General MIDI; on " + ch +
                                " they would sound as a " + "melodic instrument",
                            {core::replace_param_token(ctx.op.raw, "ch", "ch:10"),
                             core::replace_param_token(ctx.op.raw, "ch", "")});
  }
  if (!choice.drums && choice.program && *channel - 1 == kDrumChannel) {
    return core::make_error(
        "channel 10 is the drum channel in General MIDI: " + choice.name +
            " would sound as drums there (a drum track takes instrument:drums or a kit)",
        {core::replace_param_token(ctx.op.raw, "ch", "")});
  }
  return {};
}

int free_channel(const Song& song) {
  for (int channel = 0; channel < 16; ++channel) {
    if (channel == kDrumChannel) continue;
    bool used = false;
    for (const auto& track : song.tracks())
      used = used || track.channel == channel;
    if (!used) return channel;
  }
  return 0;
}

std::string bank_text(const InstrumentChoice& choice) {
  if (!choice.msb && !choice.lsb) return {};
  return " bank:" + std::to_string(choice.msb.value_or(0)) +
         (choice.lsb ? "." + std::to_string(*choice.lsb) : std::string());
}

}  // namespace

core::Result<void> verb_track(OpContext& ctx) {
  const auto& op = ctx.op;
  const std::string sub = op.positionals.empty() ? "" : core::to_lower(op.positionals[0]);
  if (sub.empty()) {
    return core::make_error("track requires add, remove or rename",
                            {"track add Piano instrument:acoustic-grand-piano",
                             "track remove Piano", "track rename Piano to:Keys"});
  }
  if (sub != "add" && sub != "remove" && sub != "rename") {
    // `track Piano`: most likely a name without its subcommand; the hints use it, and offer
    // only what can work on it (add a new track; rename or remove one that exists).
    const std::string& word = op.positionals[0];
    const std::string name = core::quote_token(word);
    const auto& tracks = ctx.song().tracks();
    const bool exists = std::any_of(tracks.begin(), tracks.end(), [&word](const Track& track) {
      return core::to_lower(track.name) == core::to_lower(word);
    });
    std::vector<std::string> hints;
    if (exists) {
      hints = {"track rename " + name + " to:Keys", "track remove " + name};
    } else {
      hints = {"track add " + name};
    }
    return core::make_error("unknown track subcommand \"" + word +
                                "\": track takes add, remove or rename, then the track's name",
                            std::move(hints));
  }
  if (op.positionals.size() < 2)
    return core::make_error("missing track name",
                            {"track " + sub + " Piano" + (sub == "rename" ? " to:Keys" : "")});
  const std::string& name = op.positionals[1];
  if (sub == "add") {
    if (op.positionals.size() > 2)
      return core::make_error("track add takes one name; quote names with spaces",
                              {"track add \"" + name + " " + op.positionals[2] + "\""});
    for (const auto& track : ctx.song().tracks()) {
      if (core::to_lower(track.name) == core::to_lower(name))
        return core::make_error("track '" + track.name + "' already exists",
                                {"track add \"" + name + " 2\""});
    }
    auto choice = instrument_params(ctx, std::nullopt);
    if (!choice) return choice.error();
    const auto channel = op.integer("ch");
    const bool drum_channel = channel && *channel - 1 == kDrumChannel;
    if (!choice->program && (is_drum_word(name) || drum_channel)) {
      choice->drums = true;
      choice->program = 0;
      choice->name = "drums";
    }
    if (auto fits = check_drum_channel(ctx, *choice, channel); !fits) return fits.error();
    if (!choice->program) {
      choice->program = 0;
      choice->name = std::string(theory::gm_instruments()[0].name);
    }
    Track track;
    track.id = ctx.edit.song().allocate_id();
    track.name = name;
    track.channel = choice->drums ? kDrumChannel : free_channel(ctx.song());
    if (channel) track.channel = static_cast<int>(*channel) - 1;
    ctx.edit.insert_track(ctx.song().tracks().size(), track);
    set_program(ctx, track, 0, *choice);
    ctx.lines.push_back(core::created("Track " + quote_name(name) +
                                      " added (ch:" + std::to_string(track.channel + 1) + ", " +
                                      choice->name + bank_text(*choice) + ")"));
    return {};
  }
  auto id = resolve_track(ctx, name);
  if (!id) return id.error();
  Track track = track_of(ctx, *id);
  if (sub == "remove") {
    const std::size_t notes = ctx.song().notes().count(track.id);
    ctx.edit.erase_track(track.id);
    ctx.lines.push_back(core::deleted("Track " + quote_name(track.name) + " removed (" +
                                      core::plural(notes, "note") + ")"));
    return {};
  }
  std::string to = op.param_or("to", op.positionals.size() > 2 ? op.positionals[2] : "");
  if (to.empty())
    return core::make_error("track rename requires the new name",
                            {"track rename " + name + " to:Keys"});
  for (const auto& other : ctx.song().tracks()) {
    if (other.id != track.id && core::to_lower(other.name) == core::to_lower(to))
      return core::make_error("track '" + other.name + "' already exists");
  }
  const std::string old = track.name;
  track.name = to;
  ctx.edit.update_track(track);
  ctx.lines.push_back(
      core::property_changed("Track " + quote_name(old) + " renamed " + quote_name(to)));
  return {};
}

core::Result<void> verb_program(OpContext& ctx) {
  auto id = track_positional(ctx, "program Bass electric-bass-finger");
  if (!id) return id.error();
  const Track track = track_of(ctx, *id);
  std::optional<std::string_view> name;
  if (ctx.op.positionals.size() > 1) name = ctx.op.positionals[1];
  auto choice = instrument_params(ctx, name);
  if (!choice) return choice.error();
  const bool named = name || ctx.op.has_param("instrument");
  if (track.channel == kDrumChannel && named && !choice->drums) {
    return core::make_error("track '" + track.name + "' is the drum channel (10): its program " +
                                "chooses a kit, and " + choice->name + " is none",
                            {"program " + core::quote_token(track.name) + " jazz-kit",
                             "track add " + core::quote_token(capitalized(choice->name)) +
                                 " instrument:" + choice->name});
  }
  if (track.channel != kDrumChannel && choice->drums) {
    return core::make_error(choice->name + " is a drum kit, and track '" + track.name +
                                "' is on ch:" + std::to_string(track.channel + 1) +
                                ", not the drum channel (10)",
                            {"track add Kit instrument:" + choice->name});
  }
  if (!choice->program)
    return core::make_error(
        "program requires an instrument or program:N",
        {"program " + track.name + " violin", "program " + track.name + " program:40"});
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  set_program(ctx, track, *tick, *choice);
  if (*tick == 0) {
    ctx.lines.push_back(core::property_changed(
        "Track " + quote_name(track.name) + " instrument set to " + choice->name +
        " (program:" + std::to_string(*choice->program) + ")" + bank_text(*choice)));
  } else {
    ctx.lines.push_back(core::created("Program " + choice->name +
                                      " (program:" + std::to_string(*choice->program) + ") at " +
                                      position_text(ctx.song(), *tick) + " on " + track.name));
  }
  return {};
}

core::Result<void> verb_cc(OpContext& ctx) {
  const auto& op = ctx.op;
  auto id = track_positional(ctx, "cc Piano volume 100 at:1.1");
  if (!id) return id.error();
  const Track track = track_of(ctx, *id);
  if (op.positionals.size() < 3)
    return core::make_error("cc requires TRACK, CONTROLLER and VALUE",
                            {"cc " + track.name + " volume 100 at:1.1",
                             "cc " + track.name + " volume 0->127 from:1.1 to:4.4"});
  auto number = theory::parse_controller(op.positionals[1]);
  if (!number) return number.error();
  auto channel = channel_param(ctx, track);
  if (!channel) return channel.error();
  // VALUE, or a ramp A->B (one token) or A -> B (three).
  std::string value_text = op.positionals[2];
  for (std::size_t i = 3; i < op.positionals.size(); ++i)
    value_text += op.positionals[i];
  auto parse_value = [](std::string_view text) -> std::optional<int> {
    if (text == "on") return 127;
    if (text == "off") return 0;
    auto v = to_int(text);
    if (!v || *v < 0 || *v > 127) return std::nullopt;
    return v;
  };
  const std::string cc_name(theory::controller_name(*number));
  const std::string shown = cc_name.empty() ? "cc" + std::to_string(*number) : cc_name;
  if (auto arrow = value_text.find("->"); arrow != std::string::npos) {
    auto from_value = parse_value(value_text.substr(0, arrow));
    auto to_value = parse_value(value_text.substr(arrow + 2));
    if (!from_value || !to_value)
      return core::make_error("invalid ramp \"" + value_text + "\" — values 0..127, e.g. 0->127");
    if (!op.has_param("from") || !op.has_param("to"))
      return core::make_error(
          "a CC ramp needs from: and to:",
          {"cc " + track.name + " " + op.positionals[1] + " " + value_text + " from:1.1 to:4.4"});
    auto start = position_param(ctx, "from", "1.1");
    if (!start) return start.error();
    auto end = position_param(ctx, "to", "1.1");
    if (!end) return end.error();
    if (*end <= *start) return core::make_error("the ramp ends before it starts");
    auto step = duration_param(ctx, "step", "sixteenth", *start);
    if (!step) return step.error();
    const Tick span = *end - *start;
    const std::size_t steps = std::min<std::size_t>(span / *step, 4096);
    std::size_t written = 0;
    for (std::size_t i = 0; i <= steps; ++i) {
      const Tick tick = steps == 0 ? *start : *start + span * i / steps;
      const double t = steps == 0 ? 1.0 : static_cast<double>(i) / static_cast<double>(steps);
      const int value = static_cast<int>(std::lround(*from_value + (*to_value - *from_value) * t));
      ctx.edit.put_control(
          make_control(ctx, track.id, tick, *channel, ControlKind::cc, *number, value));
      ++written;
    }
    ctx.lines.push_back(core::created(
        "CC " + shown + " " + std::to_string(*from_value) + "->" + std::to_string(*to_value) +
        " from " + position_text(ctx.song(), *start) + " to " + position_text(ctx.song(), *end) +
        " on " + track.name + " (" + std::to_string(written) + " steps)"));
    return {};
  }
  auto value = parse_value(value_text);
  if (!value) return core::make_error("CC value out of range (0-127, on, off): " + value_text);
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  ctx.edit.put_control(
      make_control(ctx, track.id, *tick, *channel, ControlKind::cc, *number, *value));
  ctx.lines.push_back(core::created("CC " + shown + "=" + std::to_string(*value) + " at " +
                                    position_text(ctx.song(), *tick) + " on " + track.name));
  return {};
}

core::Result<void> verb_bend(OpContext& ctx) {
  auto id = track_positional(ctx, "bend Lead 4096 at:1.2");
  if (!id) return id.error();
  const Track track = track_of(ctx, *id);
  if (ctx.op.positionals.size() != 2)
    return core::make_error(
        "bend requires TRACK and VALUE (-8192..8191, center, or semitones "
        "like +2st with the default ±2 range)",
        {"bend " + track.name + " 4096 at:1.2", "bend " + track.name + " center at:2.1"});
  const std::string& text = ctx.op.positionals[1];
  std::optional<int> value;
  if (text == "center" || text == "centre") {
    value = 0;
  } else if (text.ends_with("st")) {
    if (auto st = to_int(std::string_view(text).substr(0, text.size() - 2));
        st && *st >= -2 && *st <= 2)
      value = std::clamp(*st * 4096, -8192, 8191);
  } else if (auto raw = to_int(text); raw && *raw >= -8192 && *raw <= 8191) {
    value = raw;
  }
  if (!value)
    return core::make_error("bend value out of range: " + text +
                            " — -8192..8191, center, or -2st..+2st");
  auto channel = channel_param(ctx, track);
  if (!channel) return channel.error();
  auto tick = position_param(ctx, "at", "1.1");
  if (!tick) return tick.error();
  ctx.edit.put_control(make_control(ctx, track.id, *tick, *channel, ControlKind::bend, 0, *value));
  ctx.lines.push_back(core::created("Pitch bend=" + std::to_string(*value) + " at " +
                                    position_text(ctx.song(), *tick) + " on " + track.name));
  return {};
}

namespace {

core::Result<void> toggle(OpContext& ctx, bool Track::*flag, std::string_view verb,
                          std::string_view on_word, std::string_view off_word) {
  auto id = track_positional(ctx, std::string(verb) + " Piano");
  if (!id) return id.error();
  Track track = track_of(ctx, *id);
  bool next = !(track.*flag);
  if (ctx.op.positionals.size() > 1) {
    const std::string& word = ctx.op.positionals[1];
    if (word == "on") {
      next = true;
    } else if (word == "off") {
      next = false;
    } else {
      return core::make_error(std::string(verb) + " takes TRACK [on|off]");
    }
  }
  track.*flag = next;
  ctx.edit.update_track(track);
  ctx.lines.push_back(core::property_changed("Track " + quote_name(track.name) + " " +
                                             std::string(next ? on_word : off_word)));
  return {};
}

}  // namespace

core::Result<void> verb_mute(OpContext& ctx) {
  return toggle(ctx, &Track::muted, "mute", "muted", "unmuted");
}

core::Result<void> verb_solo(OpContext& ctx) {
  return toggle(ctx, &Track::solo, "solo", "solo on", "solo off");
}

}  // namespace fcp::midi

// The midi verbs, grouped by file (notes, tracks, conductor, editing, performance, tracker,
// preview),
// and the helpers they share (common.cpp; selections through selection.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain.hpp"
#include "core/response.hpp"
#include "domains/midi/document.hpp"
#include "domains/midi/theory/pitch.hpp"

namespace fcp::midi {

struct OpContext {
  MidiDocument& doc;
  SongTransaction& edit;
  core::CallContext& call;
  const core::ParsedOp& op;
  std::vector<std::string> lines;
  std::vector<core::Attachment> attachments;  // audio a preview gives the client

  const Song& song() const { return edit.song(); }
};

// Every midi verb with its positionals, keys, help, examples and handler, and the words agents
// use for them (table.cpp).
const core::VerbTable<OpContext>& verb_table();

// ---- tracks, params, positions (common.cpp) ---------------------------------------------------
// A track by name: exact, case-insensitive, normalized, unique prefix. Errors suggest the op with
// the closest name, or `track add NAME`.
core::Result<EntityId> resolve_track(const OpContext& ctx, std::string_view name);
// The first positional as a track, with a usage error naming `usage` when missing.
core::Result<EntityId> track_positional(const OpContext& ctx, std::string_view usage);
const Track& track_of(const OpContext& ctx, EntityId id);

// Positions: M.B, M.B.T, tick:N, +DUR/-DUR (relative to where the last note ended), end.
core::Result<Tick> parse_position_text(const OpContext& ctx, std::string_view text);
// `error` with each bare value hint ("1.1", "8n") turned into the whole op with key:value fixed.
core::Error with_op_hints(const OpContext& ctx, std::string_view key, core::Error error);
core::Result<Tick> position_param(const OpContext& ctx, std::string_view key,
                                  std::string_view fallback);
// DUR of `key`, or `fallback`; bar durations (bar, 2bars, half-bar) are measured from `at` by
// the meter in force there.
core::Result<std::uint32_t> duration_param(const OpContext& ctx, std::string_view key,
                                           std::string_view fallback, Tick at);
core::Result<int> velocity_param(const OpContext& ctx, std::string_view key, int fallback);
// ch:N (1..16) or the track's channel; returns 0..15.
core::Result<int> channel_param(const OpContext& ctx, const Track& track);
// `error` (of a pitch, chord or instrument written in the op) with its hints made complete
// ops: each hint replaces the positional `written`, or the value of `key` when one is given; a
// hint that is itself a key:value (program:4) replaces the whole token.
core::Error hints_as_ops(const OpContext& ctx, core::Error error, std::string_view written,
                         std::string_view key = {});
// A pitch; on drum tracks (channel 10) GM drum names work too (kick, snare, closed-hat, …).
core::Result<int> parse_pitch_for(const OpContext& ctx, const Track& track, std::string_view text);

std::string position_text(const Song& song, Tick tick);
std::string duration_text(const Song& song, std::uint32_t ticks);
// The same for a note starting at `at`: a length with no note-value name that is a whole number of
// bars from there (or half a bar) is named in bars ("2bars"), as dur: reads it back.
std::string duration_text(const Song& song, std::uint32_t ticks, Tick at);
// Pitches as replies and views spell them: drum names on drum tracks, else the note name with
// the accidentals of the key in force where the note is (F minor: Ab, Eb; C major: sharps).
theory::Accidentals accidentals_at(const Song& song, Tick at);
std::string pitch_text(const Track& track, int pitch,
                       theory::Accidentals accidentals = theory::Accidentals::sharps);
std::string pitch_text(const Song& song, const Track& track, int pitch, Tick at);
// The spelling an op's reply echoes a pitch written as `written` with: the key's where it has
// accidentals, else the user's (Eb2 in C major stays Eb2; midi:63 is D#2).
theory::Accidentals echo_accidentals(const Song& song, Tick at, std::string_view written);
std::string instrument_text(const Song& song, EntityId track);
std::string quote_name(std::string_view name);  // 'Piano'

// ---- selections (selection.hpp: the vocabulary; core's engine combines) -------------------------
// The notes the op's selectors choose, in track and time order. Errors: no selectors, and kinds
// other than notes (these verbs change notes; `remove` takes every kind). When nothing matches it
// adds the `?` line and returns no notes: the op changes nothing and the batch goes on.
core::Result<std::vector<EntityId>> notes_to_change(OpContext& ctx);
// The op with each bare word that names a track written as @track:NAME (`transpose Bass -12` →
// `transpose @track:Bass -12`); nullopt when no word names a track.
std::optional<std::string> track_words_as_selectors(const OpContext& ctx);
// Example hints made true for this song: "Piano" replaced by a track the song has, hints naming
// a track the song lacks left out; for a song without tracks, the op that adds one.
std::vector<std::string> song_hints(const OpContext& ctx, std::vector<std::string> hints);
// The op as written with other positionals: the verb, its selectors (and `more_selectors`), the
// positionals, its key:value tokens as written.
std::string op_with_positionals(const OpContext& ctx, const std::vector<std::string>& positionals,
                                const std::vector<std::string>& more_selectors = {});

// ---- handlers ---------------------------------------------------------------------------------
core::Result<void> verb_note(OpContext& ctx);
core::Result<void> verb_chord(OpContext& ctx);
core::Result<void> verb_track(OpContext& ctx);
core::Result<void> verb_cc(OpContext& ctx);
core::Result<void> verb_bend(OpContext& ctx);
core::Result<void> verb_mute(OpContext& ctx);
core::Result<void> verb_solo(OpContext& ctx);
core::Result<void> verb_program(OpContext& ctx);
core::Result<void> verb_tempo(OpContext& ctx);
core::Result<void> verb_time_sig(OpContext& ctx);
core::Result<void> verb_key_sig(OpContext& ctx);
core::Result<void> verb_marker(OpContext& ctx);
core::Result<void> verb_title(OpContext& ctx);
core::Result<void> verb_remove(OpContext& ctx);
core::Result<void> verb_move(OpContext& ctx);
core::Result<void> verb_copy(OpContext& ctx);
core::Result<void> verb_transpose(OpContext& ctx);
core::Result<void> verb_velocity(OpContext& ctx);
core::Result<void> verb_quantize(OpContext& ctx);
core::Result<void> verb_modify(OpContext& ctx);
core::Result<void> verb_repeat(OpContext& ctx);
core::Result<void> verb_crescendo(OpContext& ctx);
core::Result<void> verb_arpeggiate(OpContext& ctx);
core::Result<void> verb_swing(OpContext& ctx);
core::Result<void> verb_humanize(OpContext& ctx);
core::Result<void> verb_legato(OpContext& ctx);
core::Result<void> verb_staccato(OpContext& ctx);
core::Result<void> verb_tracker(OpContext& ctx);
core::Result<void> verb_step(OpContext& ctx);
core::Result<void> verb_preview(OpContext& ctx);

}  // namespace fcp::midi

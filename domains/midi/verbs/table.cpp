// The midi verb table: every verb once, with its positionals, keys, help, examples and handler;
// and the words agents use for them.
#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {
namespace {

using core::choice_key;
using core::integer_key;
using core::key;
using core::VerbSpec;

core::KeySpec at_key(std::string name = "at") {
  return key(std::move(name), "POS");
}
core::KeySpec dur_key(std::string name = "dur") {
  return key(std::move(name), "DUR");
}
core::KeySpec vel_key() {
  return key("vel", "V", "1-127 or ppp…fff");
}
core::KeySpec ch_key() {
  return integer_key("ch").between(1, 16);
}
core::KeySpec ramp_mode_key() {
  return choice_key("mode", {"scale", "shift", "set"}).by_default("scale");
}

void add_music_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"note", "TRACK PITCH…", "music",
                     "notes (drum names on drum tracks); at: 1.1, dur: quarter, vel: 80 (mf), ch: "
                     "the track's when left out"}
                .with(at_key().places("1.1"))
                .with(dur_key().by_default("quarter"))
                .with(vel_key().by_default("80"))
                .with(ch_key())
                .example("note Keys C4 E4 G4 at:1.1 dur:half vel:mf")
                .example("note Drums kick at:2.1 dur:8n")
                .example("note Bass A2 at:1.1 dur:whole")
                .example("note Lead E5 at:1.2.50 dur:8n"),
            verb_note);
  verbs.add(
      VerbSpec{"chord", "TRACK SYMBOL", "music",
               "a chord as one op (Cmaj7, Am/E, G7alt, C13); octave:N puts the root in octave N "
               "(4: C4 = middle C), inv:N raises the N lowest notes an octave (1 = first "
               "inversion); strum:DUR starts each note DUR after the one below"}
          .with(at_key().places("1.1"))
          .with(dur_key().by_default("quarter"))
          .with(vel_key().by_default("80"))
          .with(ch_key())
          .with(integer_key("octave").between(-1, 9).by_default("4"))
          .with(integer_key("inv", "N", "inversion"))
          .with(choice_key("voicing", {"close", "open", "drop2", "drop3", "spread"}))
          .with(dur_key("strum"))
          .example("chord Keys Am7 at:2.1 dur:whole voicing:open")
          .example("chord Keys F/A at:3.1 dur:half octave:3 inv:1"),
      verb_chord);
  verbs.add(VerbSpec{"cc", "TRACK CONTROLLER VALUE|A->B", "music",
                     "controllers by name or number; a ramp A->B takes from: and to:"}
                .with(at_key().places("1.1").apart_from({"from", "to"}))
                .with(ch_key())
                .with(at_key("from"))
                .with(at_key("to"))
                .with(dur_key("step"))
                .example("cc Keys sustain on at:1.1")
                .example("cc Keys volume 0->127 from:1.1 to:4.4"),
            verb_cc);
  verbs.add(VerbSpec{"bend", "TRACK VALUE|center|±Nst", "music", "pitch bend"}
                .with(at_key().places("1.1"))
                .with(ch_key())
                .example("bend Lead +2st at:1.3"),
            verb_bend);
}

void add_state_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"track", "add|remove|rename NAME", "state",
                     "tracks; add takes a GM instrument (piano when left out) and the next free "
                     "channel; instrument:drums (or a kit, or ch:10) makes a drum track on "
                     "channel 10"}
                .with(key("instrument", "INST").only_for({"add"}))
                .with(integer_key("program").between(0, 127).only_for({"add"}))
                .with(ch_key().only_for({"add"}))
                .with(key("bank", "MSB[.LSB]").only_for({"add"}))
                .with(key("to", "NEW").only_for({"rename"}))
                .deletes()
                .example("track add Keys instrument:electric-piano-1")
                .example("track add Drums instrument:drums")
                .example("track add Bass instrument:electric-bass-finger")
                .example("track add Lead instrument:lead-2-sawtooth")
                .example("track add Strings instrument:string-ensemble-1")
                .example("track rename Strings to:Pad"),
            verb_track);
  verbs.add(VerbSpec{"program", "TRACK [INSTRUMENT]", "state", "instrument, also mid-track"}
                .with(key("instrument", "INST"))
                .with(integer_key("program").between(0, 127))
                .with(key("bank", "MSB[.LSB]"))
                .with(at_key().places("1.1"))
                .example("program Keys electric-piano-2 at:9.1"),
            verb_program);
  verbs.add(VerbSpec{"mute", "TRACK [on|off]", "state", "toggle mute (export honours it)"}.example(
                "mute Pad on"),
            verb_mute);
  verbs.add(VerbSpec{"solo", "TRACK [on|off]", "state", "toggle solo (export honours it)"}.example(
                "solo Drums off"),
            verb_solo);
}

void add_conductor_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"tempo", "BPM | @range:M.B-M.B", "meta",
                     "tempo map: BPM from at: (1.1 replaces the initial tempo); scale: multiplies "
                     "every tempo of the range, set: makes the range one tempo; without @range "
                     "the whole song; the tempo after the range stays as it was"}
                .with(at_key().places("1.1").apart_from({"scale", "set"}))
                .with(core::number_key("scale", "F",
                                       "multiply the range's tempos (2 = twice "
                                       "as fast)")
                          .between(0.01, 100)
                          .apart_from({"set"}))
                .with(core::number_key("set", "BPM", "one tempo over the range").between(10, 1000))
                .example("tempo 140 at:9.1")
                .example("tempo scale:2 @range:5-8")
                .example("tempo set:90 @range:9.1-12.4"),
            verb_tempo);
  verbs.add(VerbSpec{"time-sig", "N/D", "meta", "meter from a bar on"}
                .with(key("at", "BAR.1").places("1.1"))
                .example("time-sig 7/8 at:9.1"),
            verb_time_sig);
  verbs.add(VerbSpec{"key-sig", "KEY", "meta", "key: C, Em, F#m, Bb-major"}
                .with(at_key().places("1.1"))
                .example("key-sig Em at:1.1"),
            verb_key_sig);
  verbs.add(VerbSpec{"marker", "\"TEXT\"", "meta", "markers (saved as FF 06)"}
                .with(at_key().places("1.1"))
                .example("marker \"Chorus\" at:9.1"),
            verb_marker);
  verbs.add(VerbSpec{"title", "\"TEXT\"", "meta", "song title (saved)"}.example("title \"Groove\""),
            verb_title);
}

void add_editing_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"remove",
                     "@SELECTORS… | @cc[:NAME] @bend @program @pressure @tempo @marker @time-sig "
                     "@key-sig, with @track @range",
                     "editing", "delete notes, or other events by kind"}
                .deletes()
                .example("remove @track:Keys @pitch:G4 @range:1.1"),
            verb_remove);
  verbs.add(VerbSpec{"move", "@SELECTORS…", "editing", "earliest note to to:, or onto track:"}
                .with(at_key("to"))
                .with(key("track", "NAME"))
                .example("move @track:Keys @range:1.1-1.4 to:4.1"),
            verb_move);
  verbs.add(VerbSpec{"copy", "@SELECTORS…", "editing", "duplicate notes"}
                .with(at_key("to"))
                .with(key("track", "NAME"))
                .example("copy @track:Keys @range:1.1-2.4 to:5.1"),
            verb_copy);
  verbs.add(
      VerbSpec{"transpose", "@SELECTORS… ±N", "editing", "semitones (+12: an octave up)"}.example(
          "transpose @track:Bass -12"),
      verb_transpose);
  verbs.add(VerbSpec{"velocity", "@SELECTORS… ±N|=V", "editing", "relative or absolute"}.example(
                "velocity @track:Drums @pitch:kick +10"),
            verb_velocity);
  verbs.add(VerbSpec{"quantize", "@SELECTORS…", "editing", "snap onsets (and ends)"}
                .with(dur_key("grid").by_default("sixteenth"))
                .with(integer_key("strength").between(1, 100))
                .with(core::bool_key("ends", "snap note ends too"))
                .example("quantize @track:Lead grid:8n strength:50"),
            verb_quantize);
  verbs.add(VerbSpec{"modify", "@SELECTORS…", "editing", "set note fields"}
                .through_keys()
                .with(key("pitch", "P"))
                .with(vel_key())
                .with(dur_key())
                .with(at_key())
                .with(ch_key())
                .example("modify @track:Keys @pitch:C4 vel:100 dur:half"),
            verb_modify);
  verbs.add(
      VerbSpec{"repeat", "@SELECTORS…", "editing",
               "count:N adds N copies after the selection (count:3: the original and 3 more), "
               "each every: after the last (default: the whole bars the selection covers); to: "
               "places the first copy"}
          .with(integer_key("count").between(1, 1000).by_default("1"))
          .with(at_key("to"))
          .with(dur_key("every"))
          .example("repeat @track:Drums count:3"),
      verb_repeat);
  verbs.add(VerbSpec{"crescendo", "@SELECTORS…", "editing",
                     "the level goes from: (default: the notes' present level) → to: over time; "
                     "mode:scale multiplies each velocity (accents keep their proportions; the "
                     "loudest are eased under 127), shift adds (they keep their distance), set "
                     "sets every velocity on the ramp"}
                .with(key("from", "VEL"))
                .with(key("to", "VEL").require())
                .with(ramp_mode_key())
                .example("crescendo @track:Keys @range:1.1-4.4 from:p to:ff")
                .example("crescendo @track:Keys @range:1-4 to:f")
                .example("crescendo @track:Drums @range:1-4 from:mp to:f mode:shift"),
            verb_crescendo);
  verbs.add(VerbSpec{"decrescendo", "@SELECTORS…", "editing", "crescendo downwards (same modes)"}
                .with(key("from", "VEL"))
                .with(key("to", "VEL").require())
                .with(ramp_mode_key())
                .example("decrescendo @track:Keys @range:1.1-4.4 from:ff to:p"),
            verb_crescendo);
}

void add_performance_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"arpeggiate", "@SELECTORS…", "performance", "spread chords in time"}
                .with(dur_key("step").by_default("sixteenth"))
                .with(choice_key("mode", {"up", "down", "updown"}))
                .example("arpeggiate @track:Keys step:8n mode:updown"),
            verb_arpeggiate);
  verbs.add(VerbSpec{"strum", "@SELECTORS…", "performance", "arpeggiate with a short step"}
                .with(dur_key("step").by_default("sixteenth"))
                .with(choice_key("mode", {"up", "down"}))
                .example("strum @track:Keys @range:3.1 step:32n"),
            verb_arpeggiate);
  verbs.add(VerbSpec{"swing", "@SELECTORS…", "performance",
                     "delay off-beats of grid: (amount:50 straight, 67 triplet feel)"}
                .with(integer_key("amount").between(50, 75).by_default("60"))
                .with(dur_key("grid").by_default("eighth"))
                .example("swing @track:Keys amount:60 grid:8n"),
            verb_swing);
  verbs.add(VerbSpec{"humanize", "@SELECTORS…", "performance",
                     "seeded timing and velocity variation; the song keeps its length and no note "
                     "comes to overlap the next of its pitch (such notes are shortened)"}
                .with(integer_key("timing", "TICKS").by_default("10"))
                .with(integer_key("vel").between(0, 64).by_default("8"))
                .with(integer_key("seed").between(0, 4294967295.0).by_default("1"))
                .example("humanize @track:Keys timing:8 vel:5 seed:42"),
            verb_humanize);
  verbs.add(
      VerbSpec{"legato", "@SELECTORS…", "performance", "extend notes to the next onset"}.example(
          "legato @track:Keys"),
      verb_legato);
  verbs.add(VerbSpec{"staccato", "@SELECTORS…", "performance",
                     "shorten notes: amount:N keeps N% of each note's length"}
                .with(integer_key("amount").between(5, 95).by_default("50"))
                .example("staccato @track:Drums amount:50"),
            verb_staccato);
}

// A block is several ops of one call; the card's TRACKER section shows one whole.
void add_tracker_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"tracker", "TRACK import | end", "tracker",
                     "open or close a step block (closed in the same call; one undo step)"}
                .with(at_key())
                .with(key("res", "quarter|8th|16th|32nd").by_default("16th")),
            verb_tracker);
  verbs.add(VerbSpec{"step", "NN: [PITCH_vVEL_STEPS], …", "tracker",
                     "one step line inside a tracker block"},
            verb_step);
}

// Listening: audio in the reply, which the client can play.
void add_audio_verbs(core::VerbTable<OpContext>& verbs) {
  verbs.add(VerbSpec{"preview", "@range:M-N @track:NAME…", "listen",
                     "render those bars quickly and give them in the reply as audio (22050 Hz "
                     "WAV unless rate:/fmt: say otherwise; up to 4 MB, about 47 s of WAV at "
                     "22050 Hz); @track: (optional) plays only those tracks, else the song as "
                     "heard (mute, solo); changes nothing"}
                .with(core::integer_key("rate", "HZ").between(8000, 48000).by_default("22050"))
                .with(choice_key("fmt", {"wav", "flac", "ogg"}).by_default("wav"))
                .example("preview @range:1-2")
                .example("preview @range:1-2 @track:Drums fmt:ogg"),
            verb_preview);
}

void add_synonyms(core::VerbRegistry& verbs) {
  for (const auto& [word, verb] : std::initializer_list<std::pair<const char*, const char*>>{
           {"delete", "remove"},
           {"del", "remove"},
           {"rm", "remove"},
           {"erase", "remove"},
           {"add track", "track add"},
           {"new track", "track add"},
           {"create track", "track add"},
           {"delete track", "track remove"},
           {"del track", "track remove"},
           {"rm track", "track remove"},
           {"rename track", "track rename"},
           {"rename", "track rename"},
           {"create", "track add"},
           {"new", "track add"},
           {"add", "note"},
           {"insert", "note"},
           {"play", "note"},
           {"notes", "note"},
           {"instrument", "program"},
           {"patch", "program"},
           {"controller", "cc"},
           {"control", "cc"},
           {"pitchbend", "bend"},
           {"pitch-bend", "bend"},
           {"bpm", "tempo"},
           {"meter", "time-sig"},
           {"timesig", "time-sig"},
           {"time-signature", "time-sig"},
           {"key", "key-sig"},
           {"keysig", "key-sig"},
           {"key-signature", "key-sig"},
           {"section", "marker"},
           {"set", "modify"},
           {"edit", "modify"},
           {"update", "modify"},
           {"change", "modify"},
           {"shift", "move"},
           {"nudge", "move"},
           {"duplicate", "copy"},
           {"clone", "copy"},
           {"loop", "repeat"},
           {"snap", "quantize"},
           {"quantise", "quantize"},
           {"arp", "arpeggiate"},
           {"arpeggio", "arpeggiate"},
           {"humanise", "humanize"},
           {"shuffle", "swing"},
           {"listen", "preview"},
           {"audition", "preview"},
       }) {
    verbs.add_verb_synonym(word, verb);
  }
  // Checked in order: a cc ramp's start and end before the general words.
  verbs.add_key_synonym("start", "from:{}", "cc");
  verbs.add_key_synonym("end", "to:{}", "cc");
  for (const auto& [word, replacement] : std::initializer_list<std::pair<const char*, const char*>>{
           {"velocity", "vel:{}"},     {"velo", "vel:{}"},        {"position", "at:{}"},
           {"pos", "at:{}"},           {"start", "at:{}"},        {"time", "at:{}"},
           {"beat", "at:{}"},          {"when", "at:{}"},         {"duration", "dur:{}"},
           {"length", "dur:{}"},       {"len", "dur:{}"},         {"channel", "ch:{}"},
           {"chan", "ch:{}"},          {"inst", "instrument:{}"}, {"sound", "instrument:{}"},
           {"patch", "instrument:{}"}, {"prog", "program:{}"},    {"inversion", "inv:{}"},
           {"times", "count:{}"},      {"repeats", "count:{}"},   {"interval", "every:{}"},
           {"period", "every:{}"},     {"resolution", "grid:{}"}, {"resolution", "res:{}"},
           {"destination", "to:{}"},   {"target", "to:{}"},
       }) {
    verbs.add_key_synonym(word, replacement);
  }
  verbs.add_key_synonym("name", "to:{}", "track");
  verbs.add_key_synonym("as", "to:{}", "track");
}

core::VerbTable<OpContext> make_table() {
  core::VerbTable<OpContext> verbs;
  add_state_verbs(verbs);  // first: the card's examples, in order, build a song from nothing
  add_music_verbs(verbs);
  add_conductor_verbs(verbs);
  add_editing_verbs(verbs);
  add_performance_verbs(verbs);
  add_tracker_verbs(verbs);
  add_audio_verbs(verbs);
  add_synonyms(verbs);
  return verbs;
}

}  // namespace

const core::VerbTable<OpContext>& verb_table() {
  static const core::VerbTable<OpContext> table = make_table();
  return table;
}

}  // namespace fcp::midi

// The verb name → handler table.
#include <unordered_map>

#include "domains/midi/verbs/verbs.hpp"

namespace fcp::midi {

VerbHandler find_verb_handler(std::string_view verb) {
  static const std::unordered_map<std::string_view, VerbHandler> handlers{
      {"note", verb_note},
      {"chord", verb_chord},
      {"track", verb_track},
      {"cc", verb_cc},
      {"bend", verb_bend},
      {"mute", verb_mute},
      {"solo", verb_solo},
      {"program", verb_program},
      {"tempo", verb_tempo},
      {"time-sig", verb_time_sig},
      {"key-sig", verb_key_sig},
      {"marker", verb_marker},
      {"title", verb_title},
      {"remove", verb_remove},
      {"move", verb_move},
      {"copy", verb_copy},
      {"transpose", verb_transpose},
      {"velocity", verb_velocity},
      {"quantize", verb_quantize},
      {"modify", verb_modify},
      {"repeat", verb_repeat},
      {"crescendo", verb_crescendo},
      {"decrescendo", verb_crescendo},
      {"arpeggiate", verb_arpeggiate},
      {"strum", verb_arpeggiate},
      {"swing", verb_swing},
      {"humanize", verb_humanize},
      {"legato", verb_legato},
      {"staccato", verb_staccato},
      {"checkpoint", verb_checkpoint},
      {"tracker", verb_tracker},
      {"step", verb_step},
  };
  auto it = handlers.find(verb);
  return it == handlers.end() ? nullptr : it->second;
}

}  // namespace fcp::midi

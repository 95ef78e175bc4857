// The conductor's views (midi_query): `conductor` lists every tempo, time signature, key signature
// and marker in time order; `tempo`, `meter`, `key` and `markers` list one kind. Each takes a range
// as the other views read it (end beat included; `5-8` is bars 5 to 8) and says what is in force
// where the range starts. Long lists come in pages that end with the query for the next one.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain.hpp"
#include "core/tokenizer.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

enum class ConductorView { all, tempo, meter, key, markers };

// The view a word names: its query word, or another name of the kind ("time-sig", "key-sig",
// "marker", "tempo-map"); nullopt for other words.
std::optional<ConductorView> conductor_view_named(std::string_view word);
std::string_view conductor_view_word(ConductorView view);  // "tempo", "meter", …

// The view over `words` (the query's words after its verb: nothing, or one range).
core::Result<std::string> query_conductor(const Song& song, ConductorView view,
                                          std::span<const core::Token> words);

std::vector<core::VerbSpec> conductor_query_specs();

}  // namespace fcp::midi

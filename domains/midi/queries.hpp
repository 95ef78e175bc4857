// midi_query: map, tracks, events, describe, stats, find, piano-roll, tracker, instruments and
// the conductor's views (conductor_view.hpp); status, history and diff are the engine's, with the
// document's status_lines().
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain.hpp"

namespace fcp::midi {

class MidiDocument;

// map, stats and describe carry their structured data (the tracks their text shows).
std::optional<core::Result<core::QueryAnswer>> run_query(const MidiDocument& doc,
                                                         std::string_view verb,
                                                         std::string_view args,
                                                         const core::CallContext& ctx);
std::vector<core::VerbSpec> query_specs();

}  // namespace fcp::midi

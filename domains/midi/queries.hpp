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

std::optional<core::Result<std::string>> run_query(const MidiDocument& doc, std::string_view verb,
                                                   std::string_view args,
                                                   const core::CallContext& ctx);
// The structured form of a map, stats or describe query that run_query answered.
core::QueryData query_data(const MidiDocument& doc, std::string_view verb, std::string_view args);
std::vector<core::VerbSpec> query_specs();

}  // namespace fcp::midi

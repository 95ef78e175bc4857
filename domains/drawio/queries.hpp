// drawio_query: list, describe, connections, stats, map, find (status, history and diff are
// the engine's, with the document's status_lines()).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain.hpp"

namespace fcp::drawio {

class DrawioDocument;

// The answer to a query word this domain knows, or nullopt to let the engine try its own.
std::optional<core::Result<std::string>> run_query(const DrawioDocument& doc, std::string_view verb,
                                                   std::string_view args,
                                                   const core::CallContext& ctx);
// The structured form of a map, stats, describe or list query that run_query answered.
core::QueryData query_data(const DrawioDocument& doc, std::string_view verb, std::string_view args,
                           const core::CallContext& ctx);
// The query words with syntax and description, for the card and unknown-query errors.
std::vector<core::VerbSpec> query_specs();

}  // namespace fcp::drawio

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

// The answer to a query word this domain knows, or nullopt to let the engine try its own; list,
// describe, stats and map carry their structured data (the entities their text shows).
std::optional<core::Result<core::QueryAnswer>> run_query(const DrawioDocument& doc,
                                                         std::string_view verb,
                                                         std::string_view args,
                                                         const core::CallContext& ctx);
// The query words with syntax and description, for the card and unknown-query errors.
std::vector<core::VerbSpec> query_specs();

}  // namespace fcp::drawio

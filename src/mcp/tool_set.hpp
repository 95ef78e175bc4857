// The four MCP tools of a domain: names, descriptions, JSON Schemas and argument checking.
#pragma once

#include <boost/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "core/result.hpp"

namespace fcp::mcp {

// fixture: one of the MCP conformance suite's test tools (only with --conformance-fixtures, see
// conformance_fixtures.hpp); it has no domain.
enum class ToolKind { ops, query, session, help, fixture };

struct Tool {
  std::string name;  // "drawio", "drawio_query", …
  ToolKind kind;
  const core::Domain* domain;
  std::string description;
  boost::json::object input_schema;
  // The client capabilities a call needs (a stateless 2026-07-28 request that does not declare
  // them is refused with -32021); empty for the domain tools.
  boost::json::object client_capabilities;
  // The JSON Schema of the tool's structuredContent (tools/list outputSchema); empty: none.
  boost::json::object output_schema = {};
};

// The domain's four tools; the mutation tool's description embeds the reference card.
// `handle_prefix`: the two letters of the domain's document handles (doc:dw-…).
std::vector<Tool> make_tools(const core::Domain& domain, std::string_view handle_prefix);

// The checked arguments of one call.
struct ToolArguments {
  std::vector<std::string> ops;    // ToolKind::ops
  std::string text;                // q or action
  std::optional<std::string> doc;  // the document handle, when given
};

// Checks `arguments` against the tool's schema; errors are reported as isError results.
core::Result<ToolArguments> read_arguments(const Tool& tool, const boost::json::object& arguments);

// The outputSchema of a domain's query tool: every structuredContent it returns conforms to it.
// Its kinds are the queries the domain's table marks structured, and "other".
boost::json::object query_output_schema(const core::Domain& domain);
// A query's structured answer as the structuredContent of its tools/call result.
boost::json::object structured_content(const core::QueryResult& result);

// The MCP tools/list entry; outputSchema only `with_output_schema` (protocol 2025-06-18 on).
boost::json::object describe(const Tool& tool, bool with_output_schema);

}  // namespace fcp::mcp

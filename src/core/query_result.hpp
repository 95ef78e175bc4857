// The structured form of a query's answer (MCP structuredContent beside the text), for the query
// kinds map, stats, describe and list of every domain. The engine fills kind, title and digest;
// the domain fills counts and items from its model (Document::query_data).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fcp::core {

// One entity the answer is about: a drawio shape, a midi track, a lofi object.
struct QueryItem {
  std::string id;    // the reference an op takes for it
  std::string name;  // its label or name ("" when it has none)
  std::string kind;  // its type or class ("process", "track", "live.dial")
  std::vector<std::pair<std::string, std::string>> fields;  // further facts, in reply order
};

// What a domain reports for one query: named counts and the entities listed or described.
struct QueryData {
  std::vector<std::pair<std::string, std::int64_t>> counts;
  std::vector<QueryItem> items;
};

// The query kinds answered with structured content; any other successful query is "other"
// (kind, title and digest only).
inline bool is_structured_query(std::string_view verb) {
  return verb == "map" || verb == "stats" || verb == "describe" || verb == "list";
}

struct QueryResult {
  std::string kind;                                  // map | stats | describe | list | other
  std::string query;                                 // the query as written
  std::optional<std::string> title = std::nullopt;   // the document's title (none without one)
  std::optional<std::string> digest = std::nullopt;  // the one-line state digest
  QueryData data = {};
};

}  // namespace fcp::core

// The structured form of a query's answer (MCP structuredContent beside the text). A domain's
// query answers its text and, for the query kinds its query table marks `structured`
// (VerbSpec::structured), the counts and entities of that same answer, built from the same
// selection; the engine adds kind, title and digest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// A fact about an entity, typed: a position is a number, a flag a boolean.
using FieldValue = std::variant<std::string, std::int64_t, double, bool>;

// One entity the answer is about: a drawio shape, group or edge, a midi track, a lofi object.
struct QueryItem {
  std::string id;    // the reference an op takes for it (a drawio cell id, a track name)
  std::string name;  // its label or name ("" when it has none)
  std::string kind;  // its type or class ("process", "group", "edge", "track", "live.dial")
  std::vector<std::pair<std::string, FieldValue>> fields = {};  // further facts, in reply order
};

// What a domain reports for one query: named counts (of what the answer reads: drawio's
// @page:NAME page) and the entities the text shows, in the text's order. `total` is how many
// entities the answer covers; `items` holds the first ones, as many as the text shows (the same
// cap), so a text that ends "… N more" has total = items + N.
struct QueryData {
  std::vector<std::pair<std::string, std::int64_t>> counts = {};
  std::vector<QueryItem> items = {};
  std::size_t total = 0;
  bool truncated() const { return items.size() < total; }
  // Appends `item`, counting it in total.
  void add(QueryItem item) {
    items.push_back(std::move(item));
    ++total;
  }
};

// A domain's answer to a query: its text and, for a structured query kind, its data.
struct QueryAnswer {
  QueryAnswer(std::string answer) : text(std::move(answer)) {}  // NOLINT: a text-only answer
  QueryAnswer(std::string answer, QueryData structured)
      : text(std::move(answer)), data(std::move(structured)) {}
  std::string text;
  std::optional<QueryData> data;
};

// The answer of a query that has text only, or its error.
inline Result<QueryAnswer> text_only(Result<std::string> answer) {
  if (!answer) return answer.error();
  return QueryAnswer{std::move(*answer)};
}

// A rough size of `data` as JSON, for limits.max_reply_bytes (counted with the text).
std::size_t estimated_json_bytes(const QueryData& data);

struct QueryResult {
  std::string kind;                                  // a structured query's word, or "other"
  std::string query;                                 // the query as written
  std::optional<std::string> title = std::nullopt;   // the document's title (none without one)
  std::optional<std::string> digest = std::nullopt;  // the one-line state digest
  QueryData data = {};
};

}  // namespace fcp::core

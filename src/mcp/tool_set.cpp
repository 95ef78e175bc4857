#include "mcp/tool_set.hpp"

#include <variant>

#include "core/session.hpp"
#include "mcp/utf8.hpp"

namespace fcp::mcp {
namespace json = boost::json;

namespace {

json::object string_property(std::string_view description) {
  return json::object{{"type", "string"}, {"description", description}};
}

// The optional `doc` argument every tool of a domain takes. The 2026-07-28 revision's
// x-mcp-header annotation lets a client mirror it into an `Mcp-Param-Doc` HTTP header, so a
// gateway can route a call to the daemon holding the document without parsing the body.
json::object doc_property(ToolKind kind, const std::string& domain, std::string_view prefix) {
  std::string description = "The handle of the document to work on (doc:" + std::string(prefix) +
                            "-…, as " + domain +
                            "_session new and open answer). Optional: "
                            "without it the call uses this session's current document. Pass it "
                            "on every call when your client opens a new MCP session per call.";
  if (kind == ToolKind::session) {
    description += " With new or open it names the document that stops being current.";
  }
  return json::object{{"type", "string"}, {"description", description}, {"x-mcp-header", "Doc"}};
}

json::object schema_for(ToolKind kind, const std::string& domain, std::string_view handle_prefix) {
  json::object properties;
  json::array required;
  switch (kind) {
    case ToolKind::ops:
      properties["ops"] = json::object{
          {"type", "array"},
          {"items", json::object{{"type", "string"}}},
          {"description", "Op strings, run in order as one atomic batch (see the reference card)"}};
      required.emplace_back("ops");
      break;
    case ToolKind::query:
      properties["q"] = string_property("A query, e.g. 'map', 'describe REF', 'history 5'");
      required.emplace_back("q");
      break;
    case ToolKind::session:
      properties["action"] = string_property(
          "A session action: 'new \"Title\"', 'open PATH', 'save', 'save as:PATH', "
          "'checkpoint NAME', 'undo', 'undo N', 'undo to:NAME', 'redo', 'close', 'close HANDLE', "
          "'list' (" +
          domain + ")");
      required.emplace_back("action");
      break;
    case ToolKind::help:
      break;
    case ToolKind::fixture:
      return json::object{{"type", "object"}, {"properties", std::move(properties)}};
  }
  properties["doc"] = doc_property(kind, domain, handle_prefix);
  json::object schema{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

std::string description_for(ToolKind kind, const core::Domain& domain, std::string_view prefix) {
  const std::string name(domain.name());
  const std::string what(domain.display_name());
  switch (kind) {
    case ToolKind::ops:
      return "Edit the open " + what + " document with op strings (one atomic batch per call). " +
             "Start with " + name + "_session 'new \"Title\"' or 'open PATH'; pass the handle " +
             "they answer as `doc` to reach the document from any session.\n\n" +
             core::render_reference_card(domain, nullptr);
    case ToolKind::query: {
      // The domain's own queries, then the engine's: exactly what this tool answers.
      std::string list;
      for (const auto& spec : domain.queries())
        list += (list.empty() ? "" : "; ") + spec.syntax();
      for (const auto& spec : core::engine_queries())
        list += (list.empty() ? "" : "; ") + spec.syntax();
      return "Inspect the open " + what + " document (read-only). Queries: " + list + ". See " +
             name + "_help.";
    }
    case ToolKind::session: {
      std::string extensions;
      for (const auto& spec : domain.session_extensions())
        extensions += ", " + spec.syntax();
      return "Lifecycle of the " + what +
             " document: new, open (both answer with a handle doc:" + std::string(prefix) +
             "-… that any session can pass as `doc`), save [as:PATH], checkpoint, undo [N] (N "
             "ops, one each, not a whole batch) / undo to:NAME (back to a checkpoint), redo [N], "
             "close [HANDLE], list (the open documents)" +
             extensions + " (see " + name + "_help).";
    }
    case ToolKind::fixture:
      return {};
    case ToolKind::help:
      return "The full " + what +
             " reference card: verbs, vocabulary, selectors, queries, "
             "session commands, and what this document added at run time.";
  }
  return {};
}

core::Error argument_error(const Tool& tool, const std::string& message) {
  std::string example;
  switch (tool.kind) {
    case ToolKind::ops:
      example = "{\"ops\": [\"…\"]}";
      break;
    case ToolKind::query:
      example = "{\"q\": \"map\"}";
      break;
    case ToolKind::session:
      example = "{\"action\": \"new \\\"Title\\\"\"}";
      break;
    case ToolKind::help:
    case ToolKind::fixture:
      example = "{}";
      break;
  }
  return core::make_error("invalid arguments for " + tool.name + ": " + message, {example});
}

}  // namespace

std::vector<Tool> make_tools(const core::Domain& domain, std::string_view handle_prefix) {
  const std::string name(domain.name());
  std::vector<Tool> tools;
  const std::pair<ToolKind, std::string> kinds[] = {{ToolKind::ops, name},
                                                    {ToolKind::query, name + "_query"},
                                                    {ToolKind::session, name + "_session"},
                                                    {ToolKind::help, name + "_help"}};
  for (const auto& [kind, tool_name] : kinds) {
    tools.push_back(Tool{tool_name,
                         kind,
                         &domain,
                         description_for(kind, domain, handle_prefix),
                         schema_for(kind, name, handle_prefix),
                         {},
                         kind == ToolKind::query ? query_output_schema(domain) : json::object{}});
  }
  return tools;
}

core::Result<ToolArguments> read_arguments(const Tool& tool, const json::object& arguments) {
  ToolArguments out;
  if (const auto* doc = arguments.if_contains("doc");
      doc != nullptr && !doc->is_null() && tool.kind != ToolKind::fixture) {
    if (!doc->is_string()) {
      return argument_error(tool, "\"doc\" must be a document handle string (doc:…)");
    }
    out.doc = std::string(doc->as_string());
  }
  switch (tool.kind) {
    case ToolKind::ops: {
      const auto* ops = arguments.if_contains("ops");
      if (ops == nullptr) return argument_error(tool, "\"ops\" is required");
      if (ops->is_string()) {  // be forgiving: one op as a plain string
        out.ops.emplace_back(ops->as_string());
        return out;
      }
      if (!ops->is_array()) return argument_error(tool, "\"ops\" must be an array of strings");
      out.ops.reserve(ops->as_array().size());
      for (const auto& op : ops->as_array()) {
        if (!op.is_string()) return argument_error(tool, "every op must be a string");
        out.ops.emplace_back(op.as_string());
      }
      return out;
    }
    case ToolKind::query:
    case ToolKind::session: {
      const char* key = tool.kind == ToolKind::query ? "q" : "action";
      const auto* text = arguments.if_contains(key);
      if (text == nullptr || !text->is_string()) {
        return argument_error(tool, "\"" + std::string(key) + "\" must be a string");
      }
      out.text = std::string(text->as_string());
      return out;
    }
    case ToolKind::help:
    case ToolKind::fixture:
      return out;
  }
  return out;
}

json::object query_output_schema(const core::Domain& domain) {
  // The kinds with data are the ones the domain's query table marks structured.
  json::array kinds;
  for (const auto& spec : domain.queries()) {
    if (spec.structured) kinds.emplace_back(spec.name);
  }
  kinds.emplace_back("other");
  const json::object text{{"type", "string"}};
  const json::object item{
      {"type", "object"},
      {"properties",
       json::object{
           {"id",
            json::object{{"type", "string"}, {"description", "the reference an op takes for it"}}},
           {"name", json::object{{"type", "string"},
                                 {"description", "its label or name (empty when it has none)"}}},
           {"kind", json::object{{"type", "string"}, {"description", "its type or class"}}},
           {"fields",
            json::object{{"type", "object"},
                         {"additionalProperties",
                          json::object{{"type", json::array{"string", "number", "boolean"}}}},
                         {"description",
                          "further facts: numbers as numbers, flags as booleans, the rest as "
                          "text"}}}}},
      {"required", json::array{"id", "name", "kind", "fields"}}};
  return json::object{
      {"type", "object"},
      {"properties",
       json::object{
           {"kind", json::object{{"type", "string"},
                                 {"enum", std::move(kinds)},
                                 {"description",
                                  "the query kind; other: a query without counts and "
                                  "items (find, history, status, …)"}}},
           {"query", json::object{{"type", "string"}, {"description", "the query as written"}}},
           {"title", json::object{{"type", "string"}, {"description", "the document's title"}}},
           {"digest", json::object{{"type", "string"},
                                   {"description", "the document's one-line state digest"}}},
           {"counts", json::object{{"type", "object"},
                                   {"additionalProperties", json::object{{"type", "integer"}}},
                                   {"description", "named counts of what the query read"}}},
           {"items", json::object{{"type", "array"},
                                  {"items", item},
                                  {"description",
                                   "the entities the text shows, in its order (as many as it "
                                   "shows)"}}},
           {"total", json::object{{"type", "integer"},
                                  {"minimum", 0},
                                  {"description", "how many entities the answer covers"}}},
           {"truncated", json::object{{"type", "boolean"},
                                      {"description",
                                       "true when items holds fewer than total (the text's "
                                       "cap)"}}}}},
      {"required", json::array{"kind", "query", "counts", "items", "total", "truncated"}}};
}

json::object structured_content(const core::QueryResult& result) {
  // Labels and titles come from users' files: valid UTF-8 as the text content is.
  json::object out{{"kind", result.kind}, {"query", to_valid_utf8(result.query)}};
  if (result.title) out["title"] = to_valid_utf8(*result.title);
  if (result.digest) out["digest"] = to_valid_utf8(*result.digest);
  json::object counts;
  for (const auto& [name, count] : result.data.counts)
    counts[name] = count;
  json::array items;
  items.reserve(result.data.items.size());
  for (const auto& item : result.data.items) {
    json::object fields;
    for (const auto& field : item.fields) {
      json::value& slot = fields[field.first];
      if (const auto* text = std::get_if<std::string>(&field.second)) {
        slot = to_valid_utf8(*text);
      } else if (const auto* integer = std::get_if<std::int64_t>(&field.second)) {
        slot = *integer;
      } else if (const auto* number = std::get_if<double>(&field.second)) {
        slot = *number;
      } else {
        slot = std::get<bool>(field.second);
      }
    }
    items.push_back(json::object{{"id", to_valid_utf8(item.id)},
                                 {"name", to_valid_utf8(item.name)},
                                 {"kind", to_valid_utf8(item.kind)},
                                 {"fields", std::move(fields)}});
  }
  out["counts"] = std::move(counts);
  out["items"] = std::move(items);
  out["total"] = result.data.total;
  out["truncated"] = result.data.truncated();
  return out;
}

json::object describe(const Tool& tool, bool with_output_schema) {
  json::object out{
      {"name", tool.name}, {"description", tool.description}, {"inputSchema", tool.input_schema}};
  if (with_output_schema && !tool.output_schema.empty()) out["outputSchema"] = tool.output_schema;
  return out;
}

}  // namespace fcp::mcp

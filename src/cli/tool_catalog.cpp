#include "cli/tool_catalog.hpp"

#include <boost/json/parse.hpp>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace json = boost::json;
namespace {

std::string join_words(std::span<const std::string> words) {
  std::string joined;
  for (const auto& word : words) {
    if (!joined.empty()) joined.push_back(' ');
    joined += word;
  }
  return joined;
}

bool has_type(const json::value& property, std::string_view type) {
  const auto* object = property.if_object();
  const auto* declared = object ? object->if_contains("type") : nullptr;
  return declared == nullptr || (declared->is_string() && declared->get_string() == type);
}

json::object json_arguments(const ToolInfo& tool, std::span<const std::string> words) {
  if (words.empty()) return {};
  if (words.size() > 1) {
    throw UsageError(tool.name + " takes one JSON object argument (or use: fcp call " + tool.name +
                     " 'JSON-ARGS')");
  }
  boost::system::error_code ec;
  auto value = json::parse(words.front(), ec);
  if (ec || !value.is_object()) {
    throw UsageError(tool.name + " needs a JSON object argument, not: " + words.front());
  }
  return std::move(value.as_object());
}

}  // namespace

ToolShape shape_of(const json::object& tool) {
  const auto* schema = tool.if_contains("inputSchema");
  const auto* properties =
      schema && schema->is_object() ? schema->get_object().if_contains("properties") : nullptr;
  if (properties == nullptr || !properties->is_object() || properties->get_object().empty()) {
    return ToolShape::empty;
  }
  const auto& props = properties->get_object();
  if (const auto* ops = props.if_contains("ops"); ops && has_type(*ops, "array")) {
    return ToolShape::ops;
  }
  if (const auto* q = props.if_contains("q"); q && has_type(*q, "string")) return ToolShape::query;
  if (const auto* action = props.if_contains("action"); action && has_type(*action, "string")) {
    return ToolShape::session;
  }
  return ToolShape::json;
}

ToolCatalog ToolCatalog::from_list_result(const json::object& result) {
  std::vector<ToolInfo> tools;
  const auto* list = result.if_contains("tools");
  if (list == nullptr || !list->is_array()) return ToolCatalog{};
  for (const auto& entry : list->get_array()) {
    const auto* tool = entry.if_object();
    const auto* name = tool ? tool->if_contains("name") : nullptr;
    if (name == nullptr || !name->is_string()) continue;
    tools.push_back(ToolInfo{std::string(name->get_string()), shape_of(*tool)});
  }
  return ToolCatalog(std::move(tools));
}

const ToolInfo* ToolCatalog::find(std::string_view name) const {
  for (const auto& tool : tools_) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

std::string ToolCatalog::names_joined() const {
  std::string joined;
  for (const auto& tool : tools_) {
    if (!joined.empty()) joined += ", ";
    joined += tool.name;
  }
  return joined.empty() ? "(none)" : joined;
}

json::object shortcut_arguments(const ToolInfo& tool, std::span<const std::string> words) {
  switch (tool.shape) {
    case ToolShape::ops: {
      if (words.empty()) throw UsageError(tool.name + " needs at least one op");
      json::array ops;
      for (const auto& word : words)
        ops.emplace_back(word);
      return json::object{{"ops", std::move(ops)}};
    }
    case ToolShape::query:
      if (words.empty()) throw UsageError(tool.name + " needs a query");
      return json::object{{"q", join_words(words)}};
    case ToolShape::session:
      if (words.empty()) throw UsageError(tool.name + " needs an action, e.g. 'new \"Title\"'");
      return json::object{{"action", join_words(words)}};
    case ToolShape::empty:
      if (!words.empty()) throw UsageError(tool.name + " takes no arguments");
      return {};
    case ToolShape::json:
      break;
  }
  return json_arguments(tool, words);
}

}  // namespace fcp::cli

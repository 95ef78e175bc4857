// What the daemon's tools accept, learned from tools/list, and how command-line words become
// their arguments. No domain name is hardcoded: the input schema decides.
#pragma once

#include <boost/json/object.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::cli {

// The argument shape of a tool, from its inputSchema properties.
enum class ToolShape {
  ops,      // {"ops": [string…]}: a domain's mutation tool; each word is one op
  query,    // {"q": string}: words joined by spaces
  session,  // {"action": string}: words joined by spaces
  empty,    // no properties (a _help tool): no words
  json,     // anything else: one word holding a JSON object
};

struct ToolInfo {
  std::string name;
  ToolShape shape = ToolShape::json;
};

ToolShape shape_of(const boost::json::object& tool);

class ToolCatalog {
 public:
  ToolCatalog() = default;
  explicit ToolCatalog(std::vector<ToolInfo> tools) : tools_(std::move(tools)) {}
  // From a tools/list result; entries without a name are skipped.
  static ToolCatalog from_list_result(const boost::json::object& result);

  const ToolInfo* find(std::string_view name) const;
  // "drawio, drawio_help, …" for error messages.
  std::string names_joined() const;
  const std::vector<ToolInfo>& tools() const { return tools_; }

 private:
  std::vector<ToolInfo> tools_;
};

// The tools/call arguments for `fcp TOOL WORD…` (and for a script line, with its argument as
// the single word). Throws UsageError when the words do not fit the tool's shape.
boost::json::object shortcut_arguments(const ToolInfo& tool, std::span<const std::string> words);

}  // namespace fcp::cli

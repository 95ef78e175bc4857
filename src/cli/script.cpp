#include "cli/script.hpp"

#include <optional>
#include <regex>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back()))
    text.remove_suffix(1);
  return text;
}

std::optional<ScriptLine> parse_line(std::string_view raw, int number) {
  std::string_view line = trim(raw);
  if (line.empty() || line.front() == '#') return std::nullopt;
  std::size_t split = 0;
  while (split < line.size() && !is_blank(line[split]))
    ++split;
  return ScriptLine{number, std::string(line.substr(0, split)),
                    std::string(trim(line.substr(split)))};
}

bool continues_batch(const std::vector<ScriptStep>& steps, const ToolInfo& tool) {
  return tool.shape == ToolShape::ops && !steps.empty() && steps.back().tool == tool.name;
}

}  // namespace

std::vector<ScriptLine> parse_script(std::string_view text) {
  std::vector<ScriptLine> lines;
  int number = 0;
  while (!text.empty()) {
    ++number;
    auto end = text.find('\n');
    if (auto line = parse_line(text.substr(0, end), number)) lines.push_back(std::move(*line));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
  }
  return lines;
}

std::vector<ScriptStep> plan_script(const std::vector<ScriptLine>& lines,
                                    const ToolCatalog& catalog) {
  std::vector<ScriptStep> steps;
  for (const auto& line : lines) {
    const ToolInfo* tool = catalog.find(line.tool);
    if (tool == nullptr) {
      throw ScriptError(line.number,
                        "unknown tool '" + line.tool + "' (tools: " + catalog.names_joined() + ")");
    }
    if (continues_batch(steps, *tool)) {
      steps.back().arguments["ops"].as_array().emplace_back(line.argument);
      steps.back().lines.push_back(line.number);
      continue;
    }
    std::vector<std::string> words;
    if (!line.argument.empty()) words.push_back(line.argument);
    try {
      steps.push_back(ScriptStep{tool->name, shortcut_arguments(*tool, words), {line.number}});
    } catch (const UsageError& error) {
      throw ScriptError(line.number, error.what());
    }
  }
  return steps;
}

int failed_line(const ScriptStep& step, std::string_view reply_text) {
  if (step.lines.empty()) return 0;
  static const std::regex op_number(R"(\b[Oo]p #?(\d{1,9})\b)");
  using Iterator = std::regex_iterator<std::string_view::const_iterator>;
  for (Iterator it(reply_text.begin(), reply_text.end(), op_number), end; it != end; ++it) {
    auto index = std::stoul((*it)[1].str());
    if (index >= 1 && index <= step.lines.size()) return step.lines[index - 1];
  }
  return step.lines.front();
}

}  // namespace fcp::cli

// `fcp run`: parses a script of `TOOL ARGUMENT` lines and plans its tool calls, grouping
// consecutive ops of one mutation tool into a single batch. Pure functions, no I/O.
#pragma once

#include <boost/json/object.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cli/tool_catalog.hpp"

namespace fcp::cli {

// One meaningful script line. `argument` is the rest of the line after the tool name and its
// separating whitespace, kept byte for byte (quotes and inner spacing intact) except for
// trailing whitespace and a CR.
struct ScriptLine {
  int number = 0;  // 1-based line number in the file
  std::string tool;
  std::string argument;
};

// One tools/call of a script run.
struct ScriptStep {
  std::string tool;
  boost::json::object arguments;
  std::vector<int> lines;  // the script line of each op in order (one entry for non-batches)
};

// A script line the catalog cannot turn into a call (unknown tool, misfit argument).
class ScriptError : public std::runtime_error {
 public:
  ScriptError(int line, const std::string& message) : std::runtime_error(message), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

// Blank lines and lines whose first non-blank character is '#' are skipped.
std::vector<ScriptLine> parse_script(std::string_view text);

// Throws ScriptError for the first line that does not fit.
std::vector<ScriptStep> plan_script(const std::vector<ScriptLine>& lines,
                                    const ToolCatalog& catalog);

// The script line to blame for a failed step: the line of op N when the reply names
// "op N" within the batch, else the step's first line.
int failed_line(const ScriptStep& step, std::string_view reply_text);

}  // namespace fcp::cli

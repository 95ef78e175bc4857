// Parser for {domain}_session action strings: new, open, save, checkpoint, undo, redo, close (§3).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

struct SessionCommand {
  std::string command;                        // lowercased
  std::map<std::string, std::string> args;    // title, path, name, target (strings)
  std::optional<long long> count;             // undo/redo only (default 1)
  std::map<std::string, std::string> params;  // every key:value token
  std::vector<std::string> positionals;       // every positional, for domain extensions

  const std::string* arg(std::string_view key) const;
  const std::string* param(std::string_view key) const;
  // A checked integer or number key's value, as ParsedOp::integer and ::number.
  std::optional<long long> integer(std::string_view key) const;
  std::optional<double> number(std::string_view key) const;
};

// The commands every domain has.
std::span<const std::string_view> builtin_session_commands();

// `extensions` are the domain's extra commands (export, connect, …); anything else is an error
// naming the known commands and suggesting the closest.
Result<SessionCommand> parse_session_command(std::string_view action,
                                             std::span<const std::string> extensions = {});

}  // namespace fcp::core

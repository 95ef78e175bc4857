#include "core/session_command.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/parsed_op.hpp"
#include "core/resolve.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {
namespace {

constexpr std::array<std::string_view, 9> builtin_commands{
    "new", "open", "save", "checkpoint", "undo", "redo", "close", "list", "recover"};

std::vector<std::string> known_commands(std::span<const std::string> extensions) {
  std::vector<std::string> known(builtin_commands.begin(), builtin_commands.end());
  for (const std::string& extension : extensions)
    known.push_back(to_lower(extension));
  return known;
}

bool is_known(std::string_view command, std::span<const std::string> extensions) {
  for (std::string_view builtin : builtin_commands) {
    if (builtin == command) return true;
  }
  for (const std::string& extension : extensions) {
    if (to_lower(extension) == command) return true;
  }
  return false;
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words)
    out += (out.empty() ? "" : ", ") + word;
  return out;
}

Error unknown_command(std::string_view command, std::span<const std::string> extensions) {
  const std::vector<std::string> known = known_commands(extensions);
  if (command.empty()) {
    return make_error("empty session command; known commands: " + join(known),
                      {"new \"Title\"", "open PATH"});
  }
  return make_error(
      "unknown session command \"" + std::string(command) + "\"; known commands: " + join(known),
      // Only a close spelling: an unrelated command would be a wrong suggestion (the message
      // lists them all).
      closest_matches(command, known));
}

// undo N / redo N: a non-negative integer, 1 when absent.
Result<long long> parse_count(const SessionCommand& cmd) {
  if (cmd.positionals.empty()) return 1LL;
  const std::string& text = cmd.positionals.front();
  long long count = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, count);
  if (ec != std::errc() || ptr != end || count < 0) {
    return make_error(cmd.command + " count must be a non-negative integer, got \"" + text + "\"",
                      {cmd.command + " 1"});
  }
  return count;
}

Result<void> require_positional(SessionCommand& cmd, const char* arg, const char* usage) {
  if (cmd.positionals.empty()) {
    return make_error(cmd.command + " needs a " + arg + ": " + usage, {usage});
  }
  cmd.args[arg] = cmd.positionals.front();
  return {};
}

Result<void> fill_args(SessionCommand& cmd) {
  const std::string& name = cmd.command;
  if (name == "new" || name == "save") {
    if (!cmd.positionals.empty()) cmd.args[name == "new" ? "title" : "path"] = cmd.positionals[0];
  } else if (name == "open") {
    return require_positional(cmd, "path", "open PATH");
  } else if (name == "close" || name == "recover") {
    // `close doc:dw-…` reads as the key doc; a quoted handle is a positional.
    if (const auto* doc = cmd.param("doc")) {
      cmd.args["doc"] = "doc:" + *doc;
    } else if (!cmd.positionals.empty()) {
      cmd.args["doc"] = cmd.positionals[0];
    }
  } else if (name == "checkpoint") {
    return require_positional(cmd, "name", "checkpoint NAME");
  } else if (name == "undo" && cmd.params.contains("to")) {
    cmd.args["target"] = cmd.params["to"];
  } else if (name == "undo" || name == "redo") {
    auto count = parse_count(cmd);
    if (!count) return count.error();
    cmd.count = *count;
  }
  return {};
}

}  // namespace

const std::string* SessionCommand::arg(std::string_view key) const {
  auto it = args.find(std::string(key));
  return it != args.end() ? &it->second : nullptr;
}

const std::string* SessionCommand::param(std::string_view key) const {
  auto it = params.find(std::string(key));
  return it != params.end() ? &it->second : nullptr;
}

std::optional<long long> SessionCommand::integer(std::string_view key) const {
  const std::string* value = param(key);
  return value != nullptr ? to_integer(*value) : std::nullopt;
}

std::optional<double> SessionCommand::number(std::string_view key) const {
  const std::string* value = param(key);
  return value != nullptr ? to_number(*value) : std::nullopt;
}

std::span<const std::string_view> builtin_session_commands() {
  return builtin_commands;
}

Result<SessionCommand> parse_session_command(std::string_view action,
                                             std::span<const std::string> extensions) {
  auto tokens = tokenize(trim(action));
  if (!tokens) return tokens.error();
  if (tokens->empty()) return unknown_command("", extensions);
  SessionCommand cmd;
  cmd.command = to_lower(tokens->front().text);
  if (!is_known(cmd.command, extensions)) return unknown_command(cmd.command, extensions);
  for (std::size_t i = 1; i < tokens->size(); ++i) {
    Token& token = (*tokens)[i];
    if (!token.quoted && is_key_value(token.text)) {
      const std::size_t colon = token.text.find(':');
      cmd.params[token.text.substr(0, colon)] = token.text.substr(colon + 1);
    } else {
      cmd.positionals.push_back(std::move(token.text));
    }
  }
  if (auto filled = fill_args(cmd); !filled) return filled.error();
  return cmd;
}

}  // namespace fcp::core

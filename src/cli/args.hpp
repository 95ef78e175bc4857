// Command-line parsing for fcp: global options, the command, and its arguments.
#pragma once

#include <boost/json/object.hpp>
#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/endpoint.hpp"

namespace fcp::cli {

inline constexpr std::chrono::milliseconds default_timeout{120'000};

// Global options; they precede the command (everything after the command is its arguments).
struct Options {
  std::optional<Endpoint> connect;  // absent: spawn `fcpd --stdio`
  std::optional<std::string> session;
  std::optional<std::string> doc;  // a document handle added to every tool call as "doc"
  bool json = false;
  bool verbose = false;
  std::optional<std::string> fcpd_path;
  std::vector<std::string> fcpd_args;
  std::chrono::milliseconds timeout = default_timeout;
  std::optional<std::string> save_media_dir;
  std::optional<std::string> token_file;  // --token-file: the daemon's token (else $FCPD_TOKEN)
};

// What the user asked for, validated as far as possible without talking to the daemon.
struct Invocation {
  enum class Action { command, help, version };
  Action action = Action::command;
  Options options;
  std::string command;            // "tools", "call", "run", or a tool name (shortcut)
  std::vector<std::string> args;  // the command's arguments, verbatim
  boost::json::object call_args;  // for "call": the parsed JSON-ARGS ({} when omitted)
};

// argv without the program name. Throws UsageError.
Invocation parse_args(std::span<const std::string> argv);

// The full --help text, and the one-line synopsis printed after usage errors.
std::string_view usage_text();
std::string_view usage_synopsis();

}  // namespace fcp::cli

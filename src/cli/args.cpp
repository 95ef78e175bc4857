#include "cli/args.hpp"

#include <boost/json/parse.hpp>
#include <cmath>
#include <stdexcept>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

constexpr std::string_view synopsis =
    "usage: fcp [OPTIONS] COMMAND [ARGS...]   (fcp --help for more)\n";

constexpr std::string_view full_usage =
    R"(usage: fcp [OPTIONS] COMMAND [ARGS...]

Talks MCP to fcpd. Without --connect it spawns `fcpd --stdio` and talks over pipes.

Commands:
  tools                     list the daemon's tools (--json: the raw tools/list result)
  call TOOL ['JSON-ARGS']   call TOOL with a JSON object of arguments (default {})
  DOMAIN 'OP' ['OP'...]     one batch: call DOMAIN with {"ops": [OP, ...]}
  DOMAIN_query QUERY...     call DOMAIN_query with {"q": "QUERY..."} (arguments joined by spaces)
  DOMAIN_session ACTION...  call DOMAIN_session with {"action": "ACTION..."}
  DOMAIN_help               call DOMAIN_help with {}
  run FILE                  run a script (FILE '-' reads stdin): one 'TOOL ARGUMENT' per line,
                            '#' starts a comment line; consecutive ops of one tool are one batch

Options:
  --connect URL        tcp://HOST:PORT or http://HOST:PORT/mcp instead of spawning fcpd
  --session NAME       use the daemon's named session NAME (created when missing)
  --doc HANDLE         work on the document HANDLE (doc:dw-…, as DOMAIN_session new and open
                       answer): every call carries it as "doc"; needs a running daemon
                       (--connect), since a spawned one ends with fcp
  --token-file FILE    the token a daemon with authentication asks for (the file's first
                       line; a PRINCIPAL:TOKEN line gives its TOKEN); default: $FCPD_TOKEN
  --json               print raw JSON results instead of their text
  --fcpd PATH          the daemon to spawn (default: $FCPD, else fcpd beside fcp, else on PATH)
  --fcpd-arg ARG       pass ARG to the spawned daemon (repeatable)
  --timeout SECONDS    per-request timeout (default 120)
  --save-media DIR     write image and audio results into DIR instead of summarising them,
                       as image-N.png, audio-N.wav … (the next free N); --save-images is the same
  -v, --verbose        print the daemon's log and progress notifications on stderr
  -h, --help           show this help
  --version            show the version

Exit status: 0 success; 1 a call reported an error (isError); 2 usage, connection or
protocol error, or the spawned daemon failed.
)";

std::chrono::milliseconds parse_timeout(const std::string& text) {
  double seconds = 0;
  std::size_t used = 0;
  try {
    seconds = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(seconds) || seconds <= 0 ||
      seconds > 1e6) {
    throw UsageError("--timeout needs a positive number of seconds, not '" + text + "'");
  }
  return std::chrono::milliseconds(static_cast<long long>(std::ceil(seconds * 1000)));
}

boost::json::object parse_call_args(const std::string& text) {
  boost::system::error_code ec;
  auto value = boost::json::parse(text, ec);
  if (ec) throw UsageError("JSON-ARGS is not valid JSON (" + ec.message() + "): " + text);
  if (!value.is_object()) throw UsageError("JSON-ARGS must be a JSON object: " + text);
  return std::move(value.as_object());
}

// Checks the arguments of the built-in commands; shortcuts are checked once tools are known.
void validate_command(Invocation& invocation) {
  const auto& args = invocation.args;
  if (invocation.command == "tools" && !args.empty()) {
    throw UsageError("'tools' takes no arguments");
  }
  if (invocation.command == "call") {
    if (args.empty() || args.size() > 2) throw UsageError("usage: fcp call TOOL ['JSON-ARGS']");
    if (args.size() == 2) invocation.call_args = parse_call_args(args[1]);
  }
  if (invocation.command == "run" && args.size() != 1) {
    throw UsageError("usage: fcp run FILE   (FILE '-' reads stdin)");
  }
}

// Applies one option that takes a value.
void apply_valued_option(Options& options, std::string_view name, const std::string& value) {
  if (name == "--connect") {
    options.connect = parse_endpoint(value);
  } else if (name == "--session") {
    if (value.empty()) throw UsageError("--session needs a non-empty NAME");
    options.session = value;
  } else if (name == "--doc") {
    if (value.empty()) throw UsageError("--doc needs a document HANDLE (doc:…)");
    options.doc = value;
  } else if (name == "--fcpd") {
    options.fcpd_path = value;
  } else if (name == "--fcpd-arg") {
    options.fcpd_args.push_back(value);
  } else if (name == "--timeout") {
    options.timeout = parse_timeout(value);
  } else if (name == "--token-file") {
    if (value.empty()) throw UsageError("--token-file needs a FILE");
    options.token_file = value;
  } else if (name == "--save-media" || name == "--save-images") {
    options.save_media_dir = value;
  }
}

bool takes_value(std::string_view name) {
  return name == "--connect" || name == "--session" || name == "--doc" || name == "--fcpd" ||
         name == "--fcpd-arg" || name == "--timeout" || name == "--save-media" ||
         name == "--save-images" || name == "--token-file";
}

// Applies a flag without a value; returns false when `name` is not one.
bool apply_flag(Invocation& invocation, std::string_view name) {
  if (name == "--json") {
    invocation.options.json = true;
  } else if (name == "-v" || name == "--verbose") {
    invocation.options.verbose = true;
  } else if (name == "-h" || name == "--help") {
    invocation.action = Invocation::Action::help;
  } else if (name == "--version") {
    invocation.action = Invocation::Action::version;
  } else {
    return false;
  }
  return true;
}

}  // namespace

std::string_view usage_text() {
  return full_usage;
}
std::string_view usage_synopsis() {
  return synopsis;
}

Invocation parse_args(std::span<const std::string> argv) {
  Invocation invocation;
  std::size_t i = 0;
  for (; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (!arg.starts_with('-') || arg == "-") break;
    auto eq = arg.find('=');
    std::string name = arg.substr(0, eq);
    if (takes_value(name)) {
      if (eq == std::string::npos && i + 1 >= argv.size())
        throw UsageError(name + " needs a value");
      apply_valued_option(invocation.options, name,
                          eq == std::string::npos ? argv[++i] : arg.substr(eq + 1));
    } else if (eq != std::string::npos || !apply_flag(invocation, name)) {
      throw UsageError("unknown option '" + arg + "'");
    }
  }
  if (invocation.action != Invocation::Action::command) return invocation;
  if (i >= argv.size()) throw UsageError("missing COMMAND");
  invocation.command = argv[i];
  invocation.args.assign(argv.begin() + static_cast<std::ptrdiff_t>(i) + 1, argv.end());
  validate_command(invocation);
  return invocation;
}

}  // namespace fcp::cli

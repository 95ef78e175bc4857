#include "cli/app.hpp"

#include <boost/json/serialize.hpp>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/args.hpp"
#include "cli/errors.hpp"
#include "cli/mcp_client.hpp"
#include "cli/output.hpp"
#include "cli/script.hpp"
#include "cli/tool_catalog.hpp"
#include "cli/version.hpp"

namespace fcp::cli {
namespace json = boost::json;
namespace {

struct Streams {
  std::istream& in;
  std::ostream& out;
  std::ostream& err;
};

struct ScriptSource {
  std::string name;  // as shown in diagnostics: the path, or <stdin>
  std::vector<ScriptLine> lines;
};

// The context one command runs in, once the handshake is done.
struct Session {
  const Invocation& invocation;
  McpClient& client;
  ResultPrinter& printer;
  Streams io;
};

void print_text(std::ostream& out, const std::string& text) {
  if (text.empty()) return;
  out << text;
  if (text.back() != '\n') out << '\n';
  out.flush();
}

int usage_failure(std::ostream& err, std::string_view message) {
  err << "fcp: error: " << message << "\n" << usage_synopsis();
  return exit_status::failure;
}

int script_failure(std::ostream& err, const ScriptSource& script, int line,
                   std::string_view message) {
  err << script.name << ":" << line << ": error: " << message << "\n";
  return exit_status::failure;
}

// Read before connecting, so a missing file never starts a daemon.
ScriptSource load_script(const std::string& file, std::istream& in) {
  std::ostringstream text;
  if (file == "-") {
    text << in.rdbuf();
    return ScriptSource{"<stdin>", parse_script(text.str())};
  }
  std::ifstream stream(file, std::ios::binary);
  if (!stream) throw UsageError("cannot read script " + file + ": " + std::strerror(errno));
  text << stream.rdbuf();
  return ScriptSource{file, parse_script(text.str())};
}

// The call's arguments with --doc added as "doc"; a "doc" of the call's own must agree.
json::object with_doc(const Session& session, json::object arguments) {
  const auto& doc = session.invocation.options.doc;
  if (!doc) return arguments;
  if (const auto* given = arguments.if_contains("doc");
      given != nullptr && !(given->is_string() && given->as_string() == *doc)) {
    throw UsageError("--doc " + *doc + " and the call's \"doc\" name different documents");
  }
  arguments["doc"] = *doc;
  return arguments;
}

int print_result(Session& session, const json::object& result) {
  print_text(session.io.out, session.printer.render(result));
  return is_error_result(result) ? exit_status::tool_error : exit_status::ok;
}

int command_tools(Session& session) {
  json::object result = session.client.list_tools();
  if (session.invocation.options.json) {
    print_text(session.io.out, json::serialize(result));
    return exit_status::ok;
  }
  auto catalog = ToolCatalog::from_list_result(result);
  for (const auto& tool : catalog.tools()) {
    session.io.out << tool.name << "\n";
  }
  return exit_status::ok;
}

int command_shortcut(Session& session) {
  auto catalog = ToolCatalog::from_list_result(session.client.list_tools());
  const auto& name = session.invocation.command;
  const ToolInfo* tool = catalog.find(name);
  if (tool == nullptr) {
    return usage_failure(
        session.io.err,
        "unknown command '" + name + "'; the daemon's tools are: " + catalog.names_joined());
  }
  json::object arguments = shortcut_arguments(*tool, session.invocation.args);
  return print_result(session,
                      session.client.call_tool(name, with_doc(session, std::move(arguments))));
}

// Runs one planned step; returns a non-zero status after reporting the failing line.
int run_step(Session& session, const ScriptSource& script, const ScriptStep& step) {
  json::object result;
  try {
    result = session.client.call_tool(step.tool, with_doc(session, step.arguments));
  } catch (const std::runtime_error& error) {  // ProtocolError, ChannelError
    return script_failure(session.io.err, script, step.lines.front(), error.what());
  }
  if (!is_error_result(result)) return print_result(session, result);
  if (session.invocation.options.json) print_result(session, result);
  std::string text = ResultPrinter(OutputOptions{}).render(result);
  script_failure(session.io.err, script, failed_line(step, text),
                 text.empty() ? "the call failed" : text);
  return exit_status::tool_error;
}

int command_run(Session& session, const ScriptSource& script) {
  std::vector<ScriptStep> steps;
  try {
    steps = plan_script(script.lines, ToolCatalog::from_list_result(session.client.list_tools()));
  } catch (const ScriptError& error) {
    return script_failure(session.io.err, script, error.line(), error.what());
  }
  for (const auto& step : steps) {
    if (int status = run_step(session, script, step); status != exit_status::ok) return status;
  }
  return exit_status::ok;
}

int dispatch(Session& session, const std::optional<ScriptSource>& script) {
  const auto& command = session.invocation.command;
  if (command == "tools") return command_tools(session);
  if (command == "call") {
    return print_result(session,
                        session.client.call_tool(session.invocation.args.front(),
                                                 with_doc(session, session.invocation.call_args)));
  }
  if (script) return command_run(session, *script);
  return command_shortcut(session);
}

int execute(const Invocation& invocation, Streams io) {
  std::optional<ScriptSource> script;
  if (invocation.command == "run") script = load_script(invocation.args.front(), io.in);
  const Options& options = invocation.options;
  auto channel = open_channel(options);
  McpClient client(
      *channel,
      ClientSettings{options.session, options.timeout, options.verbose, client_token(options)},
      io.err);
  client.initialize();
  ResultPrinter printer(OutputOptions{options.json, options.save_media_dir});
  Session session{invocation, client, printer, io};
  int status = dispatch(session, script);
  channel->close();
  return status;
}

}  // namespace

int run_cli(std::span<const std::string> args, std::istream& in, std::ostream& out,
            std::ostream& err) {
  try {
    Invocation invocation = parse_args(args);
    if (invocation.action == Invocation::Action::help) {
      out << usage_text();
      return exit_status::ok;
    }
    if (invocation.action == Invocation::Action::version) {
      out << client_name << " " << client_version << "\n";
      return exit_status::ok;
    }
    return execute(invocation, Streams{in, out, err});
  } catch (const UsageError& error) {
    return usage_failure(err, error.what());
  } catch (const std::exception& error) {
    err << "fcp: error: " << error.what() << "\n";
    return exit_status::failure;
  }
}

}  // namespace fcp::cli

// The fixtures of the official MCP conformance suite (@modelcontextprotocol/conformance): its test
// tools, resources, resource template, prompts and completions, which its server scenarios call
// by name. Hosted only with --conformance-fixtures (ServerOptions::conformance_fixtures), never
// in normal use: tools/list, resources/list and prompts/list then show only the domains' own.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/jsonrpc.hpp"
#include "mcp/tool_set.hpp"

namespace fcp::mcp {

class ReplyOnce;

// The fixture tools (ToolKind::fixture) as tools/list shows them.
std::vector<Tool> conformance_fixture_tools();

// One connection's share of the fixtures: what the client said it can answer (initialize), the
// requests the fixture tools sent to the client and still await (sampling/createMessage,
// elicitation/create), and the client's resource subscriptions.
// Thread: any; the members below are guarded by mutex_. Owned by the ClientConnection; timers
// and pending requests hold it weakly, so a closed connection's fixtures go with it.
class ConformanceFixtures : public std::enable_shared_from_this<ConformanceFixtures> {
 public:
  using Reply = std::shared_ptr<ReplyOnce>;

  explicit ConformanceFixtures(boost::asio::any_io_executor executor)
      : executor_(std::move(executor)) {}

  // initialize: remembers the client's capabilities (sampling, elicitation).
  void on_initialize(const boost::json::object& params);
  // Adds what the fixtures offer to the server's initialize capabilities: prompts, completions,
  // resource subscriptions.
  static void add_capabilities(boost::json::object& capabilities);

  // Append the fixtures' entries to the connection's own list results.
  static void add_resources(boost::json::array& resources);
  static void add_resource_templates(boost::json::array& templates);
  static void add_prompts(boost::json::array& prompts);

  // Answers `method` when the request is the fixtures' (resources/read of a fixture resource,
  // prompts/get of a fixture prompt, completion/complete, resources/subscribe|unsubscribe).
  // Returns false, answering nothing, when the request is not theirs.
  bool handle(std::string_view method, const boost::json::object& params, const Reply& reply);

  // tools/call of a fixture tool. `log_level`: the lowest level the client asked for
  // (logging/setLevel, RFC 5424 index; above 7: none); the logging fixture sends only those.
  void call_tool(const Tool& tool, const boost::json::object& params, const Reply& reply,
                 int log_level);

  // A response from the client: true when it answered one of the fixtures' requests.
  bool on_response(const jsonrpc::Incoming& message);

 private:
  // Answer of the client to one request: its result, or its error (`failed`).
  using ClientAnswer = std::function<void(const boost::json::value& body, bool failed)>;

  // Sends `method` to the client on the stream of `reply` (the tool call that needs it) and calls
  // `answer` with the client's response, or with an error after kClientTimeout.
  void ask_client(const Reply& reply, std::string_view method, boost::json::object params,
                  ClientAnswer answer);
  // Runs the steps one after another, `pause` apart, on the executor.
  void run_paced(std::vector<std::function<void()>> steps, std::size_t next);
  bool client_can(std::string_view capability) const;
  // The client capabilities of a request: its _meta's (2026-07-28), else initialize's.
  boost::json::object declared_capabilities(const boost::json::object& params) const;

  // The multi round-trip fixtures (conformance_mrtr_fixtures.cpp): tools and a prompt that answer
  // input_required until the retry carries the input they asked for.
  static bool is_input_required_tool(std::string_view name);
  void call_input_required(const Tool& tool, const boost::json::object& params, const Reply& reply);
  static void prompt_input_required(const boost::json::object& params, const Reply& reply);

  void call_sampling(const boost::json::object& arguments, const Reply& reply);
  void call_elicitation(const Tool& tool, const boost::json::object& arguments, const Reply& reply);
  void call_with_logging(const Reply& reply, int log_level);
  void call_with_progress(const boost::json::object& params, const Reply& reply);

  boost::asio::any_io_executor executor_;
  mutable std::mutex mutex_;
  boost::json::object client_capabilities_;
  struct Awaiting {
    ClientAnswer answer;
    std::shared_ptr<boost::asio::steady_timer> timeout;
  };
  std::map<std::string, Awaiting> awaiting_;  // key: the request id sent to the client
  std::uint64_t next_request_ = 0;
  std::set<std::string> subscriptions_;
};

}  // namespace fcp::mcp

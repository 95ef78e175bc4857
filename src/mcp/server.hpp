// The MCP server: tools of every hosted domain, sessions, and connections for the transports.
#pragma once

#include <atomic>
#include <boost/asio/any_io_executor.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "core/session.hpp"
#include "mcp/auth.hpp"
#include "mcp/client_session.hpp"
#include "mcp/client_shares.hpp"
#include "mcp/connection.hpp"
#include "mcp/document_store.hpp"
#include "mcp/resource_subscriptions.hpp"
#include "mcp/tool_set.hpp"

namespace fcp::mcp {

// How long one call of a tool kind may run (zero: no limit), and the config key that sets it.
struct TimeLimit {
  std::chrono::milliseconds duration{0};
  std::string setting;
};

struct ServerOptions {
  std::string name = "fcpd";
  std::string version = "0.1.0";
  // limits.max_call_duration is also the time limit of ops calls (limits.max_call_seconds).
  core::SessionLimits limits;
  // The time limits of query and session calls (a query that exports an image; open, save).
  std::chrono::milliseconds query_time_limit{std::chrono::seconds(60)};
  std::chrono::milliseconds session_time_limit{std::chrono::seconds(120)};
  // Tool calls (not help) one client (principal and address) runs at once over all its
  // connections; the rest wait without a thread (see ClientShares).
  std::size_t max_calls_per_client = 2;
  TimeLimit time_limit(ToolKind kind) const;
  std::size_t max_named_sessions = 64;
  // Open documents per principal (each holds its model in memory until it is closed).
  std::size_t max_documents = 256;
  // The tokens clients must present on TCP and HTTP (null or empty: none, every client is
  // "local"), and what each principal may hold at once.
  std::shared_ptr<const Authenticator> auth;
  PrincipalLimits::Settings principal_limits;
  // Two letters per domain name for its document handles (drawio → doc:dw-…); a domain not
  // listed uses the first two letters of its name.
  std::map<std::string, std::string, std::less<>> handle_prefixes;
  // Journals for crash recovery and idle eviction (off without a state directory).
  JournalOptions journal;
  // Hosts the MCP conformance suite's fixture tools, resources, prompts and completions (see
  // conformance_fixtures.hpp); off in normal use so the lists show only the domains' own.
  bool conformance_fixtures = false;
  // An HTTP client that leaves without DELETE leaves no trace: once its connection has been idle
  // this long with nothing in flight, another client naming the same session may take it over.
  std::chrono::milliseconds http_takeover_idle{15'000};
};

// Thread: immutable after construction except the session registry and the document store
// (both thread-safe); shared by all connections. Tool calls run on `calls` (the daemon passes
// its event loop's io_context): one strand per client session keeps a client's calls in order,
// one per document runs its calls one at a time whichever client sends them.
class Server final : public ConnectionFactory {
 public:
  Server(boost::asio::any_io_executor calls, std::vector<const core::Domain*> domains,
         const core::PathPolicy& paths, ServerOptions options);

  std::shared_ptr<Connection> connect(ConnectionInfo info,
                                      std::shared_ptr<Outbound> outbound) override;

  const std::vector<Tool>& tools() const { return tools_; }
  const Tool* find_tool(std::string_view name) const;
  const std::vector<const core::Domain*>& domains() const { return domains_; }
  const ServerOptions& options() const { return options_; }
  std::string instructions() const;

  bool requires_token() const override { return auth_ && auth_->enabled(); }
  std::optional<std::string> principal_for_token(std::string_view token) const override;

  std::shared_ptr<ClientSession> make_session(const std::string& name,
                                              const std::string& principal) const;
  // Tool calls accepted and not yet answered, over every connection (for shutdown).
  std::size_t calls_running() const { return calls_running_.load(); }
  void call_started() { ++calls_running_; }
  void call_finished() { --calls_running_; }
  SessionRegistry& registry() { return *registry_; }
  const std::shared_ptr<SessionRegistry>& shared_registry() const { return registry_; }
  PrincipalLimits& principal_limits() { return principal_limits_; }
  DocumentStore& documents() { return documents_; }
  // Who hears about changed document resources (resources/subscribe, subscriptions/listen).
  ResourceSubscriptions& subscriptions() { return *subscriptions_; }
  const std::shared_ptr<ResourceSubscriptions>& shared_subscriptions() const {
    return subscriptions_;
  }
  // The executor calls and timers run on.
  const boost::asio::any_io_executor& executor() const { return calls_; }
  ClientShares& shares() { return shares_; }

 private:
  boost::asio::any_io_executor calls_;
  std::vector<const core::Domain*> domains_;
  const core::PathPolicy& paths_;
  ServerOptions options_;
  std::vector<Tool> tools_;
  std::shared_ptr<const Authenticator> auth_;
  // The registries connections leave when they close are shared with them: a connection may be
  // closed after the server is gone (its last handler destroyed with the daemon's io_context).
  std::shared_ptr<SessionRegistry> registry_;
  // Before documents_, which reports to it.
  std::shared_ptr<ResourceSubscriptions> subscriptions_ = std::make_shared<ResourceSubscriptions>();
  DocumentStore documents_;
  PrincipalLimits principal_limits_;
  ClientShares shares_;
  std::atomic<std::size_t> calls_running_{0};
};

}  // namespace fcp::mcp

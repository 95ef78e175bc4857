// The MCP server: tools of every hosted domain, sessions, and connections for the transports.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "core/session.hpp"
#include "mcp/client_session.hpp"
#include "mcp/connection.hpp"
#include "mcp/document_store.hpp"
#include "mcp/tool_set.hpp"

namespace fcp::mcp {

struct ServerOptions {
  std::string name = "fcpd";
  std::string version = "0.1.0";
  core::SessionLimits limits;
  std::size_t max_named_sessions = 64;
  // Open documents per principal (each holds its model in memory until it is closed).
  std::size_t max_documents = 256;
  // Two letters per domain name for its document handles (drawio → doc:dw-…); a domain not
  // listed uses the first two letters of its name.
  std::map<std::string, std::string, std::less<>> handle_prefixes;
  // Journals for crash recovery and idle eviction (off without a state directory).
  JournalOptions journal;
  // Adds the MCP conformance suite's fixture tool `test_error_handling` (for its
  // tools-call-error scenario); off in normal use so tools/list shows only domain tools.
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

  std::shared_ptr<ClientSession> make_session(const std::string& name) const;
  SessionRegistry& registry() { return registry_; }
  DocumentStore& documents() { return documents_; }

 private:
  boost::asio::any_io_executor calls_;
  std::vector<const core::Domain*> domains_;
  const core::PathPolicy& paths_;
  ServerOptions options_;
  std::vector<Tool> tools_;
  SessionRegistry registry_;
  DocumentStore documents_;
};

}  // namespace fcp::mcp

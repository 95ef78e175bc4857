#include "mcp/server.hpp"

#include "mcp/client_connection.hpp"
#include "mcp/conformance_fixtures.hpp"

namespace fcp::mcp {

Server::Server(boost::asio::any_io_executor calls, std::vector<const core::Domain*> domains,
               const core::PathPolicy& paths, ServerOptions options)
    : calls_(std::move(calls)),
      domains_(std::move(domains)),
      paths_(paths),
      options_(std::move(options)),
      auth_(options_.auth),
      registry_(std::make_shared<SessionRegistry>(options_.max_named_sessions)),
      documents_(calls_, paths_, options_.limits, options_.max_documents, options_.handle_prefixes,
                 options_.journal),
      principal_limits_(options_.principal_limits),
      shares_(options_.max_calls_per_client) {
  for (const auto* domain : domains_) {
    for (auto& tool : make_tools(*domain, documents_.prefix(*domain)))
      tools_.push_back(std::move(tool));
  }
  if (options_.conformance_fixtures) {
    for (auto& tool : conformance_fixture_tools())
      tools_.push_back(std::move(tool));
  }
  documents_.set_journal_budget(&principal_limits_);
  documents_.set_close_observer(
      [this](const StoredDocument& document) { subscriptions_->closed(document); });
  documents_.set_list_observer(
      [this](const std::string& owner) { subscriptions_->list_changed(owner); });
  documents_.start_timers();
}

std::shared_ptr<Connection> Server::connect(ConnectionInfo info,
                                            std::shared_ptr<Outbound> outbound) {
  return std::make_shared<ClientConnection>(*this, std::move(info), std::move(outbound));
}

const Tool* Server::find_tool(std::string_view name) const {
  for (const auto& tool : tools_) {
    if (tool.name == name) return &tool;
  }
  return nullptr;
}

std::optional<std::string> Server::principal_for_token(std::string_view token) const {
  if (!auth_) return std::nullopt;
  return auth_->principal_for(token);
}

std::shared_ptr<ClientSession> Server::make_session(const std::string& name,
                                                    const std::string& principal) const {
  return std::make_shared<ClientSession>(calls_, domains_, paths_, options_.limits, name,
                                         principal);
}

std::string Server::instructions() const {
  std::string text =
      "fcpd edits complex files through small verb languages (FCP). Each domain has four tools: "
      "DOMAIN(ops) applies op strings as one atomic batch, DOMAIN_query(q) inspects, "
      "DOMAIN_session(action) manages the document (new, open, save, checkpoint, undo, redo), and "
      "DOMAIN_help() returns the reference card. Start with DOMAIN_session 'new \"Title\"' or "
      "'open PATH', then send ops; call DOMAIN_help when unsure of the syntax. Every mutating "
      "reply "
      "ends with a state digest; a line starting with '!' is an error when the call failed "
      "(isError) and otherwise a note (a list's header, a buffered or open block), '?' lines "
      "are warnings, 'try:' lines are suggested fixes.";
  if (!domains_.empty()) {
    text += " Domains here:";
    for (const auto* domain : domains_) {
      text += " " + std::string(domain->name()) + " (" + std::string(domain->display_name()) + ")";
    }
    text += ".";
    // The document resources, for a client that previews what the tools change.
    std::string forms;
    for (const auto* domain : domains_) {
      for (const auto& form : domain->resource_forms())
        forms += std::string(forms.empty() ? "" : ", ") + "HANDLE" + form.suffix + " (" +
                 std::string(domain->name()) + ")";
    }
    text +=
        " Open documents are resources: fcp://DOMAIN/doc/HANDLE reads as the file save would "
        "write";
    if (!forms.empty()) text += ", and " + forms + " as a rendering of it";
    text +=
        ". Subscribe to one (resources/subscribe; subscriptions/listen in 2026-07-28; each form "
        "is its own subscription) to get notifications/resources/updated after every change and "
        "when it closes.";
  }
  return text;
}

}  // namespace fcp::mcp

namespace fcp::mcp {

TimeLimit ServerOptions::time_limit(ToolKind kind) const {
  switch (kind) {
    case ToolKind::ops:
      return {limits.max_call_duration, "limits.max_call_seconds"};
    case ToolKind::query:
      return {query_time_limit, "limits.max_query_seconds"};
    case ToolKind::session:
      return {session_time_limit, "limits.max_session_seconds"};
    case ToolKind::help:
    case ToolKind::fixture:
      break;
  }
  return {};
}

}  // namespace fcp::mcp

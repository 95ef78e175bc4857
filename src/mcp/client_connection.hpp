// One MCP client connection: the JSON-RPC lifecycle (initialize, ping, logging, cancellation)
// and the dispatch of tools, resources and prompts to the client's session.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/session_command.hpp"
#include "mcp/client_session.hpp"
#include "mcp/conformance_fixtures.hpp"
#include "mcp/connection.hpp"
#include "mcp/document_resources.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/lifecycle.hpp"
#include "mcp/resource_subscriptions.hpp"
#include "mcp/tool_set.hpp"

namespace fcp::mcp {

class Server;

// Exactly one answer per request: a reply or none (cancelled). If every owner lets go without
// answering, the destructor answers with an internal error so the client never hangs.
// Thread: any; the first answer wins.
class ReplyOnce {
 public:
  ReplyOnce(std::shared_ptr<Responder> responder, boost::json::value id)
      : responder_(std::move(responder)), id_(std::move(id)) {}
  ReplyOnce(const ReplyOnce&) = delete;
  ReplyOnce& operator=(const ReplyOnce&) = delete;
  ~ReplyOnce();

  void result(const boost::json::value& value);
  void error(int code, std::string_view message, boost::json::value data = nullptr);
  void none();
  // Ends a stream opened with open_stream() from the server's side (Responder::end_stream):
  // notifications/cancelled naming this request on stdio and TCP, the event stream closed on
  // HTTP. `reason` goes in the notification.
  void end_stream(std::string_view reason);
  // Answers in the stateless 2026-07-28 shape: results with resultType (and `hint` as their
  // caching hint), every answer with its HTTP status. Before any answer.
  void speak_stateless(std::optional<lifecycle::CacheHint> hint) {
    stateless_ = true;
    hint_ = hint;
  }
  const TransportHeaders* headers() const { return responder_->headers(); }
  void notify(std::string message);
  // See Responder::open_stream.
  void open_stream() { responder_->open_stream(); }
  // See Responder::when_gone.
  void when_gone(const std::function<void()>& cancel) { responder_->when_gone(cancel); }
  const boost::json::value& id() const { return id_; }

 private:
  bool claim() { return !answered_.exchange(true); }
  void send_error(std::string message, int code);

  std::shared_ptr<Responder> responder_;
  boost::json::value id_;
  std::atomic<bool> answered_{false};
  bool stateless_ = false;
  std::optional<lifecycle::CacheHint> hint_;
};

// The text of the session resource (fcp://DOMAIN/session) of a client with no current document
// in `domain`: "No DOMAIN document open." when the principal has none, otherwise their handles
// (a 2026-07-28 request never has a current document: it names one by handle). From a task of
// the session's queue.
std::string resource_without_document(const DocumentStore& store, ClientSession& session,
                                      const core::Domain& domain);

// Thread: handle() from the transport; tool work runs on the client session's strand; state
// shared between them is guarded by mutex_ or atomic.
class ClientConnection final : public Connection,
                               public SessionHolder,
                               public std::enable_shared_from_this<ClientConnection> {
 public:
  ClientConnection(Server& server, ConnectionInfo info, std::shared_ptr<Outbound> outbound);
  ~ClientConnection() override;

  void handle(std::string_view message, std::shared_ptr<Responder> responder) override;
  void handle_oversized(std::size_t size, std::shared_ptr<Responder> responder) override;
  bool initialized() const override { return initialized_.load(); }
  void close() override;
  // stdin ended: its listen streams end as the server's (see end_listen).
  void input_ended() override;

  bool releasable() const override;
  void revoke() override { revoked_ = true; }

 private:
  struct InFlight {
    std::atomic<bool> cancelled{false};
    std::shared_ptr<void> slot;  // the principal's count of calls in flight (PrincipalLimits)
  };
  using Reply = std::shared_ptr<ReplyOnce>;

  // A client that has to authenticate in band: true once `message` carried a token that names a
  // principal (initialize params `fcp.token`, or `_meta["fcp/token"]` on any request).
  bool authenticate(const jsonrpc::Incoming& message);
  void refuse_unauthenticated(const jsonrpc::Incoming* message, const boost::json::value& id,
                              const std::shared_ptr<Responder>& responder);
  void on_request(const jsonrpc::Incoming& message, const Reply& reply);
  // The stateless 2026-07-28 lifecycle (stateless_calls.cpp): checks the request's _meta and
  // headers, then serves it without initialize, in a session that keeps no current document.
  void on_stateless_request(const jsonrpc::Incoming& message, const Reply& reply);
  bool check_stateless_call(const jsonrpc::Incoming& message,
                            const lifecycle::StatelessRequest& request, const Reply& reply);
  // tools, resources and prompts, the same in both revisions; false for any other method.
  bool serve_feature(const jsonrpc::Incoming& message, const Reply& reply);
  // Whether prompts exist (a hosted domain's, or the conformance fixtures').
  bool has_prompts() const;
  // What initialize and server/discover announce (resource subscriptions in both revisions:
  // resources/subscribe in sessions, subscriptions/listen in 2026-07-28).
  boost::json::object capabilities() const;
  // Sets the level from a name (debug … emergency); false for another name.
  bool set_log_level(std::string_view name);
  void on_notification(const jsonrpc::Incoming& message);
  void on_initialize(const boost::json::object& params, const Reply& reply);
  // Attaches the named session, waiting up to `retries` short pauses while another connection
  // holds it (a client that reconnects at once: the end of its old connection may not have been
  // read yet); then answers initialize.
  void attach_named(const std::string& version, const std::string& name,
                    const std::string& principal, const Reply& reply, int retries);
  void finish_initialize(const std::string& version, std::shared_ptr<ClientSession> session,
                         const Reply& reply);
  void on_set_level(const boost::json::object& params, const Reply& reply);
  void on_tools_call(const jsonrpc::Incoming& message, const Reply& reply);
  void on_resources_read(const boost::json::object& params, const Reply& reply);
  // resources/read of fcp://DOMAIN/doc/HANDLE[.FORM] (document_resources.hpp), on the
  // document's queue; a handle the caller cannot reach is not found.
  void read_document(const DocumentUri& named, const std::string& uri, const Reply& reply);
  void on_prompts_get(const boost::json::object& params, const Reply& reply);
  // 2025-era resources/subscribe and resources/unsubscribe (resource_calls.cpp): open documents
  // only, the caller's own.
  void on_resources_subscribe(const jsonrpc::Incoming& message, const Reply& reply);
  // 2026-07-28 subscriptions/listen: acknowledges the filter it honors, then streams the
  // notifications it asked for through `reply` until the client leaves or the connection closes.
  void on_subscriptions_listen(const jsonrpc::Incoming& message, const Reply& reply);
  // The caller's open document `uri` names (fcp://DOMAIN/doc/HANDLE[.FORM]); the error says why
  // not.
  core::Result<std::shared_ptr<StoredDocument>> subscribable(std::string_view uri) const;
  // How a listen stream ends: the client left or cancelled it (nothing to tell), or the server
  // tears it down (ReplyOnce::end_stream, with the reason).
  enum class ListenEnd { by_client, by_server };
  // Ends the listen stream `id`: no more notifications, and its request gets no answer.
  void end_listen(ResourceSubscriptions::Id id, ListenEnd how,
                  std::string_view reason = "the stream ended");
  // The listen stream opened by request `request_id` (serialized), 0 when none is open.
  ResourceSubscriptions::Id listen_of(const std::string& request_id) const;
  // Where one tool call runs: a stored document on its queue, or the client's empty session.
  struct CallTarget {
    core::Session* session = nullptr;
    std::shared_ptr<SerialQueue> queue;
    std::shared_ptr<StoredDocument> document;  // null: the empty session
    // On `queue` once the reply is final (before it is sent): what the store does about it.
    std::function<void(core::ToolReply&)> settle;
    // The document's state before an ops or session call (run_tool sets it): a call that
    // changed it notifies the document's resource subscribers.
    std::optional<core::Session::Fingerprint> before;
  };
  struct ToolCall {
    const Tool* tool;
    ToolArguments arguments;
    boost::json::value progress_token;
    Reply reply;
    std::shared_ptr<InFlight> flight;
  };
  // On the client session's queue: picks the document (doc argument, close HANDLE, or the
  // current one), answers list, starts new/open in a new document, and runs the call there.
  void route_tool(const std::shared_ptr<ToolCall>& call, const ClientSession::Done& done);
  void start_document(const std::shared_ptr<ToolCall>& call,
                      const std::shared_ptr<StoredDocument>& previous, bool discard,
                      const ClientSession::Done& done);
  // Replicas: the call names (or the session's current document is) a document this replica
  // does not have open but whose journal is in the shared state directory. Takes it over when
  // its lease is free or stale and routes the call again; while another live replica holds it,
  // asks that one to hand it over and retries until `deadline`, then answers an error naming the
  // holder. `refusal`: the answer when there is no journal to take over.
  void take_over(const std::shared_ptr<ToolCall>& call, const std::string& handle,
                 const core::Error& refusal, std::chrono::steady_clock::time_point deadline,
                 bool asked, const ClientSession::Done& done);
  void run_on_document(const std::shared_ptr<ToolCall>& call,
                       const std::shared_ptr<StoredDocument>& document, bool closing,
                       const ClientSession::Done& done);
  // After new/open succeeded in `document`: the store takes it, it becomes current, and the
  // reply names its handle and what became of the previous document.
  void register_document(const std::shared_ptr<StoredDocument>& document,
                         const std::shared_ptr<StoredDocument>& previous, bool discard,
                         core::ToolReply& reply);
  void answer_list(const ToolCall& call);
  // recover: the documents journals can restore; recover HANDLE: restores one.
  void answer_recover(const ToolCall& call, const core::SessionCommand& command);
  void refuse(const ToolCall& call, const core::Error& error);
  void run_tool(const ToolCall& call, const CallTarget& target, const ClientSession::Done& done);
  void complete(const ToolCall& call, const CallTarget& target, core::ToolReply result);
  void finish_tool(const Tool& tool, const core::ToolReply& result, const Reply& reply,
                   const std::shared_ptr<InFlight>& flight);

  std::shared_ptr<InFlight> track(const boost::json::value& id);
  void untrack(const boost::json::value& id);
  // Sends notifications/message through `reply` when `level` is at or above the client's level.
  // Whether the client asked for messages of `level` (logging/setLevel); log() drops the others.
  bool logs(int level) const { return level >= log_level_.load(); }
  // Whether this client's protocol has outputSchema and structuredContent (2025-06-18 on; a
  // stateless 2026-07-28 request, which has no initialize, too).
  bool structured_output() const;
  void log(const Reply& reply, int level, std::string text);

  Server& server_;
  ConnectionInfo info_;
  std::shared_ptr<Outbound> outbound_;
  std::atomic<bool> initialized_{false};
  std::atomic<bool> authenticated_{false};  // principal_ is final
  std::atomic<bool> closed_{false};
  std::atomic<int> log_level_{100};                // off until logging/setLevel
  std::atomic<bool> revoked_{false};               // the named session was taken over
  std::atomic<std::int64_t> last_activity_ms_{0};  // steady clock, for releasable()
  mutable std::mutex mutex_;                       // guards the members below
  std::string protocol_version_;
  std::string principal_;  // who the client is (see ConnectionInfo::principal)
  std::shared_ptr<ClientSession> session_;
  std::map<std::string, std::shared_ptr<InFlight>> in_flight_;  // key: serialized id
  // This connection's listener for resource notifications (2025-era session; 0: none), and its
  // open subscriptions/listen streams with the requests they answer when they end.
  ResourceSubscriptions::Id session_listener_ = 0;
  std::map<ResourceSubscriptions::Id, Reply> listens_;
  // The server's registries close() leaves, held so that it can even when the connection
  // outlives the server (its last handler destroyed with the daemon's io_context at exit).
  const std::shared_ptr<SessionRegistry> registry_;
  const std::shared_ptr<ResourceSubscriptions> subscriptions_;
  // The conformance suite's fixtures (--conformance-fixtures); null in normal use.
  const std::shared_ptr<ConformanceFixtures> fixtures_;
};

}  // namespace fcp::mcp

// The engine's per-document session: runs the four tools of one domain against one document
// with its event log — atomic batches, undo/redo/checkpoints, queries, save/open, help.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/domain.hpp"
#include "core/event_log.hpp"
#include "core/response.hpp"

namespace fcp::core {

struct ToolReply {
  std::string text;
  bool is_error = false;
  std::vector<Attachment> attachments;
  // A query's structured answer (MCP structuredContent); none for errors and other tools.
  std::optional<QueryResult> structured = std::nullopt;
};

struct SessionLimits {
  std::size_t max_file_bytes = 512u << 20;  // refuse to open larger files
  std::size_t max_ops_per_call = 1'000'000;
  // Entities (Document::entity_count) one call of ops may add: a 60-byte `copy @all` repeated
  // must not grow a document exponentially. The batch is rolled back past it.
  std::size_t max_created_per_call = 50'000;
  // Bytes one reply may carry, text and attachments (an image export) together: a larger one is
  // refused with an error that offers to write it to a file. Queries too.
  std::size_t max_reply_bytes = 16u << 20;
  // Estimated memory of one document (Document::estimated_bytes): an open or a batch that would
  // take a document past it is refused (the batch rolled back). The default lets the big
  // documents of bench/README.md open (a 1 M-cell draw.io file is estimated at 3.8 GB).
  std::size_t max_document_bytes = std::size_t{8} << 30;
  std::size_t progress_every = 1000;  // ops between progress reports in a batch
  // A batch still running after this long is rolled back at its next op (zero: no limit). One
  // op is not interrupted.
  std::chrono::milliseconds max_call_duration{std::chrono::minutes(2)};
};

// Per call: progress reporting and cancellation (checked between ops).
struct CallOptions {
  ProgressFn progress;
  const std::atomic<bool>* cancelled = nullptr;
  // The client takes structured results (MCP structuredContent, protocol 2025-06-18 on).
  bool structured = false;
};

// A change applied to the model and the log whose external effects still await confirmation.
// Holds references into its Session: the Session must outlive it and run nothing else meanwhile.
class PendingChange {
 public:
  struct Step {
    EventPtr event;
    bool forward;  // true: applied or replayed; false: reverted (undo)
  };

  std::vector<Effect> effects;  // deliver these, then confirm() or fail()
  bool rollback_on_failure = true;

 private:
  friend class Session;
  EventLog::Mark mark_;
  std::vector<Step> steps_;
  ToolReply reply_;  // the reply once confirmed (digest appended at confirmation)
};

// What a tool call produced: a final reply, or a change awaiting its effects.
struct CallResult {
  CallResult() = default;
  CallResult(ToolReply final_reply) : reply(std::move(final_reply)) {}  // NOLINT: implicit
  explicit CallResult(PendingChange change) : pending(std::move(change)) {}

  ToolReply reply;                       // final when `pending` is empty
  std::optional<PendingChange> pending;  // effects to deliver first
};

// Thread: owned by one client session; every method runs on that session's strand.
class Session {
 public:
  Session(const Domain& domain, const PathPolicy& paths, SessionLimits limits = {});

  const Domain& domain() const { return domain_; }

  // {domain}(ops)
  CallResult run_ops(std::span<const std::string> ops, const CallOptions& options);
  // {domain}_session(action)
  CallResult run_session(std::string_view action, const CallOptions& options);
  // {domain}_query(q): never changes the model or the log. `structured`: the reply carries the
  // answer's structured form too (ToolReply::structured, for clients that take MCP
  // structuredContent), counted with the text against limits.max_reply_bytes; without it the
  // reply is the text alone.
  ToolReply run_query(std::string_view query, bool structured = false) const;
  // {domain}_help()
  std::string help() const;

  // Completes a pending change once its effects were delivered, or rolls it back when they
  // failed (the executor has already compensated what was confirmed).
  ToolReply confirm(PendingChange change);
  ToolReply fail(PendingChange change, const Error& error);

  // For resources and status: "No drawio document open." or file + digest.
  std::string resource_text() const;
  bool has_document() const { return document_ != nullptr; }
  bool has_unsaved_changes() const;
  std::optional<std::string> digest() const;
  EffectExecutor* effect_executor();

  // Where documents also live outside this session (document handles): the error to give
  // instead of the plain "no document" one, e.g. naming the caller's open documents and how to
  // reach them; nullopt keeps the plain one.
  using NoDocumentHint = std::function<std::optional<Error>()>;
  void set_no_document_hint(NoDocumentHint hint) { no_document_hint_ = std::move(hint); }

  // What a document the same client starts next inherits from this session
  // (SessionState::successor); null: nothing. Thread: any.
  std::unique_ptr<SessionState> successor_state() const;
  // Makes `state` (another session's successor_state) this session's domain state. Before the
  // first new/open only, so the document adopts it; null keeps the state it has.
  void inherit_state(std::unique_ptr<SessionState> state);
  // For journals (crash recovery): what identifies the session's state, compared before and
  // after a call to tell whether it changed the document, its history or its file.
  struct Fingerprint {
    const Document* document = nullptr;
    std::size_t log_length = 0;
    std::size_t cursor = 0;
    std::map<std::string, std::size_t> checkpoints;
    const Event* head = nullptr;
    const Event* saved_head = nullptr;
    std::optional<std::filesystem::path> file;
    std::string digest;
    bool operator==(const Fingerprint&) const = default;
  };
  Fingerprint fingerprint() const;
  // The file bytes the last successful `open` read (once; empty afterwards), so a journal keeps
  // what was opened even if the file changes later.
  std::optional<FileBytes> take_opened_bytes() { return std::exchange(opened_bytes_, {}); }
  std::optional<std::filesystem::path> file_path() const { return file_path_; }
  // Replays a journaled `open`: the document `bytes` make, as if read from `path` now.
  Result<void> restore_open(const std::filesystem::path& path, const FileBytes& bytes);
  // Replays a journaled `save`: marks the current state saved to `path` without writing it.
  void restore_saved(const std::filesystem::path& path);
  // After restore_open of a journal's snapshot: the file it belongs to (none: never saved),
  // whether the snapshot was the saved state, and the changes since the save (for status).
  void restore_base(std::optional<std::filesystem::path> file, bool saved,
                    std::size_t changes_since_save);
  std::size_t changes_since_save() const { return changes_since_save_; }
  // Replays a journaled call of ops or session action; effects are not delivered (the external
  // system is not part of what is restored). An error reply means the replay diverged.
  ToolReply replay_ops(std::span<const std::string> ops);
  ToolReply replay_session(std::string_view action);
  // While true (a journal's replay), new and open do not let the domain adopt the document into
  // the session's state: a replay links to no external system (lofi: no Max ping per journal
  // listed); relink() does it once the document is rebuilt.
  void set_replaying(bool replaying) { replaying_ = replaying; }
  // A document rebuilt from its journal joins the client as a new or opened one does: `state`
  // (the successor_state of the client's session; null keeps this session's) becomes the
  // session's, and the domain adopts the document into it (Domain::restored). Returns the
  // reply lines the domain gives (lofi: whether the device is linked to Max).
  std::vector<std::string> relink(std::unique_ptr<SessionState> state);
  // The document's file bytes in the format `path` names (its own writer); error without one.
  Result<std::string> serialize(const std::filesystem::path& path) const;
  // The document's file as `save` would write it now (to its file, or TITLE.EXT when never
  // saved), without writing anything: the bytes and the domain's MIME type for them.
  Result<Attachment> file_resource() const;
  // The document in a resource form of its domain (Domain::resource_forms: ".svg", ".wav"),
  // within limits.max_reply_bytes. Changes neither the model nor the log.
  Result<Attachment> resource_form(std::string_view suffix);

 private:
  Error no_document_error() const;
  // The op parsed and checked against its verb's contract (keys, arrows, known verb).
  Result<ParsedOp> checked_op(std::string_view text) const;
  Result<OpOutcome> run_one_op(std::string_view text, CallContext& ctx);
  // Adds `? no at: given: placed at 1.1, the default` for each placing key the op left out.
  void say_placement_defaults(const VerbSpec& spec, const ParsedOp& op, OpOutcome& outcome) const;
  // A reply naming every op of the batch that does not fit its verb; nullopt when all fit.
  std::optional<ToolReply> contract_failures(std::span<const std::string_view> list) const;
  Result<void> check_checkpoint_op(const ParsedOp& op) const;
  Result<OpOutcome> run_checkpoint_op(const ParsedOp& op) const;
  std::string checkpoint_line(std::string_view name) const;
  // Every line an op or a session extension writes comes from the builders of core/response.hpp;
  // a domain that hand-writes one is a bug that debug builds (and so the ASan suite) stop at.
  static void assert_reply_lines(std::span<const std::string> lines);
  // The error that rolls a call back once its ops added more entities than the limit allows,
  // or its reply (text and attachments so far) grew past max_reply_bytes; nullopt within both.
  std::optional<Error> over_call_limits(std::size_t entities_at_start,
                                        std::size_t reply_bytes) const;
  std::optional<Error> over_creation_limit(std::size_t entities_at_start) const;
  // An error when the document's estimated memory is past limits.max_document_bytes and above
  // `bytes_at_start` (a batch that shrinks an oversized document is let through).
  std::optional<Error> over_memory_limit(std::size_t bytes_at_start) const;
  // The error for a reply of `bytes` past max_reply_bytes; nullopt when it fits.
  std::optional<Error> over_reply_limit(std::size_t bytes, std::string_view advice) const;
  void add_warnings(ReplyText& reply, const std::vector<PendingChange::Step>& steps) const;
  ToolReply batch_failure_reply(std::size_t index, std::size_t count, std::string_view op,
                                const Error& error) const;
  CallResult finish(ToolReply reply, std::vector<Effect> effects, EventLog::Mark mark,
                    std::vector<PendingChange::Step> steps, bool rollback_on_failure);
  void roll_back(const EventLog::Mark& mark, const std::vector<PendingChange::Step>& steps);
  ToolReply with_digest(ToolReply reply) const;
  ToolReply error_reply(const Error& error) const;

  Result<void> check_can_replace(const SessionCommand& command) const;
  void install(std::unique_ptr<Document> document, std::optional<std::filesystem::path> file);
  CallResult apply_history(const std::vector<EventPtr>& events, bool forward, EventLog::Mark mark);
  EventPtr head_event() const;
  CallResult session_new(const SessionCommand& command, const CallOptions& options);
  CallResult session_open(const SessionCommand& command, const CallOptions& options);
  CallResult session_save(const SessionCommand& command);
  CallResult session_checkpoint(const SessionCommand& command);
  CallResult session_undo(const SessionCommand& command);
  CallResult session_redo(const SessionCommand& command);
  CallResult session_close(const SessionCommand& command);
  CallResult session_extension(const SessionCommand& command, const CallOptions& options);

  std::string query_status() const;
  Result<std::string> query_history(std::string_view args) const;
  Result<std::string> query_diff(std::string_view args) const;
  // `query` as written: its first word is unknown; the `try:` is the query with that word fixed.
  Error unknown_query_error(std::string_view word, std::string_view query) const;
  // The op contract for query words and session commands: keys they do not declare are refused.
  Result<void> check_declared_keys(const std::vector<VerbSpec>& specs, std::string_view word,
                                   std::string_view text) const;

  const Domain& domain_;
  const PathPolicy& paths_;
  SessionLimits limits_;
  std::unique_ptr<SessionState> state_;  // the domain's, for this session (may be null)
  bool replaying_ = false;               // see set_replaying
  NoDocumentHint no_document_hint_;
  std::unique_ptr<Document> document_;
  EventLog log_;
  std::optional<std::filesystem::path> file_path_;
  // The newest applied event when the document was last saved or opened (null: none). The
  // document is unchanged exactly when the newest applied event is still this one.
  EventPtr saved_head_;
  std::size_t changes_since_save_ = 0;     // ops, undos and redos since then (for status)
  std::optional<FileBytes> opened_bytes_;  // see take_opened_bytes()
};

// The `checkpoint NAME` op, which the engine answers for every domain.
const VerbSpec& checkpoint_verb();

// The queries the engine answers for every domain (status, history, diff).
std::span<const VerbSpec> engine_queries();
// Every query word of a domain: its own, then the engine's.
std::vector<VerbSpec> query_specs(const Domain& domain);
// Every session command of a domain: the engine's (with the domain's `new` keys), then the
// domain's extensions.
std::vector<VerbSpec> session_specs(const Domain& domain);

// The reference card: verbs from the registry by category, the domain's sections, queries,
// session commands, selectors, prefixes, and the document's runtime additions.
std::string render_reference_card(const Domain& domain, const Document* document);

}  // namespace fcp::core

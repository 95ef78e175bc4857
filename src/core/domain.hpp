// The interface a domain (drawio, midi, lofi) implements to plug into the shared engine.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/effects.hpp"
#include "core/event_log.hpp"
#include "core/file_access.hpp"
#include "core/parsed_op.hpp"
#include "core/query_result.hpp"
#include "core/result.hpp"
#include "core/session_command.hpp"
#include "core/verb_registry.hpp"

namespace fcp::core {

// Collects the external effects caused by applying, reverting or replaying events.
class EffectSink {
 public:
  void emit(Effect effect) { effects_.push_back(std::move(effect)); }
  std::vector<Effect> take() { return std::move(effects_); }
  bool empty() const { return effects_.empty(); }

 private:
  std::vector<Effect> effects_;
};

// Binary, image or audio output that accompanies a reply (a PNG export shown to the client, a
// rendering it can play).
struct Attachment {
  std::string mime_type;  // "image/png", "image/svg+xml", "audio/wav"
  std::string bytes;      // raw bytes; the MCP layer encodes them
};

// What a successful op did.
struct OpOutcome {
  std::vector<std::string> lines;  // reply lines, already prefixed (+, ~, *, -, !, @)
  EventPtr event;                  // ONE event for the whole op; null when nothing changed
  std::vector<Attachment> attachments;
  std::string checkpoint;  // non-empty: the op asks for a named checkpoint after its event
};

// Called between steps of long work; `total` is 0 when unknown.
using ProgressFn = std::function<void(double progress, double total, std::string_view message)>;

// What a domain keeps for one client session across its documents (lofi: the Max link that
// `connect` chose, which outlives `close` and `new`). Owned by the Session and destroyed with it.
// Thread: touched from the session's strand; anything it shares with other threads it guards.
class SessionState {
 public:
  virtual ~SessionState() = default;
  // The state a document the same client starts next (new/open, in a Session of its own)
  // inherits from this one: what the client chose carries over (lofi: the remembered Max and
  // its link). Null: the next document starts with Domain::new_session_state().
  // Thread: any — the session may run a call meanwhile, so read only what is guarded.
  virtual std::unique_ptr<SessionState> successor() const { return nullptr; }
};

// How many entities one call may create (limits.max_created_per_call) and how many its ops
// created so far.
struct CreationBudget {
  std::size_t limit = static_cast<std::size_t>(-1);
  std::size_t created = 0;
  std::size_t remaining() const { return created >= limit ? 0 : limit - created; }
};

// Services the engine hands to domain code during one call.
struct CallContext {
  const EventLog& log;         // read-only history (for @recent and history-aware queries)
  const PathPolicy& paths;     // every path a domain reads or writes goes through this
  EffectSink& effects;         // external effects of the current change
  const ProgressFn& progress;  // may be an empty function
  // Where a session extension puts the attachments of its reply (ops return theirs in
  // OpOutcome); null where none can be returned (queries).
  std::vector<Attachment>* attachments = nullptr;
  // The domain's state for this session (Domain::new_session_state), null when it keeps none.
  SessionState* state = nullptr;
  // What the call may still create: set by the engine before each op from
  // SessionLimits::max_created_per_call and what earlier ops of the call created. A verb that
  // makes many entities at once (copy, repeat, count:) asks check_creation() first, so a short
  // request cannot cost what the limit forbids before the engine's own check after the op.
  CreationBudget creation = {};
  // The most bytes one reply may carry, text and attachments together (limits.max_reply_bytes);
  // a verb that makes a large attachment asks check_reply_size() before adding it.
  std::size_t max_reply_bytes = static_cast<std::size_t>(-1);
};

// An error unless `count` more entities (drawio cells, midi events, lofi objects and wires)
// fit in what the call may still create; the error names the limit and its config key.
// `what` names them for the message ("cells", "notes").
Result<void> check_creation(const CallContext& ctx, std::size_t count, std::string_view what);

// An error unless `bytes` fit in a reply; it names the limit and its config key, says what was
// too large (`what`: "the PNG") and offers `hints` (ops that write it to a file instead).
Result<void> check_reply_size(const CallContext& ctx, std::size_t bytes, std::string_view what,
                              std::vector<std::string> hints);
// "105.2 MB", "3.4 KB", "512 bytes".
std::string byte_size_text(std::size_t bytes);
// "limits.max_document_bytes = N bytes (8.6 GB), a setting of the daemon's config".
std::string memory_limit_text(std::size_t limit);

// One open document of a domain, with its model and derived indices.
// Thread: owned by one session and only touched from that session's strand.
// How the events handed to Document::warnings ran: applied by a batch or a redo, or reverted
// by an undo.
enum class Applied { forward, reverted };

class Document {
 public:
  virtual ~Document() = default;

  // Applies one op (verb already checked against the registry). Strong guarantee: on error the
  // model is unchanged. Effects go to ctx.effects.
  virtual Result<OpOutcome> execute(const ParsedOp& op, CallContext& ctx) = 0;
  // Inverse and re-application of a recorded event; both must succeed for events this document
  // produced. After a series of them the engine calls history_changed().
  virtual void revert(const Event& event, EffectSink& effects) = 0;
  virtual void replay(const Event& event, EffectSink& effects) = 0;
  virtual void history_changed() {}
  // A multi-line block that an op of this call opened and no op closed (midi's `tracker …
  // import`): the error that fails the call, saying how to close the block; nullopt when none is
  // open. Called once at the end of every call of ops, also of a failed one; the document
  // discards the block, the engine rolls the call back. Blocks never span calls.
  virtual std::optional<Error> close_open_block() { return std::nullopt; }
  // Called once after `new` or `open` made this the session's document (e.g. to announce it to
  // an external system). A failure of these effects is reported as a warning, not rolled back.
  virtual void opened(EffectSink& effects) { (void)effects; }

  // Answers a domain query (map, stats, describe, list, find, …). Returns nullopt for a query
  // word it does not know, so the engine can try the generic ones (history, diff, status).
  // For a query its table marks structured (VerbSpec::structured) the answer carries its data
  // too, built from the same selection as its text: the entities the text shows, in its order.
  virtual std::optional<Result<QueryAnswer>> query(std::string_view verb, std::string_view args,
                                                   const CallContext& ctx) const = 0;
  // Extra lines for `status` (after the engine's file/log lines).
  virtual std::vector<std::string> status_lines() const { return {}; }
  // The one-line state digest that ends every mutating reply.
  virtual std::string digest() const = 0;
  // How many entities the model holds (drawio cells, midi events, lofi objects and wires), in
  // O(1): the engine compares it before and after each op to bound what one call creates.
  virtual std::size_t entity_count() const { return 0; }
  // The model's estimated memory in bytes, in O(1) (entity counts × bytes per entity measured
  // with bench_big's peak RSS): the engine refuses an open or a batch that takes a document past
  // limits.max_document_bytes. Zero: no estimate.
  virtual std::size_t estimated_bytes() const { return 0; }
  // Runtime additions to the reference card (custom types, loaded stencils or soundfonts).
  virtual std::string help_additions() const { return {}; }
  // Structural warnings after a successful batch, undo or redo ("? X: no connections"),
  // without the "? ". `applied` says how `events` ran: forward (a batch or a redo: an event's
  // before is the state before the call) or reverted (an undo, latest first: its after is).
  virtual std::vector<std::string> warnings(std::span<const EventPtr> events,
                                            Applied applied) const {
    (void)events;
    (void)applied;
    return {};
  }
  // The file contents for `path` (the format is chosen from its extension), or an error.
  virtual Result<std::string> serialize(const std::filesystem::path& path) const = 0;
  // The same bytes handed to `write` in pieces, in order (save streams them to its temporary
  // file, so a document need not hold its whole text beside its model); after `write` returns
  // false (the file could not take them) the rest may be left out. An error, or a call that
  // must stop, means the bytes handed over are incomplete. By default: serialize, in one piece.
  virtual Result<void> write_file(const std::filesystem::path& path,
                                  const std::function<bool(std::string_view)>& write) const {
    auto bytes = serialize(path);
    if (!bytes) return bytes.error();
    write(*bytes);
    return {};
  }
  virtual std::string title() const = 0;
  // A short summary for open/save replies, e.g. "2 pages, 7 shapes, 5 edges, 1 groups".
  virtual std::string summary() const = 0;
};

// A form of a document served as a resource beside its file (MCP resources/read of
// fcp://DOMAIN/doc/HANDLE plus `suffix`): drawio's SVG picture, midi's WAV rendering.
struct ResourceForm {
  std::string suffix;     // ".svg": appended to the document's resource URI
  std::string mime_type;  // "image/svg+xml"
  std::string title;      // "diagram picture (SVG)"
  std::string description;
};

// A guided prompt a domain offers through MCP prompts (prompts/list, prompts/get).
struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
};
struct Prompt {
  std::string name;  // "build-device"
  std::string title;
  std::string description;
  std::vector<PromptArgument> arguments;
  // The user message text for the given arguments (missing optional ones are absent).
  std::function<std::string(const std::map<std::string, std::string>& arguments)> render;
};

// A domain: its vocabulary and how to make documents. Immutable after construction and shared
// by all sessions (thread-safe by being const).
class Domain {
 public:
  virtual ~Domain() = default;

  virtual std::string_view name() const = 0;          // "drawio"
  virtual std::string_view display_name() const = 0;  // "draw.io diagrams"
  virtual const VerbRegistry& verbs() const = 0;
  virtual const ParseHooks* parse_hooks() const { return nullptr; }

  // Static parts of the reference card besides the verbs: vocabulary, selectors, conventions,
  // an example workflow. Markdown-ish plain text.
  virtual std::string card_sections() const = 0;
  // Query words this domain answers (for the card and the unknown-query error), with syntax.
  virtual std::vector<VerbSpec> queries() const = 0;
  // Query words agents use for this domain's queries ("notes" → "events"), tried before spelling.
  virtual std::vector<Synonym> query_synonyms() const { return {}; }
  // The keys `new "Title"` takes in this domain (tempo:, width:, …).
  virtual std::vector<KeySpec> new_document_keys() const { return {}; }
  // Session commands beyond the built-in ones (export, connect, load-soundfont, …).
  virtual std::vector<VerbSpec> session_extensions() const { return {}; }
  // File extensions `open` accepts, for messages ("drawio", "xml", "drawio.svg").
  virtual std::vector<std::string> file_extensions() const = 0;

  // `new "Title" [params]`.
  virtual Result<std::unique_ptr<Document>> create(const SessionCommand& command) const = 0;
  // `open PATH`: `bytes` is the file content, already read within the allowed roots; a
  // document that keeps them shares them (FileBytes is a shared, immutable copy).
  virtual Result<std::unique_ptr<Document>> load(const std::filesystem::path& path,
                                                 const FileBytes& bytes,
                                                 const ProgressFn& progress) const = 0;
  // The estimated memory of the document a file of `file_bytes` bytes opens into, checked
  // against limits.max_document_bytes before the file is parsed. Zero: no estimate.
  virtual std::size_t estimated_bytes_for_file(std::size_t file_bytes) const {
    (void)file_bytes;
    return 0;
  }
  // A domain session extension. `document` is null when none is open. Mutating extensions
  // return their reply lines; the engine appends the digest.
  virtual Result<std::vector<std::string>> run_session_extension(const SessionCommand& command,
                                                                 Document* document,
                                                                 CallContext& ctx) const {
    (void)document;
    (void)ctx;
    return make_error("unknown session command \"" + command.command + "\"");
  }

  // The MIME type of `bytes`, this domain's file serialized for `path` (Document::serialize),
  // for the document's resource.
  virtual std::string file_mime_type(const std::filesystem::path& path,
                                     std::string_view bytes) const {
    (void)path;
    (void)bytes;
    return "application/octet-stream";
  }
  // The forms of a document this domain serves as resources beside its file; none by default.
  virtual std::vector<ResourceForm> resource_forms() const { return {}; }
  // `document` in the form `suffix` names (one of resource_forms), made by the code its export
  // uses, within ctx.max_reply_bytes; writes no file and changes nothing.
  virtual Result<Attachment> render_resource(std::string_view suffix, Document& document,
                                             CallContext& ctx) const {
    (void)document;
    (void)ctx;
    return make_error("no resource form \"" + std::string(suffix) + "\"");
  }

  // The state this domain keeps for one session, made when the session starts; null: none.
  virtual std::unique_ptr<SessionState> new_session_state() const { return nullptr; }
  // Called when `new` or `open` made `document` the session's document, before
  // Document::opened: binds it to the session's state (`state` as new_session_state made it).
  // Returns extra reply lines (already prefixed), e.g. why the document starts offline.
  virtual std::vector<std::string> adopt(Document& document, SessionState* state) const {
    (void)document;
    (void)state;
    return {};
  }

  // Called when a document rebuilt from its journal (recover, or reloaded after an idle eviction)
  // joins a session: adopts it like new/open (by default exactly adopt). Returns extra reply
  // lines (lofi: whether the device is linked to Max, and how to push it there).
  virtual std::vector<std::string> restored(Document& document, SessionState* state) const {
    return adopt(document, state);
  }

  // A query answered with no document open (lofi: ping, which asks the session's Max link);
  // nullopt: the engine answers that a document is needed. `state` as new_session_state made it.
  virtual std::optional<Result<std::string>> query_without_document(std::string_view verb,
                                                                    std::string_view args,
                                                                    SessionState* state) const {
    (void)verb;
    (void)args;
    (void)state;
    return std::nullopt;
  }

  // Lines `status` adds, with no document open, to the engine's "no document open" line (lofi:
  // the session's Max link, which `connect` makes with no device open). `state` as
  // new_session_state made it.
  virtual std::vector<std::string> status_without_document(SessionState* state) const {
    (void)state;
    return {};
  }

  // Guided prompts (MCP prompts capability); none by default.
  virtual std::vector<Prompt> prompts() const { return {}; }

  // Where this domain's effects are delivered, or null when it has none.
  virtual EffectExecutor* effect_executor(Document& document) const {
    (void)document;
    return nullptr;
  }
};

}  // namespace fcp::core

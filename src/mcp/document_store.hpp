// The daemon's open documents, each reachable by an unguessable handle (doc:dw-…) from any
// connection or MCP session of its owner, and run one call at a time.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/session.hpp"
#include "mcp/auth.hpp"
#include "mcp/document_journal.hpp"
#include "mcp/serial_queue.hpp"

namespace fcp::mcp {

// The principal every document belongs to until authentication names others.
inline constexpr std::string_view kLocalPrincipal = "local";

// One open document: its engine session (model + event log) and the queue its calls run on.
// Thread: handle(), owner(), domain() any; session() and loaded() only from a task of queue();
// summary(), last_use(), closed() and evicted() any (guarded by mutex_ or atomic).
class StoredDocument {
 public:
  using Clock = std::chrono::steady_clock;
  struct Summary {
    std::string title;
    std::optional<std::filesystem::path> file;
    bool unsaved = false;
    std::string digest;  // the state digest after the last change
  };

  StoredDocument(std::string handle, std::string owner, const core::Domain& domain,
                 const boost::asio::any_io_executor& calls, const core::PathPolicy& paths,
                 core::SessionLimits limits);

  const std::string& handle() const { return handle_; }
  const std::string& owner() const { return owner_; }
  const core::Domain& domain() const { return domain_; }
  const std::shared_ptr<SerialQueue>& queue() const { return queue_; }
  // The document's engine session; a task of queue() first makes sure it is loaded
  // (DocumentStore::load) since an idle document may have been evicted to its journal.
  core::Session& session() { return *session_; }
  bool loaded() const { return session_ != nullptr; }
  bool evicted() const { return evicted_.load(); }
  // What the document's session chose (lofi: its Max), for the next document its client starts
  // (new, open, recover): from its session, or while it is evicted, from what the eviction kept.
  // Thread: any (an eviction or reload may run meanwhile).
  std::unique_ptr<core::SessionState> successor_state() const;

  // Records the time of use and, when the call may have changed the document (ops, session
  // actions), what list shows. On the queue, after each call.
  void refresh(bool changed);
  Summary summary() const;
  Clock::time_point last_use() const;
  bool closed() const { return closed_.load(); }
  // How many calls changed the document's content in this daemon (the new or open that made it
  // counts; a recovered document starts from 0):
  // _meta["fcp/revision"] of its resources/read results and notifications/resources/updated, so
  // a watcher can match a read to a change. A call that changed it advances it, on the queue.
  std::uint64_t revision() const { return revision_.load(); }
  void advance_revision() { ++revision_; }
  // Closed here because another replica took the document over (its lease): it lives on there,
  // from the journal, under the same handle.
  bool moved() const { return moved_.load(); }

 private:
  friend class DocumentStore;

  const std::string handle_;
  const std::string owner_;
  const core::Domain& domain_;
  std::shared_ptr<SerialQueue> queue_;
  const core::PathPolicy& paths_;
  core::SessionLimits limits_;
  std::unique_ptr<core::Session> session_;  // null while evicted
  // While evicted: what the document's session chose (lofi: its Max), for the reload to relink.
  std::unique_ptr<core::SessionState> evicted_state_;
  // Guards session_ and evicted_state_ while an eviction or reload swaps them (written on the
  // queue) against successor_state() from other threads.
  mutable std::mutex session_mutex_;
  std::atomic<bool> closed_{false};
  std::atomic<std::uint64_t> revision_{0};
  std::atomic<bool> evicted_{false};
  std::atomic<bool> moved_{false};
  // The journal and the state it last recorded (on the queue; the mutex lets flush_journals()
  // sync from another thread).
  std::mutex journal_mutex_;
  std::unique_ptr<JournalFile> journal_;
  core::Session::Fingerprint journaled_;
  std::size_t compact_at_ = 0;  // records at which to try a compaction (after one failed)
  // What the owner's journal budget counts for this document (its journal's bytes since it was
  // last saved), and what the running call reserved (under journal_mutex_).
  std::size_t journal_charged_ = 0;
  std::size_t journal_reserved_ = 0;
  mutable std::mutex mutex_;  // guards the members below
  Summary summary_;
  Clock::time_point last_use_;
};

// The seam for keeping idle documents addressable without holding them in memory: an evictor
// writes an idle document away (to a journal) and brings it back on use. DocumentStore is the
// one implementation: with a state directory and documents.idle_evict_seconds, it evicts
// documents idle that long whose journal holds everything (DocumentStore::evict_idle).
class DocumentEvictor {
 public:
  virtual ~DocumentEvictor() = default;
  // Called on the document's queue; after it, the document holds no model until restored.
  // False: the document stays in memory (it has changes not in its journal, or no journal).
  virtual bool evict(StoredDocument& document) = 0;
};

// Thread: every method is thread-safe; those that take a StoredDocument& run on its queue.
class DocumentStore final : public DocumentEvictor {
 public:
  // `prefixes`: two letters per domain name for its handles (drawio → dw); a domain not listed
  // uses the first two letters of its name. `journal`: where and how documents are journaled.
  DocumentStore(boost::asio::any_io_executor calls, const core::PathPolicy& paths,
                core::SessionLimits limits, std::size_t max_documents,
                std::map<std::string, std::string, std::less<>> prefixes = {},
                JournalOptions journal = {});
  ~DocumentStore() override;
  DocumentStore(const DocumentStore&) = delete;
  DocumentStore& operator=(const DocumentStore&) = delete;

  const JournalOptions& journal_options() const { return journal_; }
  bool journals() const { return journal_.state_dir.has_value(); }

  // After a call on `document` whose reply succeeded, before it is sent: appends what the call
  // changed to the journal (`ops` for the ops tool, else `action`). Returns a warning line for
  // the reply when the journal could not be written. On the queue.
  std::optional<std::string> journal(StoredDocument& document, const std::vector<std::string>* ops,
                                     std::string_view action);
  // The principals' journal budgets (limits.max_journal_bytes_per_principal); null: unlimited.
  // Set once, before the first call.
  void set_journal_budget(PrincipalLimits* budget) { budget_ = budget; }
  // Before a changing call on `document` runs (the ops tool with `ops`, else the session
  // `action`): reserves what its journal append will take from the owner's budget (the bytes of
  // unsaved work its journal holds, summed over the owner's documents). The error says the
  // budget is spent;
  // the call must then not run, so nothing changes. save, close and open reserve nothing (they
  // leave no unsaved work). On the queue.
  core::Result<void> reserve_journal(StoredDocument& document, const std::vector<std::string>* ops,
                                     std::string_view action);
  // After the call (journaled or not, succeeded or failed): the reservation ends and the
  // document counts the journal bytes written since it was last saved (nothing once saved; a
  // compaction's snapshot in full while there is unsaved work). On the queue.
  void settle_journal(StoredDocument& document);
  // Syncs every journal to disk (the fsync policy may have left appends unsynced). For graceful
  // shutdown: with journals, every acknowledged change is already in its journal, so after this
  // nothing is lost when the process ends.
  void flush_journals();
  // For the daemon's exit, which closes every document: a document with unsaved work keeps its
  // journal (synced) for `recover`; the journal of one whose changes are all saved is removed,
  // as closing it would. Returns how many journals were kept.
  std::size_t close_journals_at_exit();

  // A document a journal in the state directory can restore (not open now).
  struct Recoverable {
    std::string handle;
    std::string title;
    std::optional<std::filesystem::path> file;
    bool unsaved = false;
    std::size_t calls = 0;              // journaled calls replayed
    std::optional<std::string> damage;  // the damaged tail, when the journal has one
    std::optional<std::string> error;   // why it cannot be restored
    std::vector<std::string> lines;     // what the domain says of the recovered document (link)
  };
  std::vector<Recoverable> recoverable(const std::string& owner, const core::Domain& domain) const;
  // Restores the journaled document `handle` under the same handle and adds it to the store;
  // `report` gets what the recovery kept (the damaged tail it cut off). The document joins
  // `state` (the successor_state of the client's session, as new/open inherit it; lofi: its
  // Max link), and report.lines say what the domain made of it.
  core::Result<std::shared_ptr<StoredDocument>> recover(std::string_view handle,
                                                        const std::string& owner,
                                                        const core::Domain& domain,
                                                        Recoverable& report,
                                                        std::unique_ptr<core::SessionState> state);
  // On the queue: brings an evicted document back from its journal (no-op when loaded).
  core::Result<void> load(StoredDocument& document);
  bool evict(StoredDocument& document) override;
  // Evicts (on their queues) the documents idle longer than journal.idle_evict; returns how many
  // were asked. The daemon calls it from a timer; tests call it directly.
  std::size_t evict_idle(StoredDocument::Clock::time_point now = StoredDocument::Clock::now());
  // Runs evict_idle() periodically, and with journal.fsync interval syncs the journals every
  // journal.fsync_interval (so an append is on disk within it even when no call follows), on
  // the calls executor (Server starts them); stop lets the executor run out of work (shutdown).
  void start_timers();
  void stop_timers();
  // Journals with appends not yet synced to disk (the interval and never policies).
  std::size_t unsynced_journals() const;

  std::string prefix(const core::Domain& domain) const;

  // A new empty document with a fresh handle, not yet reachable: add() makes it so once new
  // or open succeeded in it.
  std::shared_ptr<StoredDocument> make(const core::Domain& domain, const std::string& owner) const;
  // Refuses when the owner already has max_documents open.
  core::Result<void> can_add(const std::string& owner, const core::Domain& domain) const;
  core::Result<void> add(const std::shared_ptr<StoredDocument>& document);
  // Until idle documents go to a journal: at the limit, the owner's least recently used
  // document without unsaved changes is closed to make room for a new one. This names it (null:
  // there is room; the error: every document has unsaved changes); the caller removes it.
  core::Result<std::shared_ptr<StoredDocument>> room_for_one_more(const std::string& owner,
                                                                  const core::Domain& domain) const;
  // The open document `handle` names for `owner` in `domain`; errors say why not (not a handle,
  // another domain's, closed, unknown) with `try: DOMAIN_session list`.
  core::Result<std::shared_ptr<StoredDocument>> find(std::string_view handle,
                                                     const std::string& owner,
                                                     const core::Domain& domain) const;
  // Ends the handle: the document is marked closed (a call queued on it is refused), its
  // journal is removed, and a later use of the handle says it was closed.
  void remove(const StoredDocument& document);
  // Called with the owner after add() or remove() changed the owner's open documents (resource
  // list_changed notifications). Set once, before the first call.
  void set_list_observer(std::function<void(const std::string& owner)> observer) {
    list_observer_ = std::move(observer);
  }
  // Called with a document remove() closed, before the list observer (its resource subscribers
  // hear that it is gone). Set once, before the first call.
  void set_close_observer(std::function<void(const StoredDocument& document)> observer) {
    close_observer_ = std::move(observer);
  }
  // The owner's open documents of `domain`, most recently used first.
  std::vector<std::shared_ptr<StoredDocument>> list(const std::string& owner,
                                                    const core::Domain& domain) const;
  // Documents not used since `cutoff` (candidates for a DocumentEvictor).
  std::vector<std::shared_ptr<StoredDocument>> idle_since(
      StoredDocument::Clock::time_point cutoff) const;
  std::size_t max_documents() const { return max_documents_; }

  // Replicas sharing the state directory (journal.replica.id set): the documents' leases.
  LeaseTable& leases() { return leases_; }
  // A document of `owner` this replica does not have open but whose journal is in the state
  // directory: taken over (lease taken, document recovered from its journal) when its lease is
  // free or stale; else `holder` names the live replica that writes it. `journaled` false: no
  // journal of that handle (the caller answers find()'s error).
  struct TakeOver {
    bool journaled = false;
    std::shared_ptr<StoredDocument> document;
    std::optional<LeaseHolder> holder;
    std::optional<LeaseHolder> taken_from;  // the stale holder it was taken from
    Recoverable report;
  };
  core::Result<TakeOver> take_over(std::string_view handle, const std::string& owner,
                                   const core::Domain& domain);
  // On the queue: lets another replica have the document (its journal synced and closed, its
  // lease released, the handle answered by that replica from now on). False when its journal
  // does not hold all of it (the document stays).
  bool hand_off(StoredDocument& document);

 private:
  // Every open document, copied out under the lock (to work on each without holding it).
  std::vector<std::shared_ptr<StoredDocument>> every_document() const;
  struct Closed {
    std::string domain;
    std::string owner;
    std::string title;
    std::optional<std::filesystem::path> file;
  };

  core::Result<void> room_for(const std::string& owner, const core::Domain& domain) const;
  // remove() under the lock; false when the document was not open.
  bool remove_locked(const StoredDocument& document);
  std::filesystem::path journal_path(std::string_view handle) const;
  // A fresh session with the journal's calls replayed; `calls` counts them.
  core::Result<std::unique_ptr<core::Session>> replay(const core::Domain& domain,
                                                      const JournalContents& contents,
                                                      std::size_t& calls) const;
  std::optional<std::string> append(StoredDocument& document, const JournalRecord& record);
  // Rewrites a long journal as a snapshot plus the last journal.history calls, when the replay
  // of that gives exactly the document as it is.
  bool compact(StoredDocument& document);
  void schedule_eviction(const std::shared_ptr<boost::asio::steady_timer>& timer);
  void schedule_sync(const std::shared_ptr<boost::asio::steady_timer>& timer);
  // Polls this replica's hand-over inbox and renews its leases; hands documents over or lets go
  // of those whose lease another replica took.
  void schedule_leases(const std::shared_ptr<boost::asio::steady_timer>& timer);
  void tend_leases();
  // Sets what `document` counts against its owner's budget (journal_mutex_ held).
  void charge_locked(StoredDocument& document, std::size_t bytes);

  boost::asio::any_io_executor calls_;
  const core::PathPolicy& paths_;
  core::SessionLimits limits_;
  std::size_t max_documents_;
  const std::map<std::string, std::string, std::less<>> prefixes_;
  const JournalOptions journal_;
  PrincipalLimits* budget_ = nullptr;
  std::function<void(const std::string& owner)> list_observer_;
  std::function<void(const StoredDocument& document)> close_observer_;
  std::shared_ptr<boost::asio::steady_timer> evict_timer_;
  std::shared_ptr<boost::asio::steady_timer> sync_timer_;
  std::shared_ptr<boost::asio::steady_timer> lease_timer_;
  LeaseTable leases_;
  std::chrono::steady_clock::time_point renewed_;  // on the lease timer only
  mutable std::mutex mutex_;                       // guards the members below
  std::map<std::string, std::shared_ptr<StoredDocument>, std::less<>> documents_;
  std::map<std::string, Closed, std::less<>> closed_;  // the latest closed handles (bounded)
  std::vector<std::string> closed_order_;
};

// What list shows of a session's document (title, file, unsaved changes, digest).
StoredDocument::Summary summarize(const core::Session& session);

// "doc:PREFIX-" and 32 lowercase hex digits (128 bits from the kernel CSPRNG).
std::string make_document_handle(std::string_view prefix);
// True when `text` has the shape of a handle (any domain).
bool looks_like_handle(std::string_view text);

}  // namespace fcp::mcp

// The daemon's open documents, each reachable by an unguessable handle (doc:dw-…) from any
// connection or MCP session of its owner, and run one call at a time.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/session.hpp"
#include "mcp/serial_queue.hpp"

namespace fcp::mcp {

// The principal every document belongs to until authentication names others.
inline constexpr std::string_view kLocalPrincipal = "local";

// One open document: its engine session (model + event log) and the queue its calls run on.
// Thread: handle(), owner(), domain() any; session() only from a task of queue(); summary(),
// last_use() and closed() any (guarded by mutex_ or atomic).
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
  core::Session& session() { return session_; }

  // Records the time of use and, when the call may have changed the document (ops, session
  // actions), what list shows. On the queue, after each call.
  void refresh(bool changed);
  Summary summary() const;
  Clock::time_point last_use() const;
  bool closed() const { return closed_.load(); }

 private:
  friend class DocumentStore;

  const std::string handle_;
  const std::string owner_;
  const core::Domain& domain_;
  std::shared_ptr<SerialQueue> queue_;
  core::Session session_;
  std::atomic<bool> closed_{false};
  mutable std::mutex mutex_;  // guards the members below
  Summary summary_;
  Clock::time_point last_use_;
};

// The seam for keeping idle documents addressable without holding them in memory: an evictor
// writes an idle document away (to a journal) and brings it back on use. The store does not
// evict by itself yet; DocumentStore::idle_since() names the candidates.
class DocumentEvictor {
 public:
  virtual ~DocumentEvictor() = default;
  // Called on the document's queue; after it, the document holds no model until restored.
  virtual void evict(StoredDocument& document) = 0;
};

// Thread: every method is thread-safe.
class DocumentStore {
 public:
  // `prefixes`: two letters per domain name for its handles (drawio → dw); a domain not listed
  // uses the first two letters of its name.
  DocumentStore(boost::asio::any_io_executor calls, const core::PathPolicy& paths,
                core::SessionLimits limits, std::size_t max_documents,
                std::map<std::string, std::string, std::less<>> prefixes = {});

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
  // Ends the handle: the document is marked closed (a call queued on it is refused) and a
  // later use of the handle says it was closed.
  void remove(const StoredDocument& document);
  // The owner's open documents of `domain`, most recently used first.
  std::vector<std::shared_ptr<StoredDocument>> list(const std::string& owner,
                                                    const core::Domain& domain) const;
  // Documents not used since `cutoff` (candidates for a DocumentEvictor).
  std::vector<std::shared_ptr<StoredDocument>> idle_since(
      StoredDocument::Clock::time_point cutoff) const;
  std::size_t max_documents() const { return max_documents_; }

 private:
  struct Closed {
    std::string domain;
    std::string owner;
    std::string title;
    std::optional<std::filesystem::path> file;
  };

  core::Result<void> room_for(const std::string& owner, const core::Domain& domain) const;

  boost::asio::any_io_executor calls_;
  const core::PathPolicy& paths_;
  core::SessionLimits limits_;
  std::size_t max_documents_;
  const std::map<std::string, std::string, std::less<>> prefixes_;
  mutable std::mutex mutex_;  // guards the members below
  std::map<std::string, std::shared_ptr<StoredDocument>, std::less<>> documents_;
  std::map<std::string, Closed, std::less<>> closed_;  // the latest closed handles (bounded)
  std::vector<std::string> closed_order_;
};

// "doc:PREFIX-" and 32 lowercase hex digits (128 bits from the kernel CSPRNG).
std::string make_document_handle(std::string_view prefix);
// True when `text` has the shape of a handle (any domain).
bool looks_like_handle(std::string_view text);

}  // namespace fcp::mcp

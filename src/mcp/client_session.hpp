// One MCP client's view of the daemon's documents: which document is current per domain (the
// one a call without `doc` works on), and the queue that keeps the client's calls in order.
// The documents themselves live in the DocumentStore; `new`/`open` put them there.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "core/session.hpp"
#include "mcp/document_store.hpp"
#include "mcp/serial_queue.hpp"

namespace fcp::mcp {

// Thread: submit()/post() from any thread; current()/set_current()/forget() are thread-safe;
// empty_session() only from a task of the queue. Owned by shared_ptr: the connection,
// named-session registry and queued tasks keep it alive.
class ClientSession : public std::enable_shared_from_this<ClientSession> {
 public:
  using Done = SerialQueue::Done;
  using Task = SerialQueue::Task;

  ClientSession(const boost::asio::any_io_executor& calls,
                const std::vector<const core::Domain*>& domains, const core::PathPolicy& paths,
                core::SessionLimits limits, std::string name,
                std::string principal = std::string(kLocalPrincipal));

  // The client's calls, in order: a call on a document runs on that document's queue and
  // finishes its task here only then.
  void submit(Task task) { queue_->submit(std::move(task)); }
  void post(std::function<void()> work) { queue_->post(std::move(work)); }
  const std::shared_ptr<SerialQueue>& queue() const { return queue_; }

  // A session without a document: answers calls made before new/open ("no document: …") and
  // help. Queue only.
  core::Session& empty_session(const core::Domain& domain);

  // The document this client made or opened last in `domain` (null: none). It may have been
  // closed since by another connection (StoredDocument::closed()).
  std::shared_ptr<StoredDocument> current(const core::Domain& domain) const;
  void set_current(const std::shared_ptr<StoredDocument>& document);
  // Drops `document` if it is current.
  void forget(const StoredDocument& document);
  // A session of stateless (2026-07-28) requests: no document becomes current, so every call
  // names its document by handle. Before the session is shared.
  void keep_no_current() { keeps_current_ = false; }
  bool keeps_current() const { return keeps_current_; }

  const std::string& name() const { return name_; }  // empty for an anonymous session
  const std::string& principal() const { return principal_; }

 private:
  std::shared_ptr<SerialQueue> queue_;
  std::map<const core::Domain*, std::unique_ptr<core::Session>> empty_;
  mutable std::mutex mutex_;  // guards current_
  std::map<const core::Domain*, std::shared_ptr<StoredDocument>> current_;
  bool keeps_current_ = true;
  std::string name_;
  std::string principal_;
};

// The connection attached to a named session.
// Thread: any (implementations use atomics).
class SessionHolder {
 public:
  virtual ~SessionHolder() = default;
  // True when another client may take the session over: a holder that cannot notice its client
  // leaving (HTTP without DELETE) and has been idle, with nothing in flight, for a while.
  virtual bool releasable() const = 0;
  // The session was taken over; the holder must stop using it.
  virtual void revoke() = 0;
};

// Named sessions: one client at a time may be attached to each name. Names are per principal:
// two principals using the same name get two sessions, and neither reaches the other's.
// Thread: all methods are thread-safe.
class SessionRegistry {
 public:
  using Factory = std::function<std::shared_ptr<ClientSession>(const std::string& name)>;

  explicit SessionRegistry(std::size_t max_sessions) : max_sessions_(max_sessions) {}

  core::Result<std::shared_ptr<ClientSession>> attach(const std::string& principal,
                                                      const std::string& name,
                                                      const Factory& factory,
                                                      std::weak_ptr<SessionHolder> holder);
  // Releases the name if `holder` still holds it.
  void detach(const std::string& principal, const std::string& name, const SessionHolder* holder);
  // Whether a live client holds the name and may not be displaced (attach would refuse).
  bool busy(const std::string& principal, const std::string& name);

 private:
  struct Entry {
    std::shared_ptr<ClientSession> session;
    std::weak_ptr<SessionHolder> holder;
  };
  using Key = std::pair<std::string, std::string>;  // principal, name
  std::mutex mutex_;
  std::map<Key, Entry> entries_;
  std::size_t max_sessions_;
};

}  // namespace fcp::mcp

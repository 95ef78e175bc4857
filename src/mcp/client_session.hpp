// The documents of one MCP client: a core::Session per domain, run one call at a time on a
// strand of the calls executor (the daemon's event loop); and the registry of named sessions that
// outlive connections.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/session.hpp"

namespace fcp::mcp {

// Thread: submit() from any thread; tasks run on the strand, one at a time, in order. A task
// may finish asynchronously (awaiting external effects): the next task starts only after it
// calls its `done`. Owned by shared_ptr: the connection, named-session registry and queued
// tasks keep it alive.
class ClientSession : public std::enable_shared_from_this<ClientSession> {
 public:
  using Done = std::function<void()>;
  using Task = std::function<void(Done)>;

  ClientSession(const boost::asio::any_io_executor& calls,
                const std::vector<const core::Domain*>& domains, const core::PathPolicy& paths,
                core::SessionLimits limits, std::string name);

  void submit(Task task);
  // Posts plain work to the strand (no queueing behind a pending task); for completions.
  void post(std::function<void()> work);

  // Strand only.
  core::Session& session(const core::Domain& domain);
  const std::string& name() const { return name_; }  // empty for an anonymous session

 private:
  void run_next();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  std::deque<Task> queue_;
  bool busy_ = false;
  std::map<const core::Domain*, std::unique_ptr<core::Session>> sessions_;
  std::string name_;
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

// Named sessions: one client at a time may be attached to each name.
// Thread: all methods are thread-safe.
class SessionRegistry {
 public:
  using Factory = std::function<std::shared_ptr<ClientSession>(const std::string& name)>;

  explicit SessionRegistry(std::size_t max_sessions) : max_sessions_(max_sessions) {}

  core::Result<std::shared_ptr<ClientSession>> attach(const std::string& name,
                                                      const Factory& factory,
                                                      std::weak_ptr<SessionHolder> holder);
  // Releases the name if `holder` still holds it.
  void detach(const std::string& name, const SessionHolder* holder);

 private:
  struct Entry {
    std::shared_ptr<ClientSession> session;
    std::weak_ptr<SessionHolder> holder;
  };
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
  std::size_t max_sessions_;
};

}  // namespace fcp::mcp

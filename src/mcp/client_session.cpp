#include "mcp/client_session.hpp"

#include <boost/asio/post.hpp>

#include "core/thread_hooks.hpp"

namespace fcp::mcp {

ClientSession::ClientSession(const boost::asio::any_io_executor& calls,
                             const std::vector<const core::Domain*>& domains,
                             const core::PathPolicy& paths, core::SessionLimits limits,
                             std::string name)
    : strand_(boost::asio::make_strand(calls)), name_(std::move(name)) {
  for (const auto* domain : domains) {
    sessions_.emplace(domain, std::make_unique<core::Session>(*domain, paths, limits));
  }
}

void ClientSession::submit(Task task) {
  boost::asio::post(strand_, [self = shared_from_this(), task = std::move(task)]() mutable {
    self->queue_.push_back(std::move(task));
    if (!self->busy_) self->run_next();
  });
}

void ClientSession::post(std::function<void()> work) {
  boost::asio::post(strand_, std::move(work));
}

void ClientSession::run_next() {
  if (queue_.empty()) {
    busy_ = false;
    return;
  }
  busy_ = true;
  Task task = std::move(queue_.front());
  queue_.pop_front();
  // `done` may be called from any thread, at most once; it resumes the queue on the strand.
  auto finished = std::make_shared<std::atomic<bool>>(false);
  const core::TaskScope scope;  // lets the daemon's event loop hand its I/O over if this runs long
  task([self = shared_from_this(), finished] {
    if (finished->exchange(true)) return;
    boost::asio::post(self->strand_, [self] { self->run_next(); });
  });
}

core::Session& ClientSession::session(const core::Domain& domain) {
  return *sessions_.at(&domain);
}

core::Result<std::shared_ptr<ClientSession>> SessionRegistry::attach(
    const std::string& name, const Factory& factory, std::weak_ptr<SessionHolder> holder) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    if (entries_.size() >= max_sessions_) {
      return core::make_error("too many named sessions (" + std::to_string(max_sessions_) +
                              "); reuse an existing name or restart the daemon");
    }
    it = entries_.emplace(name, Entry{factory(name), {}}).first;
  }
  if (auto current = it->second.holder.lock()) {
    if (!current->releasable()) {
      return core::make_error("session \"" + name +
                              "\" is in use by another client; wait for it to disconnect or "
                              "pick another session name");
    }
    current->revoke();
  }
  it->second.holder = std::move(holder);
  return it->second.session;
}

void SessionRegistry::detach(const std::string& name, const SessionHolder* holder) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(name);
  if (it == entries_.end()) return;
  auto current = it->second.holder.lock();
  if (!current || current.get() == holder) it->second.holder.reset();
}

}  // namespace fcp::mcp

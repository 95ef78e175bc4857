#include "mcp/client_session.hpp"

namespace fcp::mcp {

ClientSession::ClientSession(const boost::asio::any_io_executor& calls,
                             const std::vector<const core::Domain*>& domains,
                             const core::PathPolicy& paths, core::SessionLimits limits,
                             std::string name, std::string principal)
    : queue_(std::make_shared<SerialQueue>(calls)),
      name_(std::move(name)),
      principal_(std::move(principal)) {
  for (const auto* domain : domains) {
    empty_.emplace(domain, std::make_unique<core::Session>(*domain, paths, limits));
  }
}

core::Session& ClientSession::empty_session(const core::Domain& domain) {
  return *empty_.at(&domain);
}

std::shared_ptr<StoredDocument> ClientSession::current(const core::Domain& domain) const {
  std::lock_guard lock(mutex_);
  auto it = current_.find(&domain);
  return it != current_.end() ? it->second : nullptr;
}

void ClientSession::set_current(const std::shared_ptr<StoredDocument>& document) {
  if (!keeps_current_) return;
  std::lock_guard lock(mutex_);
  current_[&document->domain()] = document;
}

void ClientSession::forget(const StoredDocument& document) {
  std::lock_guard lock(mutex_);
  auto it = current_.find(&document.domain());
  if (it != current_.end() && it->second.get() == &document) current_.erase(it);
}

core::Result<std::shared_ptr<ClientSession>> SessionRegistry::attach(
    const std::string& principal, const std::string& name, const Factory& factory,
    std::weak_ptr<SessionHolder> holder) {
  std::lock_guard lock(mutex_);
  const Key key{principal, name};
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    if (entries_.size() >= max_sessions_) {
      return core::make_error("too many named sessions (" + std::to_string(max_sessions_) +
                              "); reuse an existing name or restart the daemon");
    }
    it = entries_.emplace(key, Entry{factory(name), {}}).first;
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

bool SessionRegistry::busy(const std::string& principal, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(Key{principal, name});
  if (it == entries_.end()) return false;
  auto current = it->second.holder.lock();
  return current && !current->releasable();
}

void SessionRegistry::detach(const std::string& principal, const std::string& name,
                             const SessionHolder* holder) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(Key{principal, name});
  if (it == entries_.end()) return;
  auto current = it->second.holder.lock();
  if (!current || current.get() == holder) it->second.holder.reset();
}

}  // namespace fcp::mcp

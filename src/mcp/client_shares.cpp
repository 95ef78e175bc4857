#include "mcp/client_shares.hpp"

#include <atomic>
#include <memory>

namespace fcp::mcp {

void ClientShares::run(const std::string& client, Start start, Post post) {
  {
    const std::lock_guard lock(mutex_);
    Client& entry = clients_[client];
    if (entry.running >= per_client_) {
      entry.waiting.push_back({std::move(start), std::move(post)});
      return;
    }
    ++entry.running;
  }
  start(release_for(client));
}

ClientShares::Release ClientShares::release_for(const std::string& client) {
  auto released = std::make_shared<std::atomic<bool>>(false);
  return [this, client, released] {
    if (released->exchange(true)) return;
    Waiting next;
    {
      const std::lock_guard lock(mutex_);
      auto it = clients_.find(client);
      if (it == clients_.end()) return;
      if (it->second.waiting.empty()) {
        if (--it->second.running == 0) clients_.erase(it);
        return;
      }
      next = std::move(it->second.waiting.front());
      it->second.waiting.pop_front();  // the slot passes to it: running stays
    }
    next.post([start = std::move(next.start), release = release_for(client)] { start(release); });
  };
}

std::size_t ClientShares::running(const std::string& client) const {
  const std::lock_guard lock(mutex_);
  auto it = clients_.find(client);
  return it == clients_.end() ? 0 : it->second.running;
}

std::size_t ClientShares::waiting(const std::string& client) const {
  const std::lock_guard lock(mutex_);
  auto it = clients_.find(client);
  return it == clients_.end() ? 0 : it->second.waiting.size();
}

std::string client_key(const std::string& principal, const std::string& peer,
                       const std::string& client_address) {
  if (!client_address.empty()) return principal + "@" + client_address;
  const auto colon = peer.rfind(':');
  return principal + "@" + (colon == std::string::npos ? peer : peer.substr(0, colon));
}

}  // namespace fcp::mcp

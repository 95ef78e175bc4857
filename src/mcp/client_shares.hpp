// Each client's share of the daemon's call threads: one client (its principal and address, over
// every connection it opens) runs at most `per_client` tool calls at once; its further calls wait
// in line, holding no thread, so one client with many long calls (six large layouts) cannot
// occupy every thread and other clients' calls go on.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace fcp::mcp {

// Thread: every method is thread-safe.
class ClientShares {
 public:
  using Release = std::function<void()>;
  // Runs the call; it calls `release` (once, from any thread) when it has ended.
  using Start = std::function<void(Release release)>;
  // Defers `start` when it cannot run inline (its client was at its share): posts it.
  using Post = std::function<void(std::function<void()>)>;

  explicit ClientShares(std::size_t per_client) : per_client_(per_client == 0 ? 1 : per_client) {}

  // Runs `start` now (on this thread) if `client` has fewer than per_client calls running, else
  // once one of them has ended (through `post`).
  void run(const std::string& client, Start start, Post post);

  std::size_t per_client() const { return per_client_; }
  std::size_t running(const std::string& client) const;
  std::size_t waiting(const std::string& client) const;

 private:
  struct Waiting {
    Start start;
    Post post;
  };
  struct Client {
    std::size_t running = 0;
    std::deque<Waiting> waiting;
  };
  Release release_for(const std::string& client);

  const std::size_t per_client_;
  mutable std::mutex mutex_;  // guards clients_
  std::map<std::string, Client> clients_;
};

// "principal@address" for a connection's peer ("127.0.0.1:51234" → the address without the port),
// or for `client_address` when it is not empty (already without a port).
std::string client_key(const std::string& principal, const std::string& peer,
                       const std::string& client_address = {});

}  // namespace fcp::mcp

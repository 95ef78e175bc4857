// Admission at the connection limits of a listener (TCP and HTTP alike): the connection idle
// longest makes room for a new client; with none idle the new client is refused.
#pragma once

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/ip/address.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "transport/live_set.hpp"
#include "transport/options.hpp"

namespace fcp::transport {

// The connection to close so that a new client fits: the one idle longest among `live` (of
// `address` only when given), or nullptr when none is idle. Peer has address() and
// idle_since() (an optional time point, nullopt while busy).
template <class Peer>
std::shared_ptr<Peer> longest_idle(const std::vector<std::shared_ptr<Peer>>& live,
                                   const boost::asio::ip::address* address) {
  std::shared_ptr<Peer> chosen;
  for (const auto& peer : live) {
    if (address != nullptr && peer->address() != *address) continue;
    const auto since = peer->idle_since();
    if (since && (!chosen || *since < *chosen->idle_since())) chosen = peer;
  }
  return chosen;
}

// Admits a new client from `address` or says why not: at a limit (per address, then per
// listener) the connection idle longest is shut down (Peer::shutdown(reason)) to make room;
// with none idle the client is refused (false; the caller drops its socket). Thread: any.
template <class Peer>
bool make_room(const LiveSet<Peer>& peers, const Limits& limits,
               const boost::asio::ip::address& address, const char* transport) {
  const auto live = peers.snapshot();
  const auto same_address = static_cast<std::size_t>(std::count_if(
      live.begin(), live.end(), [&](const auto& peer) { return peer->address() == address; }));
  const boost::asio::ip::address* scope = nullptr;
  const char* limit_name = nullptr;
  std::size_t limit = 0;
  if (same_address >= limits.max_connections_per_address) {
    scope = &address;
    limit_name = "per-address connection limit";
    limit = limits.max_connections_per_address;
  } else if (live.size() >= limits.max_connections) {
    limit_name = "connection limit";
    limit = limits.max_connections;
  } else {
    return true;
  }
  auto idle = longest_idle(live, scope);
  if (!idle) {
    spdlog::warn("{}: {} ({}) reached and no connection is idle: refusing a client from {}",
                 transport, limit_name, limit, address.to_string());
    return false;
  }
  idle->shutdown(
      fmt::format("{} ({}) reached; it was the connection idle longest, and a new "
                  "client from {} takes its place",
                  limit_name, limit, address.to_string()));
  return true;
}

}  // namespace fcp::transport

// Leases for replicas sharing one state directory: one replica writes a document at a time.
//
// The lease of document doc:dw-X is the file dw-X.lease beside its journal, holding who writes
// the document (replica id, pid, host) and when the holder last renewed it. A replica takes a
// lease that is free, its own, or stale: not renewed within ReplicaOptions::lease_ttl, or at once
// when its holder ran on this host and its pid is gone (kill -9). Every read-and-write of a lease
// file runs under flock() on it, so two replicas never both take one.
//
// Hand-over: a replica asked for a document another live replica holds (a load balancer routed a
// call by its Mcp-Param-Doc header to another replica than the one that made the document) appends
// the handle to the holder's inbox, REPLICA.handoff in the state directory; the holder, polling its
// inbox, lets the document go between two calls (journal synced, lease released) and the asker
// takes it over from the journal.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::mcp {

struct ReplicaOptions {
  // This replica's name (letters, digits, '_' and '-'); empty: no leases (one daemon owns its
  // state directory, as before replicas).
  std::string id;
  // A lease not renewed this long is stale: another replica may take it over. The holder renews
  // its leases every third of it.
  std::chrono::milliseconds lease_ttl{5000};
  // How long a replica asked for a document another live replica holds waits for it to hand the
  // document over before it answers an error naming the holder.
  std::chrono::milliseconds handoff_wait{3000};
};

struct LeaseHolder {
  std::string replica;
  long pid = 0;
  std::string host;
  std::int64_t renewed_ms = 0;  // Unix time, milliseconds

  // "replica r1 (pid 1234 on host h, lease renewed 0.4 s ago)"; pid 0: a holder known only by
  // its lock on the journal.
  std::string describe() const;
};

// Thread: every method is thread-safe.
class LeaseTable {
 public:
  LeaseTable(std::optional<std::filesystem::path> state_dir, ReplicaOptions options);

  bool enabled() const { return !options_.id.empty() && dir_.has_value(); }
  const ReplicaOptions& options() const { return options_; }
  // This process as a holder (renewed now).
  LeaseHolder self() const;

  // Takes the lease of `handle` when it is free, ours or stale; else names the live holder.
  // `taken_from`: the holder whose stale lease was taken over, if any.
  struct Outcome {
    bool taken = false;
    std::optional<LeaseHolder> holder;  // not taken: who holds it
    std::optional<LeaseHolder> taken_from;
  };
  core::Result<Outcome> acquire(std::string_view handle);
  // Who holds the lease of `handle` now (nothing: free or stale).
  std::optional<LeaseHolder> live_holder(std::string_view handle) const;
  // Renews every lease this replica holds; returns the handles whose lease another replica took
  // meanwhile (this replica must stop writing them).
  std::vector<std::string> renew_all();
  // Gives the lease up (the file is removed when it is still ours).
  void release(std::string_view handle);
  bool holds(std::string_view handle) const;
  std::vector<std::string> held() const;

  // Asks `holder` to hand `handle` over (appends to its inbox).
  core::Result<void> ask_handoff(const LeaseHolder& holder, std::string_view handle) const;
  // The handles other replicas asked this one for since the last call.
  std::vector<std::string> handoff_requests();

  std::filesystem::path lease_path(std::string_view handle) const;

 private:
  bool alive(const LeaseHolder& holder, std::int64_t now_ms) const;

  std::optional<std::filesystem::path> dir_;
  ReplicaOptions options_;
  std::string host_;
  long pid_ = 0;
  mutable std::mutex mutex_;  // guards the members below
  std::set<std::string, std::less<>> held_;
  std::uintmax_t inbox_offset_ = 0;
};

// Parses a lease file's text; nothing when it is not one.
std::optional<LeaseHolder> parse_lease(std::string_view text);
std::string format_lease(const LeaseHolder& holder);
// True for a usable replica id: 1 to 32 of [A-Za-z0-9_-].
bool valid_replica_id(std::string_view id);

}  // namespace fcp::mcp

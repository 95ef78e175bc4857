// Reply correlation for the Max bridge: which pending request, if any, a reply belongs to.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace fcp::lofi::bridge {

// Remembers a bounded number of ids (oldest forgotten first).
class RecentIds {
 public:
  explicit RecentIds(std::size_t capacity) : capacity_(capacity) {}
  void remember(std::string id);
  bool contains(std::string_view id) const;

 private:
  std::size_t capacity_;
  std::deque<std::string> order_;
  std::unordered_set<std::string> ids_;
};

// Pure bookkeeping, no I/O and no locking: the owner (the Bridge's strand) serializes calls.
// Rules: a reply that echoes a pending id matches it; a reply without an id matches the pending
// request only when exactly one is pending; a reply for an id that timed out is "late", for an
// id already answered a "duplicate"; anything else is unmatched.
class Correlator {
 public:
  enum class Match {
    matched,    // `request_id` is the request it answers (now no longer pending)
    late,       // answers a request that already timed out
    duplicate,  // answers a request that was already answered
    ambiguous,  // no id and several requests pending: cannot tell which
    unmatched,  // an id this bridge never sent (or forgot), or no id and nothing pending
  };
  struct Outcome {
    Match match = Match::unmatched;
    std::string request_id;  // the matched (or late/duplicate) id; "" otherwise
  };

  explicit Correlator(std::size_t memory = 4096) : answered_(memory), timed_out_(memory) {}

  void add(std::string request_id);
  Outcome match(std::string_view reply_id);
  // Forgets a pending request that timed out; returns false when it was not pending.
  bool time_out(const std::string& request_id);
  // Forgets a pending request that ended without a reply for another reason (send failure).
  void abandon(const std::string& request_id);
  std::size_t pending() const { return pending_.size(); }
  std::vector<std::string> pending_ids() const;

 private:
  std::unordered_set<std::string> pending_;
  RecentIds answered_;
  RecentIds timed_out_;
};

}  // namespace fcp::lofi::bridge

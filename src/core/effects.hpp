// External effects: messages an op must get confirmed by an outside system (the Max bridge)
// before the op commits. Domains return them as values; the async layer delivers them.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

struct Effect {
  std::string address;       // e.g. "/lofi/create"
  std::string payload;       // e.g. a JSON object as text
  std::vector<Effect> undo;  // what to send, in order, to cancel this effect once confirmed
};

// How far a delivery has come: `confirmed` of `total` effects. Called after each confirmation,
// in order, from any thread; may be empty.
using DeliveryProgress = std::function<void(std::size_t confirmed, std::size_t total)>;

// Delivers effects in order, awaiting each confirmation. On the first failure it sends the
// `undo` effects of every already-confirmed effect (newest first, best effort) and then reports
// the failure. `done` is called exactly once, from any thread; `done` and `progress` may be
// destroyed on the executor's thread after the caller is gone, so the caller's callbacks hold
// nothing that must be destroyed elsewhere.
// Thread: implementations must be safe to call from any thread.
class EffectExecutor {
 public:
  virtual ~EffectExecutor() = default;
  virtual void deliver(std::vector<Effect> effects, DeliveryProgress progress,
                       std::function<void(Result<void>)> done) = 0;
};

}  // namespace fcp::core

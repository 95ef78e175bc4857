// The one transaction and event scaffold of every domain: an op's changes are recorded as the
// domain makes them, rolled back unless the op commits, and kept as one event that the engine
// applies backward (undo) and forward (redo). A domain supplies only its change type and how one
// change applies to its model.
#pragma once

#include <concepts>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/event_log.hpp"

namespace fcp::core {

// What a domain supplies. `Changes::apply(model, change, forward)` sets the model to the change's
// after-state (forward) or before-state (backward); `Changes::touched(changes)` names the
// entities they created or changed, as the domain's selector scope keys them (for @recent).
template <class T>
concept ChangeModel = requires(typename T::Model& model, const typename T::Change& change,
                               const std::vector<typename T::Change>& changes, bool forward) {
  T::apply(model, change, forward);
  { T::touched(changes) } -> std::convertible_to<std::vector<std::string>>;
};

// One op as an event: its text and its changes, in the order they were made.
template <ChangeModel Changes>
class ChangeEvent final : public Event {
 public:
  using Change = typename Changes::Change;

  ChangeEvent(std::string summary, std::vector<Change> changes)
      : summary_(std::move(summary)), changes_(std::move(changes)) {}
  std::string summary() const override { return summary_; }
  std::vector<std::string> touched_entities() const override { return Changes::touched(changes_); }
  const std::vector<Change>& changes() const { return changes_; }

 private:
  std::string summary_;
  std::vector<Change> changes_;
};

// Undo (`forward` false: newest change first) or redo of an event this domain made.
template <ChangeModel Changes>
void apply_event(typename Changes::Model& model, const Event& event, bool forward) {
  const auto& changes = static_cast<const ChangeEvent<Changes>&>(event).changes();
  if (forward) {
    for (const auto& change : changes)
      Changes::apply(model, change, true);
  } else {
    for (auto it = changes.rbegin(); it != changes.rend(); ++it)
      Changes::apply(model, *it, false);
  }
}

// The changes of one op, applied to the model as they are made and recorded. Unless committed,
// the destructor applies them backward, newest first: an op that fails half way leaves the model
// as it was (strong guarantee). `Key` names an entity for `touch`.
// Thread: the owner's (one session's strand).
template <ChangeModel Changes, class Key = std::string>
class Transaction {
 public:
  using Model = typename Changes::Model;
  using Change = typename Changes::Change;

  explicit Transaction(Model& model) : model_(model) {}
  ~Transaction() {
    if (!finished_) roll_back();
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  Model& model() { return model_; }
  const Model& model() const { return model_; }

  // Records a change the caller has already applied to the model.
  void record(Change change) { changes_.push_back(std::move(change)); }
  // Applies `change` forward and records it.
  void apply(Change change) {
    Changes::apply(model_, change, true);
    record(std::move(change));
  }
  // The change recorded for `key` earlier in this op, or the one `first_touch()` makes, recorded
  // now: an entity's before-state is taken once per op, its after-state at commit.
  template <class MakeChange>
  Change& touch(const Key& key, MakeChange first_touch) {
    auto [it, inserted] = touched_.try_emplace(key, changes_.size());
    if (inserted) changes_.push_back(first_touch());
    return changes_[it->second];
  }

  const std::vector<Change>& changes() const { return changes_; }
  bool empty() const { return changes_.empty(); }

  // Ends the op: `finish(change)` completes each change (its after-state) and returns false for
  // one that changed nothing. The event, or null when nothing changed.
  template <class Finish>
  EventPtr commit(std::string summary, Finish finish) {
    finished_ = true;
    std::vector<Change> kept;
    kept.reserve(changes_.size());
    for (auto& change : changes_) {
      if (finish(change)) kept.push_back(std::move(change));
    }
    changes_.clear();
    touched_.clear();
    if (kept.empty()) return nullptr;
    return std::make_shared<ChangeEvent<Changes>>(std::move(summary), std::move(kept));
  }
  EventPtr commit(std::string summary) {
    return commit(std::move(summary), [](const Change&) { return true; });
  }

  // Applies every recorded change backward, newest first, and forgets them.
  void roll_back() {
    finished_ = true;
    for (auto it = changes_.rbegin(); it != changes_.rend(); ++it)
      Changes::apply(model_, *it, false);
    changes_.clear();
    touched_.clear();
  }

 private:
  Model& model_;
  std::vector<Change> changes_;
  std::unordered_map<Key, std::size_t> touched_;
  bool finished_ = false;
};

}  // namespace fcp::core

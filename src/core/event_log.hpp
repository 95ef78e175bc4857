// The cursor-based event log behind undo, redo, checkpoints and history (fcp-core.md §4).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::core {

// One recorded op. Domains derive their own event types carrying enough data (snapshots,
// before/after values) to revert and replay it. Events are immutable once recorded.
class Event {
 public:
  virtual ~Event() = default;
  // One line for `history` and `diff` (e.g. `add svc Auth`); no prefix.
  virtual std::string summary() const = 0;
  // Keys of the entities this op created or changed, as the domain's SelectorScope::key_of
  // names them: what `@recent` chooses. Deleted entities may be listed; they no longer match.
  virtual std::vector<std::string> touched_entities() const { return {}; }
};
using EventPtr = std::shared_ptr<const Event>;

// Thread: owned by one session; not thread-safe.
class EventLog {
 public:
  struct Entry {
    EventPtr event;          // null for a checkpoint sentinel
    std::string checkpoint;  // the sentinel's name
    bool is_checkpoint() const { return event == nullptr; }
  };

  // Everything needed to put the log back exactly as it was (batch rollback). Contract: the
  // entries before the marked cursor must still be there at rollback, i.e. nothing was
  // appended after undoing past the mark (appends after it, undo and redo are all fine).
  struct Mark {
    std::size_t cursor = 0;
    std::vector<Entry> tail;  // entries at and after the cursor when marked
    std::map<std::string, std::size_t> checkpoints;
  };

  void append(EventPtr event);
  void checkpoint(std::string name);
  std::vector<EventPtr> undo(std::size_t count);  // newest first
  std::vector<EventPtr> redo(std::size_t count);  // oldest first
  // Error for an unknown name; nullopt when the checkpoint is at or after the cursor.
  Result<std::optional<std::vector<EventPtr>>> undo_to(std::string_view name);
  std::vector<EventPtr> recent(std::size_t count) const;  // oldest first, read-only
  // Real entries applied since the checkpoint (oldest first); error for an unknown name.
  Result<std::vector<EventPtr>> since(std::string_view name) const;

  std::size_t cursor() const { return cursor_; }
  std::size_t length() const { return entries_.size(); }
  std::size_t undoable() const;  // real entries before the cursor (O(n))
  // Real entries (not checkpoints) before `position`, a checkpoint's place in the log (O(n)).
  std::size_t ops_before(std::size_t position) const;
  std::size_t redoable() const;  // real entries at or after the cursor
  const std::map<std::string, std::size_t>& checkpoints() const { return checkpoints_; }
  const std::vector<Entry>& entries() const { return entries_; }

  Mark mark() const;
  void rollback(Mark mark);
  void clear();

 private:
  void truncate_redo_tail();

  std::vector<Entry> entries_;
  std::size_t cursor_ = 0;
  std::map<std::string, std::size_t> checkpoints_;
};

}  // namespace fcp::core

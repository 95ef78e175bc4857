#include "core/event_log.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "core/resolve.hpp"

namespace fcp::core {
namespace {

Error unknown_checkpoint(std::string_view name, const std::map<std::string, std::size_t>& known) {
  std::vector<std::string> names;
  names.reserve(known.size());
  for (const auto& [known_name, position] : known)
    names.push_back(known_name);
  std::string message = "unknown checkpoint \"" + std::string(name) + "\"";
  if (names.empty()) {
    message += " (no checkpoints yet)";
  } else {
    std::string list;
    for (const std::string& n : names)
      list += (list.empty() ? "" : ", ") + n;
    message += "; checkpoints: " + list;
  }
  return make_error(std::move(message), closest_matches(name, names));
}

}  // namespace

// Positions of checkpoints never exceed entries_.size(), so with the cursor at the end there
// is neither a tail nor a checkpoint to drop.
void EventLog::truncate_redo_tail() {
  if (cursor_ >= entries_.size()) return;
  entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(cursor_), entries_.end());
  std::erase_if(checkpoints_, [this](const auto& item) { return item.second > cursor_; });
}

void EventLog::append(EventPtr event) {
  truncate_redo_tail();
  entries_.push_back(Entry{std::move(event), {}});
  ++cursor_;
}

void EventLog::checkpoint(std::string name) {
  truncate_redo_tail();
  checkpoints_[name] = cursor_;
  entries_.push_back(Entry{nullptr, std::move(name)});
  ++cursor_;
}

std::vector<EventPtr> EventLog::undo(std::size_t count) {
  std::vector<EventPtr> undone;
  for (std::size_t i = cursor_; i > 0 && undone.size() < count; --i) {
    const Entry& entry = entries_[i - 1];
    if (entry.is_checkpoint()) continue;
    undone.push_back(entry.event);
    cursor_ = i - 1;
  }
  return undone;
}

std::vector<EventPtr> EventLog::redo(std::size_t count) {
  std::vector<EventPtr> redone;
  for (std::size_t i = cursor_; i < entries_.size() && redone.size() < count; ++i) {
    const Entry& entry = entries_[i];
    if (entry.is_checkpoint()) continue;
    redone.push_back(entry.event);
    cursor_ = i + 1;
  }
  return redone;
}

Result<std::optional<std::vector<EventPtr>>> EventLog::undo_to(std::string_view name) {
  const auto it = checkpoints_.find(std::string(name));
  if (it == checkpoints_.end()) return unknown_checkpoint(name, checkpoints_);
  const std::size_t position = it->second;
  if (position >= cursor_) return std::optional<std::vector<EventPtr>>();
  std::vector<EventPtr> undone;
  for (std::size_t i = cursor_; i > position; --i) {
    const Entry& entry = entries_[i - 1];
    if (!entry.is_checkpoint()) undone.push_back(entry.event);
  }
  cursor_ = position;
  return std::optional<std::vector<EventPtr>>(std::move(undone));
}

std::vector<EventPtr> EventLog::recent(std::size_t count) const {
  std::vector<EventPtr> found;
  for (std::size_t i = cursor_; i > 0 && found.size() < count; --i) {
    const Entry& entry = entries_[i - 1];
    if (!entry.is_checkpoint()) found.push_back(entry.event);
  }
  std::reverse(found.begin(), found.end());
  return found;
}

Result<std::vector<EventPtr>> EventLog::since(std::string_view name) const {
  const auto it = checkpoints_.find(std::string(name));
  if (it == checkpoints_.end()) return unknown_checkpoint(name, checkpoints_);
  std::vector<EventPtr> found;
  for (std::size_t i = it->second; i < cursor_; ++i) {
    if (!entries_[i].is_checkpoint()) found.push_back(entries_[i].event);
  }
  return found;
}

std::size_t EventLog::undoable() const {
  return static_cast<std::size_t>(
      std::count_if(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(cursor_),
                    [](const Entry& entry) { return !entry.is_checkpoint(); }));
}

std::size_t EventLog::ops_before(std::size_t position) const {
  const auto end =
      entries_.begin() + static_cast<std::ptrdiff_t>(std::min(position, entries_.size()));
  return static_cast<std::size_t>(std::count_if(
      entries_.begin(), end, [](const Entry& entry) { return !entry.is_checkpoint(); }));
}

std::size_t EventLog::redoable() const {
  return static_cast<std::size_t>(
      std::count_if(entries_.begin() + static_cast<std::ptrdiff_t>(cursor_), entries_.end(),
                    [](const Entry& entry) { return !entry.is_checkpoint(); }));
}

EventLog::Mark EventLog::mark() const {
  Mark mark;
  mark.cursor = cursor_;
  mark.tail.assign(entries_.begin() + static_cast<std::ptrdiff_t>(cursor_), entries_.end());
  mark.checkpoints = checkpoints_;
  return mark;
}

void EventLog::rollback(Mark mark) {
  entries_.resize(mark.cursor);
  entries_.insert(entries_.end(), std::make_move_iterator(mark.tail.begin()),
                  std::make_move_iterator(mark.tail.end()));
  cursor_ = mark.cursor;
  checkpoints_ = std::move(mark.checkpoints);
}

void EventLog::clear() {
  entries_.clear();
  cursor_ = 0;
  checkpoints_.clear();
}

}  // namespace fcp::core

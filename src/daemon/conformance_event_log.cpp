#include "daemon/conformance_event_log.hpp"

#include <boost/json.hpp>
#include <memory>
#include <string_view>

#include "core/event_log.hpp"

namespace fcp::daemon {
namespace json = boost::json;
namespace {

// A fixture event: an opaque JSON value, compared by deep equality.
class JsonEvent final : public core::Event {
 public:
  explicit JsonEvent(json::value value) : value_(std::move(value)) {}
  std::string summary() const override { return json::serialize(value_); }
  const json::value& value() const { return value_; }

 private:
  json::value value_;
};

json::value events_json(const std::vector<core::EventPtr>& events) {
  json::array out;
  for (const core::EventPtr& event : events) {
    out.push_back(static_cast<const JsonEvent&>(*event).value());
  }
  return out;
}

json::value size_json(std::size_t n) {
  return static_cast<std::int64_t>(n);
}

// `count` is optional (default 1) and must be a non-negative integer.
std::optional<std::size_t> count_of(const json::object& operation) {
  const json::value* value = operation.if_contains("count");
  if (value == nullptr) return 1;
  if (value->is_int64() && value->get_int64() >= 0) {
    return static_cast<std::size_t>(value->get_int64());
  }
  if (value->is_uint64()) return static_cast<std::size_t>(value->get_uint64());
  return std::nullopt;
}

std::optional<std::string> name_of(const json::object& operation) {
  const json::value* value = operation.if_contains("name");
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return std::string(value->get_string());
}

// Replays a test's operations on one log and remembers the last value of each kind of call.
class LogRun {
 public:
  std::optional<std::string> apply(const json::object& operation) {
    const json::value* action = operation.if_contains("action");
    if (action == nullptr || !action->is_string()) return "an operation needs an action";
    const std::string_view name = action->get_string();
    if (name == "append") return append(operation);
    if (name == "undo" || name == "redo" || name == "recent") return walk(name, operation);
    if (name == "undo_to" || name == "since" || name == "checkpoint") {
      return by_name(name, operation);
    }
    if (name == "mark") {
      mark_ = log_.mark();
    } else if (name == "rollback") {
      if (!mark_) return "rollback without a mark";
      log_.rollback(*mark_);
    } else if (name == "clear") {
      log_.clear();
    } else {
      return "unknown action \"" + std::string(name) + "\"";
    }
    return std::nullopt;
  }

  std::optional<std::string> check(const json::object& assertions) const {
    for (const auto& assertion : assertions) {
      const std::string_view key = assertion.key();
      if (key == "description") continue;
      std::optional<json::value> got = observed(key);
      if (!got) return "unknown assertion \"" + std::string(key) + "\"";
      if (*got != assertion.value()) {
        return std::string(key) + ": expected " + json::serialize(assertion.value()) + " got " +
               json::serialize(*got);
      }
    }
    return std::nullopt;
  }

 private:
  std::optional<std::string> append(const json::object& operation) {
    const json::value* event = operation.if_contains("event");
    if (event == nullptr) return "append needs an event";
    log_.append(std::make_shared<JsonEvent>(*event));
    return std::nullopt;
  }

  std::optional<std::string> walk(std::string_view action, const json::object& operation) {
    const std::optional<std::size_t> count = count_of(operation);
    if (!count) return std::string(action) + " needs a non-negative integer count";
    std::vector<core::EventPtr> events;
    if (action == "undo") {
      events = log_.undo(*count);
    } else if (action == "redo") {
      events = log_.redo(*count);
    } else {
      events = log_.recent(*count);
    }
    last_[std::string(action) + "_returned"] = events_json(events);
    return std::nullopt;
  }

  std::optional<std::string> by_name(std::string_view action, const json::object& operation) {
    const std::optional<std::string> name = name_of(operation);
    if (!name) return std::string(action) + " needs a name";
    if (action == "checkpoint") {
      log_.checkpoint(*name);
      return std::nullopt;
    }
    const std::string prefix(action);
    if (action == "undo_to") {
      auto undone = log_.undo_to(*name);
      last_[prefix + "_error"] = !undone;
      if (!undone) {
        last_[prefix + "_returned"] = "error: " + undone.error().message;
      } else {
        last_[prefix + "_returned"] = *undone ? events_json(**undone) : json::value(nullptr);
      }
      return std::nullopt;
    }
    auto found = log_.since(*name);
    last_[prefix + "_error"] = !found;
    last_[prefix + "_returned"] = found ? events_json(*found) : json::value(nullptr);
    return std::nullopt;
  }

  std::optional<json::value> observed(std::string_view key) const {
    if (key == "cursor") return size_json(log_.cursor());
    if (key == "length") return size_json(log_.length());
    if (key == "undoable") return size_json(log_.undoable());
    if (key == "redoable") return size_json(log_.redoable());
    if (key == "checkpoints") {
      json::object out;
      for (const auto& [name, position] : log_.checkpoints())
        out[name] = size_json(position);
      return json::value(std::move(out));
    }
    if (key == "undo_returned" || key == "redo_returned" || key == "recent_returned" ||
        key == "undo_to_returned" || key == "since_returned") {
      const json::value* value = last_.if_contains(key);
      return value != nullptr ? *value : json::value(nullptr);
    }
    if (key == "undo_to_error" || key == "since_error") {
      const json::value* value = last_.if_contains(key);
      return value != nullptr ? *value : json::value(false);
    }
    return std::nullopt;
  }

  core::EventLog log_;
  std::optional<core::EventLog::Mark> mark_;
  json::object last_;
};

}  // namespace

std::optional<std::string> run_event_log_test(const json::object& test) {
  const json::value* operations = test.if_contains("operations");
  const json::value* assertions = test.if_contains("assertions");
  if (operations == nullptr || !operations->is_array() || assertions == nullptr ||
      !assertions->is_object()) {
    return "malformed test: needs an operations array and an assertions object";
  }
  LogRun run;
  const json::array& list = operations->get_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json::object* operation = list[i].if_object();
    if (operation == nullptr) return "operation " + std::to_string(i) + " is not an object";
    if (auto failure = run.apply(*operation)) {
      return "operation " + std::to_string(i) + ": " + *failure;
    }
  }
  return run.check(assertions->get_object());
}

}  // namespace fcp::daemon

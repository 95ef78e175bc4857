// Events of the lofi domain: before/after snapshots of the objects, wires, mappings, scripts
// and device settings an op changed, and the Max messages that move Max across each change
// (forward for do/redo, backward for undo and compensation).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/effects.hpp"
#include "core/event_log.hpp"
#include "domains/lofi/device.hpp"

namespace fcp::lofi {

struct ObjectChange {
  std::string id;
  std::optional<MaxObject> before, after;
};
struct WireChange {
  Wire wire;
  bool added = true;  // false: removed
};
struct MappingChange {
  std::string parameter;
  std::optional<Mapping> before, after;
};
struct ScriptChange {
  std::string object;
  std::optional<std::string> before, after;
};
struct InfoChange {
  DeviceInfo before, after;
};
using DeviceChange =
    std::variant<ObjectChange, WireChange, MappingChange, ScriptChange, InfoChange>;

class DeviceEdit final : public core::Event {
 public:
  DeviceEdit(std::string summary, std::vector<DeviceChange> changes)
      : summary_(std::move(summary)), changes_(std::move(changes)) {}
  std::string summary() const override { return summary_; }
  const std::vector<DeviceChange>& changes() const { return changes_; }
  // The objects the op created or changed, their scripts or mappings included: what @recent
  // chooses. Wires belong to no one object and are not listed.
  std::vector<std::string> touched_entities() const override;

 private:
  std::string summary_;
  std::vector<DeviceChange> changes_;
};

void apply_change(Device& device, const DeviceChange& change, bool forward);

// The messages that take Max from one side of `change` to the other (forward: before → after).
std::vector<core::Effect> max_messages(const DeviceChange& change, bool forward);
// The Max effects of a whole edit, each carrying the messages that undo it.
std::vector<core::Effect> edit_effects(const std::vector<DeviceChange>& changes, bool forward);
// Messages that build the whole device in Max from nothing (sync, open): init, objects in
// z-order (UI layers as one /lofi/ui), wires, scripts, mappings.
std::vector<core::Effect> build_messages(const Device& device);

// The changes of one op, applied immediately; rolled back unless committed.
class DeviceTransaction {
 public:
  explicit DeviceTransaction(Device& device) : device_(device) {}
  ~DeviceTransaction();
  DeviceTransaction(const DeviceTransaction&) = delete;
  DeviceTransaction& operator=(const DeviceTransaction&) = delete;

  Device& device() { return device_; }
  const Device& device() const { return device_; }
  void put_object(MaxObject object);
  void erase_object(const std::string& id);  // and its wires, mappings and script
  void add_wire(const Wire& wire);
  void erase_wire(const Wire& wire);
  void put_mapping(const Mapping& mapping);
  void erase_mapping(const std::string& parameter);
  void put_script(const std::string& object, const std::string& path);
  void update_info(const std::function<void(DeviceInfo&)>& change);

  const std::vector<DeviceChange>& changes() const { return changes_; }
  core::EventPtr commit(std::string summary);

 private:
  void record(DeviceChange change);
  Device& device_;
  std::vector<DeviceChange> changes_;
  bool finished_ = false;
};

}  // namespace fcp::lofi

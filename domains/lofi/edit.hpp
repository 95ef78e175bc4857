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
#include "core/transaction.hpp"
#include "domains/lofi/device.hpp"

namespace fcp::lofi {

struct ObjectChange {
  std::string id;
  std::optional<MaxObject> before, after;
  // When Max has to build the object again (another class, arguments or view): what goes with
  // its old box and is made again for the new one — its wires, script and Live parameters.
  std::vector<Wire> wires;
  std::optional<std::string> script;
  std::vector<Mapping> mappings;
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

// How one change applies to a device, for core's transaction and event scaffold.
struct DeviceChanges {
  using Model = Device;
  using Change = DeviceChange;
  static void apply(Device& device, const DeviceChange& change, bool forward);
  // The objects the changes created or changed, their scripts or mappings included: what
  // @recent chooses. Wires belong to no one object and are not listed.
  static std::vector<std::string> touched(const std::vector<DeviceChange>& changes);
};

// One op's changes to a device: the event the log keeps.
using DeviceEdit = core::ChangeEvent<DeviceChanges>;

// The messages that take Max from one side of `change` to the other (forward: before → after;
// backward, for undo and compensation, every payload says "undo": true). Values are typed as Max
// saves them ("value": [0.2, 0.2, 0.2, 1.0]); an attribute that was not set is sent as
// "unset": true, which the daemon answers by restoring the value the object had before fcp set
// it. A new object's payload carries the box text exactly as it is saved ("text": "/ 100.");
// an object made again from the box it was opened from (`device` has the file) carries what the
// box says (box_payload.hpp).
std::vector<core::Effect> max_messages(const Device& device, const DeviceChange& change,
                                       bool forward);
// The Max effects of a whole edit, each carrying the messages that undo it.
std::vector<core::Effect> edit_effects(const Device& device,
                                       const std::vector<DeviceChange>& changes, bool forward);
// Messages that build the whole device in Max from nothing (sync, open): init, objects in
// z-order (UI layers as one /lofi/ui) as their boxes were saved, wires, scripts, mappings (with
// the parameter_shortname the box has, which Max's map would otherwise derive from the name).
std::vector<core::Effect> build_messages(const Device& device);

// The changes of one op, applied immediately; rolled back unless committed.
class DeviceTransaction {
 public:
  explicit DeviceTransaction(Device& device) : device_(device), transaction_(device) {}
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

  const std::vector<DeviceChange>& changes() const { return transaction_.changes(); }
  core::EventPtr commit(std::string summary) { return transaction_.commit(std::move(summary)); }

 private:
  Device& device_;
  core::Transaction<DeviceChanges> transaction_;
};

}  // namespace fcp::lofi

// What the Max simulator believes the device looks like; answers daemon messages as Max would.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <compare>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::lofi::bridge {

struct SimObject {
  std::string max_class;
  std::string text;  // the box text /lofi/create or /lofi/ui carried ("/ 100."), "" if none
  double x = 0;
  double y = 0;
  boost::json::array args;
  boost::json::object attrs;  // from /lofi/ui attrs and /lofi/set
  std::optional<double> width;
  std::optional<double> height;
  bool presentation = false;  // made by /lofi/ui
  std::string script;         // the file /lofi/inject loaded
  // As an opened device's box is pushed: its class of box ("newobj", "message" …), the
  // attributes its file saved ("box"), and for a subpatcher the boxes made inside it.
  std::string box_class;
  boost::json::object box;
  std::size_t boxes_inside = 0;
  // The ports Max gives a subpatcher (p, bpatcher): one per inlet and outlet box inside; none
  // for one made empty. Unset: the class's (simulator_ports.hpp).
  std::optional<int> inlets, outlets;
};

struct SimWire {
  std::string source;
  std::int64_t outlet = 0;
  std::string dest;
  std::int64_t inlet = 0;
  // NOLINTNEXTLINE(modernize-use-nullptr): clang-tidy 14 sees a 0 in the defaulted comparison
  friend auto operator<=>(const SimWire&, const SimWire&) = default;
};

struct SimMapping {
  std::string object_id;
  std::string property;
  std::string shortname;  // the short name /lofi/map gave ("" = derived from the name)
};

// Plain data, no I/O: the Simulator calls handle() for every message on its strand.
// Every address but /lofi/init and /lofi/ping needs a device (send /lofi/init first).
// Payloads (requestId is ignored here):
//   /lofi/init {deviceName,width?,height?,openinpresentation?,devicewidth?}
//                                                resets the model     → {device}
//   /lofi/device {width?,height?,openinpresentation?,devicewidth?}   → {device}
//   /lofi/create {id,class,x?,y?,args?,text?,maxclass?,box?,patcher?} → {id}
//   /lofi/remove {id}                            also removes wires  → {id}
//   /lofi/wire, /lofi/unwire {sourceId,outlet,destId,inlet}
//   /lofi/ui {layers:[{name,class,x,y,width,height,args?,attrs?,text?,maxclass?,box?,patcher?}]}
//                                                                    all or nothing → {created}
//   /lofi/inject {targetId,filePath (absolute)}                      → {targetId,file}
//   /lofi/map {parameter,objectId,property?,shortname?}  /lofi/unmap {parameter} → {parameter}
//   /lofi/set {id,attrs:{…}} or {id,attr,value} or {id,attr,unset:true}
//   /lofi/move {id,x,y}                                              → {id}
//   Any payload may say "undo": true (an undo or a compensation); it changes nothing here.
//   /lofi/ping {}                                → {pong:true,device,objects}
// Errors: unknown address, missing device, unknown or duplicate ids, an outlet or inlet the
// class (or a subpatcher's contents) does not have, or outside 0..63, wiring twice, unwiring what
// is not wired.
class SimulatorModel {
 public:
  // The reply without requestId: {"status":"ok",…} or {"status":"error","message":…}.
  boost::json::object handle(std::string_view address, const boost::json::object& payload);

  const std::optional<std::string>& device() const { return device_; }
  const std::map<std::string, SimObject>& objects() const { return objects_; }
  const std::set<SimWire>& wires() const { return wires_; }
  const std::map<std::string, SimMapping>& mappings() const { return mappings_; }
  // The device settings /lofi/init and /lofi/device gave (width, height, openinpresentation,
  // devicewidth).
  const boost::json::object& settings() const { return settings_; }

 private:
  using Handler = core::Result<boost::json::object> (SimulatorModel::*)(const boost::json::object&);
  static const std::map<std::string, Handler, std::less<>>& handlers();

  core::Result<boost::json::object> init(const boost::json::object& payload);
  core::Result<boost::json::object> create(const boost::json::object& payload);
  core::Result<boost::json::object> remove(const boost::json::object& payload);
  core::Result<boost::json::object> wire(const boost::json::object& payload);
  core::Result<boost::json::object> unwire(const boost::json::object& payload);
  core::Result<boost::json::object> ui(const boost::json::object& payload);
  core::Result<boost::json::object> inject(const boost::json::object& payload);
  core::Result<boost::json::object> map(const boost::json::object& payload);
  core::Result<boost::json::object> unmap(const boost::json::object& payload);
  core::Result<boost::json::object> set(const boost::json::object& payload);
  core::Result<boost::json::object> move(const boost::json::object& payload);
  core::Result<boost::json::object> ping(const boost::json::object& payload);
  core::Result<boost::json::object> device(const boost::json::object& payload);

  core::Result<SimWire> read_wire(const boost::json::object& payload) const;
  core::Result<SimObject*> find(const boost::json::object& payload, std::string_view key);

  std::optional<std::string> device_;
  std::map<std::string, SimObject> objects_;
  std::set<SimWire> wires_;
  std::map<std::string, SimMapping> mappings_;
  boost::json::object settings_;
};

}  // namespace fcp::lofi::bridge

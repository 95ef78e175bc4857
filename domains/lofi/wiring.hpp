// Which ports an object has and which wires Max accepts between them: the counts a box was
// opened with (subpatchers, abstractions, classes the object table lacks), else the table's;
// signal outlets only into inlets that take signals; tapin~ only into tapout~.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "domains/lofi/device.hpp"
#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi {

struct ObjectPorts {
  maxpat::Ports ports;  // counts and one outlet type per outlet
  // False when the counts cannot be told (a class the table lacks or a script that sets its
  // own ports, made by the tools rather than opened from a file): wires to it are not checked.
  bool known = false;
  bool from_file = false;  // the counts are the box's own numinlets/numoutlets
};

// The ports `object` has in `device`: its box's saved counts and outlet types while it is still
// the box it was opened from, else the object table's for its class and args (a new p has the
// ports of its empty subpatcher: none).
ObjectPorts ports_of(const Device& device, const MaxObject& object);

// Whether Max takes the wire from `source` outlet `outlet` to `destination` inlet `inlet`:
// both ports exist, a signal goes only into an inlet that takes signals, a tapin~'s delay line
// only into a tapout~ (its left inlet). The error says why and offers the op that starts what
// was meant (the destination made its class's signal version, or a snapshot~ or tapout~ to put
// between, with the wires that follow in the message); `op` is the op that asked for the wire
// (the fix of a tapout~ inlet is `op` with in:0; "" offers none).
core::Result<void> check_wire(const Device& device, const MaxObject& source, int outlet,
                              const MaxObject& destination, int inlet, std::string_view op);

// "ports set by its script" / "ports not known": what a reply says when ports_of cannot tell.
std::string unknown_ports_text(std::string_view cls);

// An id not yet used in `device`: `base`, else `base_2`, `base_3` …
std::string unused_id(const Device& device, const std::string& base);

// For `add`, `ui` and `modify class:`: a class the object table lacks and that is close to
// one it has ("cylce~", "live.panel") or to an abstraction the device uses ("MyAbstractoin") is
// refused, with `op` naming the closest instead as the hint. Classes the device already uses
// and `external` ones are taken as they are.
core::Result<void> check_class(const Device& device, const std::string& cls, bool external,
                               std::string_view op);

// An object given another class or args (`modify class: args:`, `original` → `object`) must
// still fit its place: a class Max has (check_class, with `external` and `op`), attributes and a
// Live parameter the new class takes, and wires Max accepts with its new ports (a wire that
// would break is named, with the op that removes it).
core::Result<void> check_new_identity(const Device& device, const MaxObject& original,
                                      const MaxObject& object, bool external, std::string_view op);

}  // namespace fcp::lofi

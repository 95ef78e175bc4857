// What a message that makes an object in Max (/lofi/create, a /lofi/ui layer) carries about
// the box the object was opened from, so that Max makes it as the file saved it.
#pragma once

#include <boost/json/object.hpp>

#include "domains/lofi/device.hpp"

namespace fcp::lofi {

// Adds to `payload` what `object`'s box in the file says, while the object is still that box
// (nothing for new objects, whose payload says all):
//   "maxclass" the box's class ("newobj", "message", "live.dial"), so Max makes that box
//   "text"     the box text exactly as saved ("prepend set \"Recording Time:\"", "active $1")
//   "width", "height"  its patching size; a UI layer (whose size is its presentation_rect)
//              gets its saved patching_rect in its "attrs" instead
//   "box"      the box's attributes that no /lofi/set sends (the model keeps the table's
//              attributes and sends those itself): a bpatcher's name, a textedit's keymode,
//              parameter_enable, … with the values Max saved; values that are not atoms are
//              left out
//   "patcher"  for a box with an embedded patcher (p, bpatcher, gen~): its boxes, each
//              {maxclass, text?, attrs, patcher?} with the attrs saved (Live parameter
//              attributes from saved_attribute_attributes included), its lines as
//              [source index, outlet, destination index, inlet], and its classnamespace
//              ("dsp.gen" for gen code)
void add_saved_box(const Device& device, const MaxObject& object, boost::json::object& payload);

}  // namespace fcp::lofi

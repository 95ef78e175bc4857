// The patcher-level "parameters" dictionary Max and Live write for a device with Live
// parameters, and the device keys ("openrect") Max writes for a new device.
#pragma once

#include <boost/json/object.hpp>
#include <string_view>

#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi::maxpat {

// Brings patcher.json["parameters"] in line with the boxes: one "obj-N": [longname, shortname, 0]
// per top-level box that is a Live parameter (parameter_enable not 0 and a parameter_longname in
// its saved_attribute_attributes.valueof; the shortname is valueof's parameter_shortname, else
// the longname), keys sorted as Max sorts them. An entry whose longname still matches is kept as
// it was; entries of boxes inside subpatchers ("obj-1::obj-2") stay while their outer box does;
// "parameterbanks", "parameter_overrides" and "inherited_shortname" stay. A patcher without the
// dictionary gets one (with bank 0 holding the first eight parameters, as Live lists them, and
// "inherited_shortname": 1) only when it has parameters and `create` (a new device: an opened
// file Max saved without one, such as an abstraction, stays without); one whose last parameter
// went loses it.
void update_parameters(Patcher& patcher, bool create);

// Inserts `key` after the key `after` (at the end when `after` is absent), or replaces its value
// where it already is.
void insert_after(boost::json::object& object, std::string_view after, std::string_view key,
                  boost::json::value value);

}  // namespace fcp::lofi::maxpat

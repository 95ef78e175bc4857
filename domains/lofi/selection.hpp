// lofi's selectors for core's selector engine: the device's objects in z-order, typed by Max
// class (@type:CLS, also written @class:CLS), with @ui and @unwired. Verbs and queries both
// choose through select_objects.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/selector.hpp"
#include "domains/lofi/device.hpp"

namespace fcp::lofi {

const core::SelectorCatalog& selector_catalog();

// The objects selectors chose, in z-order.
struct ObjectSelection {
  std::vector<std::string> ids;
  std::string nothing_matched;  // set when ids is empty: what was asked and what exists
};

// Chooses objects of `device` with core's engine; `written` is the op or query as written.
core::Result<ObjectSelection> select_objects(const Device& device,
                                             std::span<const core::Selector> selectors,
                                             const core::EventLog& log, std::string_view written);

}  // namespace fcp::lofi

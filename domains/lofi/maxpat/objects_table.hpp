// The raw Max object table (objects_table.cpp); use objects() and find_object() instead.
#pragma once

#include <span>

#include "domains/lofi/maxpat/objects.hpp"

namespace fcp::lofi::maxpat::detail {

std::span<const ObjectInfo> object_table();

}  // namespace fcp::lofi::maxpat::detail

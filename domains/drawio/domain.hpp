// The drawio domain: draw.io diagrams through drawio, drawio_query, drawio_session and
// drawio_help.
#pragma once

#include <memory>

#include "core/domain.hpp"

namespace fcp::drawio {

std::unique_ptr<core::Domain> make_drawio_domain();

}  // namespace fcp::drawio

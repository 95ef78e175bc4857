// The list of domains fcpd hosts: the one place that names them.
#pragma once

#include <memory>
#include <vector>

#include "core/domain.hpp"
#include "daemon/daemon.hpp"

namespace fcp::domains {

std::vector<std::unique_ptr<core::Domain>> make_all(const daemon::DomainEnvironment& environment);

}  // namespace fcp::domains

#include "domains/registry.hpp"

namespace fcp::domains {

std::vector<std::unique_ptr<core::Domain>> make_all() {
  std::vector<std::unique_ptr<core::Domain>> domains;
  return domains;
}

}  // namespace fcp::domains

#include "domains/registry.hpp"

#include "domains/drawio/domain.hpp"
#include "domains/midi/domain.hpp"

namespace fcp::domains {

std::vector<std::unique_ptr<core::Domain>> make_all(const daemon::DomainEnvironment& environment) {
  (void)environment;  // the lofi domain will use it
  std::vector<std::unique_ptr<core::Domain>> domains;
  domains.push_back(drawio::make_drawio_domain());
  domains.push_back(midi::make_midi_domain());
  return domains;
}

}  // namespace fcp::domains

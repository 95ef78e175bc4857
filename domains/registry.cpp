#include "domains/registry.hpp"

#include "domains/drawio/domain.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/midi/domain.hpp"

namespace fcp::domains {

std::vector<std::unique_ptr<core::Domain>> make_all(const daemon::DomainEnvironment& environment) {
  std::vector<std::unique_ptr<core::Domain>> domains;
  domains.push_back(drawio::make_drawio_domain());
  domains.push_back(midi::make_midi_domain());
  static const boost::json::object no_settings;
  const auto* lofi = environment.settings.if_contains("lofi");
  domains.push_back(lofi::make_lofi_domain(
      environment.io, lofi != nullptr && lofi->is_object() ? lofi->as_object() : no_settings));
  return domains;
}

}  // namespace fcp::domains

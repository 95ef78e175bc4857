// fcpd_testing: fcpd hosting only the test domain "deck", for end-to-end tests of the engine,
// the MCP layer and the transports before (and independently of) the real domains.
#include "daemon/daemon.hpp"
#include "tests/support/test_domain.hpp"

int main(int argc, char** argv) {
  std::vector<std::unique_ptr<fcp::core::Domain>> domains;
  domains.push_back(fcp::testing::make_deck_domain());
  return fcp::daemon::run(argc, argv, std::move(domains));
}

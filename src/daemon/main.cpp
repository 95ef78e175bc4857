// fcpd: the FCP daemon hosting every domain's four MCP tools over stdio, TCP and HTTP.
// `fcpd simulate-max …` runs the Max stand-in of the lofi domain instead (see max/README.md).
#include <string_view>

#include "daemon/daemon.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "domains/registry.hpp"

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "simulate-max")
    return fcp::lofi::bridge::run_simulator_command(argc - 1, argv + 1);
  return fcp::daemon::run(argc, argv, [](const fcp::daemon::DomainEnvironment& environment) {
    return fcp::domains::make_all(environment);
  });
}

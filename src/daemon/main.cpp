// fcpd: the FCP daemon hosting every domain's four MCP tools over stdio, TCP and HTTP.
#include "daemon/daemon.hpp"
#include "domains/registry.hpp"

int main(int argc, char** argv) {
  return fcp::daemon::run(argc, argv, [](const fcp::daemon::DomainEnvironment& environment) {
    return fcp::domains::make_all(environment);
  });
}

// fcp: the command-line client of fcpd (see `fcp --help`).
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  // A daemon that dies mid-write must surface as EPIPE and a clear message, not kill fcp.
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<std::string> args(argv + 1, argv + argc);
  return fcp::cli::run_cli(args, std::cin, std::cout, std::cerr);
}

// Runs the fcp program in-process (run_cli) and captures its output, for end-to-end tests.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "cli/app.hpp"

namespace fcp::cli::testing_support {

struct Outcome {
  int status = -1;
  std::string out;
  std::string err;
};

inline Outcome run_fcp(const std::vector<std::string>& args, const std::string& input = "") {
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  int status = run_cli(args, in, out, err);
  return Outcome{status, out.str(), err.str()};
}

}  // namespace fcp::cli::testing_support

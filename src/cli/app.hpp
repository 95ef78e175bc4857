// The fcp program as a function: arguments in, output and exit status out (main() is a shim,
// tests call this directly).
#pragma once

#include <iosfwd>
#include <span>
#include <string>

namespace fcp::cli {

// Runs one fcp invocation. `args` excludes the program name; `in` feeds `fcp run -`.
// Returns the exit status (see exit_status in errors.hpp). Never throws.
int run_cli(std::span<const std::string> args, std::istream& in, std::ostream& out,
            std::ostream& err);

}  // namespace fcp::cli

// Shared names of bench_roundtrip: namespaces, the clock and the one error type.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace boost::asio {}
namespace boost::beast {}
namespace boost::json {}

namespace fcp::bench {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace json = boost::json;
using Clock = std::chrono::steady_clock;

// Anything that makes a measurement invalid: the benchmark reports it and exits non-zero.
class BenchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace fcp::bench

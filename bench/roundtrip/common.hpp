// Shared names of bench_roundtrip: namespaces, the clock and the one error type.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>

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

// `text`, cut to a length that fits in an error message.
inline std::string clip(std::string_view text) {
  constexpr std::size_t kShown = 400;
  if (text.size() <= kShown) return std::string(text);
  return std::string(text.substr(0, kShown)) + "... (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace fcp::bench

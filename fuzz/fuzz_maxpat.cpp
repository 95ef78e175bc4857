// libFuzzer target: the Max patcher readers (lofi::maxpat::read_maxpat for .maxpat JSON,
// read_amxd for Max for Live devices, told apart by the "ampf" magic as lofi's read_device does).
// For a file they accept, the writer's output must read back and be a fixed point.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "domains/lofi/maxpat/amxd.hpp"
#include "domains/lofi/maxpat/patcher.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

namespace maxpat = fcp::lofi::maxpat;

using fcp::fuzz::check;
using fcp::fuzz::check_fixed_point;

void amxd(std::string_view input) {
  auto file = maxpat::read_amxd(input);
  if (!file) return;
  const std::string written = maxpat::write_amxd(*file);
  auto again = maxpat::read_amxd(written);
  check(again.has_value(), "the writer wrote a device its own reader refuses");
  check_fixed_point(written, maxpat::write_amxd(*again));
}

void patcher(std::string_view input) {
  auto file = maxpat::read_maxpat(input);
  if (!file) return;
  const std::string written = maxpat::write_maxpat(*file);
  auto again = maxpat::read_maxpat(written);
  check(again.has_value(), "the writer wrote a patcher its own reader refuses");
  check_fixed_point(written, maxpat::write_maxpat(*again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (input.starts_with("ampf"))
    amxd(input);
  else
    patcher(input);
  return 0;
}

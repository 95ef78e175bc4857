// libFuzzer target: the Standard MIDI File reader (midi::smf::read_smf, RMID included). For a
// file it accepts, the writer's output must read back and be a fixed point: write(read(w)) == w.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "domains/midi/smf/smf.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace smf = fcp::midi::smf;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto file = smf::read_smf(input);
  if (!file) return 0;
  const std::string written = smf::write_smf(*file);
  auto again = smf::read_smf(written);
  fcp::fuzz::check(again.has_value(), "the writer wrote a file its own reader refuses");
  fcp::fuzz::check_fixed_point(written, smf::write_smf(*again));
  return 0;
}

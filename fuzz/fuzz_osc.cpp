// libFuzzer target: the OSC decoder the lofi bridge reads Max's UDP datagrams with
// (lofi::bridge::decode_osc). Every message it returns must encode again (AddressRule::any, as
// the daemon's replies use) and decode back to itself.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "domains/lofi/bridge/osc.hpp"
#include "fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace bridge = fcp::lofi::bridge;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  auto messages = bridge::decode_osc(input);
  if (!messages) return 0;
  for (const auto& message : *messages) {
    const std::string described = bridge::describe(message);
    auto packet = bridge::encode_osc(message, bridge::AddressRule::any);
    if (!packet) continue;  // e.g. a bundle's messages together can exceed one datagram
    auto again = bridge::decode_osc(*packet);
    // NaN floats compare unequal: compare what describe() prints.
    fcp::fuzz::check(again && again->size() == 1 && bridge::describe(again->front()) == described,
                     "a decoded message does not encode and decode back to itself");
  }
  return 0;
}

#include "mcp/random_id.hpp"

#include <sys/random.h>

#include <cerrno>
#include <random>
#include <vector>

namespace fcp::mcp {

std::string random_hex(std::size_t bytes_wanted) {
  std::vector<unsigned char> bytes(bytes_wanted);
  std::size_t filled = 0;
  while (filled < bytes.size()) {
    const auto n = ::getrandom(bytes.data() + filled, bytes.size() - filled, 0);
    if (n > 0) {
      filled += static_cast<std::size_t>(n);
    } else if (n < 0 && errno != EINTR) {
      break;  // no getrandom (very old kernel): fall back below
    }
  }
  if (filled < bytes.size()) {
    std::random_device device;  // libstdc++ reads the kernel CSPRNG here as well
    for (auto& byte : bytes)
      byte = static_cast<unsigned char>(device());
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes_wanted * 2);
  for (auto byte : bytes) {
    text.push_back(kHex[byte >> 4]);
    text.push_back(kHex[byte & 0xf]);
  }
  return text;
}

}  // namespace fcp::mcp

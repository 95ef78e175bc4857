// Unguessable identifiers (document handles, HTTP session ids) from the kernel's CSPRNG.
#pragma once

#include <cstddef>
#include <string>

namespace fcp::mcp {

// `bytes` random bytes as 2 × `bytes` lowercase hex digits (getrandom; std::random_device,
// which reads the same CSPRNG, where the kernel has no getrandom).
std::string random_hex(std::size_t bytes);

}  // namespace fcp::mcp

// Inlet and outlet counts of a few common Max objects, for the simulator's wire checks.
// (The full object table belongs to domains/lofi/maxpat; the simulator only needs enough to
// refuse an obviously bad inlet or outlet. Classes not listed accept 0..kMaxPortIndex.)
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace fcp::lofi::bridge {

struct MaxPorts {
  std::string_view max_class;
  int inlets = 0;
  int outlets = 0;
};

constexpr int kMaxPortIndex = 63;

inline constexpr std::array kMaxPorts{
    MaxPorts{"button", 1, 1},    MaxPorts{"comment", 1, 0},     MaxPorts{"cycle~", 2, 1},
    MaxPorts{"dac~", 2, 0},      MaxPorts{"ezdac~", 2, 0},      MaxPorts{"flonum", 1, 2},
    MaxPorts{"live.dial", 1, 2}, MaxPorts{"live.slider", 1, 2}, MaxPorts{"loadbang", 1, 1},
    MaxPorts{"message", 2, 1},   MaxPorts{"metro", 2, 1},       MaxPorts{"noise~", 1, 1},
    MaxPorts{"number", 1, 2},    MaxPorts{"phasor~", 2, 1},     MaxPorts{"toggle", 1, 1},
    MaxPorts{"*~", 2, 1},        MaxPorts{"+~", 2, 1},
};

inline std::optional<MaxPorts> find_max_ports(std::string_view max_class) {
  for (const auto& ports : kMaxPorts) {
    if (ports.max_class == max_class) return ports;
  }
  return std::nullopt;
}

}  // namespace fcp::lofi::bridge

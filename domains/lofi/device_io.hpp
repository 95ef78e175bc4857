// Device ⇄ Max files: .maxpat (patcher JSON) and .amxd (the Max for Live container).
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/lofi/device.hpp"

namespace fcp::lofi {

// A device from a .maxpat or .amxd file (told apart by content). Every box becomes an object
// (its id is the box's varname when it has a unique one, else the box id); every patch line
// between two boxes a wire. The file stays attached, so saving keeps what the model ignores.
core::Result<Device> read_device(std::string_view bytes, std::string_view name);
// The file for `path`: a device opened from an .amxd container (whatever `path` is named) or
// saved to an .amxd → a Max for Live device; anything else → .maxpat.
core::Result<std::string> write_device(const Device& device, const std::filesystem::path& path);
// The patcher window (the size in "rect") the device is saved with: an opened file's own (or
// the size of a resize); a new device's, the size asked for grown to hold every box in both
// views with a margin (40 px right, 80 px below).
std::array<double, 2> saved_window(const Device& device);
// The device's settings as its saved patcher holds them: "openinpresentation", "devicewidth"
// and "rect" (the window), as text ("1", "600", "100 100 600 170").
std::map<std::string, std::string> saved_device_fields(const Device& device);
// True for classes in the Max object table (and UI classes).
bool known_class(std::string_view cls);

}  // namespace fcp::lofi

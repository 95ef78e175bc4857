// Exports through the draw.io desktop binary, when one is installed (pixel-exact output).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::drawio::render {

// The draw.io desktop binary: $DRAWIO_PATH if set and executable, else `drawio` / `draw.io` on
// PATH, else the usual install paths (/usr/bin/drawio, /snap/bin/drawio, /opt/drawio/drawio,
// /usr/local/bin/drawio). nullopt when absent. Reads the environment on every call.
std::optional<std::filesystem::path> find_drawio_cli();

enum class ImageFormat { svg, png, pdf };

// Runs `drawio --export --format F [--width W] [--height H] --crop --border 10 --page-index N
// --output OUT IN` on a temporary copy of `mxfile_xml` and returns the bytes of OUT.
// `page_index` is 0-based (the model's page order) and passed to draw.io 1-based; width and
// height are omitted when 0. The child is started with posix_spawn (no shell) in its own process
// group, stdin from /dev/null, stdout and stderr captured to a temporary file; after
// `timeout_seconds` (clamped to 1..600) the whole group gets SIGKILL. Running as root adds
// --no-sandbox (Electron refuses to start as root without it). Temporary files are removed.
// Errors carry the tail of the tool's output.
// Thread: blocks the caller until the tool exits; run it on a worker, not on a session strand.
core::Result<std::string> export_with_drawio_cli(const std::filesystem::path& cli,
                                                 std::string_view mxfile_xml, ImageFormat format,
                                                 int page_index, int width, int height,
                                                 int timeout_seconds = 30);

}  // namespace fcp::drawio::render

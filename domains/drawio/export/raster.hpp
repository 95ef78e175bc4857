// Rasterizes SVG documents to PNG or PDF with librsvg and cairo.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::drawio::render {

// Largest raster edge, in px.
inline constexpr int kMaxRasterSide = 8192;

// Rasterize an SVG document with librsvg + cairo. width/height in px: 0 = from the SVG's size
// (keeping aspect when one is 0; both given: the drawing is fitted inside, centred). The SVG
// may not load external files (librsvg refuses without a base URL). Errors: unreadable SVG, a
// size over kMaxRasterSide per side, negative sizes.
// Thread: every call owns its librsvg handle and cairo surface; safe to call concurrently.
core::Result<std::string> svg_to_png(std::string_view svg, int width = 0, int height = 0);
// The SVG at `scale` times its own size, scaled down further (keeping aspect) when a side
// would be over `max_side` px, so a large drawing still gives a picture instead of the "image
// too large" error. A scale that is not finite and positive counts as 1.
core::Result<std::string> svg_to_png_within(std::string_view svg, double scale = 1,
                                            int max_side = kMaxRasterSide);
// The same as a one-page PDF; the page is the size in px at 96 dpi (1 px = 0.75 pt).
core::Result<std::string> svg_to_pdf(std::string_view svg, int width = 0, int height = 0);

}  // namespace fcp::drawio::render

// The draw.io diagram a .drawio.png carries in a PNG text chunk: found, decoded and embedded
// with libpng.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/drawio/io/codec.hpp"

namespace fcp::drawio {

// True when `bytes` starts with the 8-byte PNG signature.
bool is_png(std::string_view bytes);

// Bounds on what reading one PNG may cost. Exceeding one is an error, never a crash.
struct PngLimits {
  std::size_t max_chunk_bytes = std::size_t{128} << 20;  // one ancillary chunk as stored
  std::uint32_t max_side = 1u << 16;                     // px, width and height
  std::uint64_t max_pixels = std::uint64_t{1} << 28;     // width × height
};

// The diagram text of a PNG, decoded (inflated, URI escapes undone) but not parsed.
struct PngDiagramText {
  std::string text;   // "<mxfile …" or "<mxGraphModel …" (unless the file is broken)
  std::string chunk;  // where it was, for messages: `tEXt "mxfile"`
};

// Reads `png` with libpng — every chunk's CRC checked, the image data decoded row by row
// (one row in memory), so a damaged or truncated file is refused — and returns the first
// diagram chunk: tEXt or iTXt with keyword "mxfile" or "mxGraphModel" holding
// encodeURIComponent(xml) (what draw.io writes; twice-encoded text and plain XML too), or
// zTXt "mxGraphModel" holding raw DEFLATE (or zlib) of URI-encoded XML with '+' for spaces
// (what older draw.io wrote). Chunks before the image data win over those after it (draw.io
// reads only the former). The budget is charged for inflated text.
// Errors: "not a PNG file", "damaged PNG: <libpng's reason>" (CRC error, truncated, chunk
// too large, …), the image over the limits, "no draw.io diagram in this PNG …" (naming the
// text chunks it has), a diagram chunk that cannot be decoded.
// Thread: pure function; every call owns its libpng state.
core::Result<PngDiagramText> read_png_diagram_text(std::string_view png, const PngLimits& limits,
                                                   InflateBudget& budget);

// `png` re-encoded by libpng with `xml` embedded the way draw.io writes .drawio.png files: a
// tEXt chunk with keyword "mxfile" holding encodeURIComponent(xml), before the image data.
// Pixels, palette, transparency, gamma, sRGB and resolution are kept; other ancillary chunks
// are not. Errors: `png` is not a readable PNG, or over the limits.
// Thread: pure function; every call owns its libpng state.
core::Result<std::string> embed_png_diagram_text(std::string_view png, std::string_view xml,
                                                 const PngLimits& limits = {});

}  // namespace fcp::drawio

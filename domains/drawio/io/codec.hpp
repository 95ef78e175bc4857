// The encodings of draw.io's compressed pages: base64, raw DEFLATE and URI component escaping.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::drawio {

using core::Result;

// Standard or URL-safe alphabet; whitespace is skipped and padding is optional.
Result<std::string> base64_decode(std::string_view text);
std::string base64_encode(std::string_view bytes);

// How much inflated output one file may produce in total. Each stream may also grow at most
// `max_ratio` times its compressed size beyond `free_bytes` (real pages compress ~5-30x;
// deflate bombs ~1000x).
struct InflateBudget {
  std::size_t remaining = std::size_t{256} << 20;
  std::size_t free_bytes = std::size_t{16} << 20;
  std::size_t max_ratio = 250;
};

// Inflates raw DEFLATE (what draw.io writes) or, failing that, a zlib- or gzip-wrapped stream.
// Errors for corrupt or truncated data and when the budget would be exceeded; the budget is
// charged for the output.
Result<std::string> inflate(std::string_view compressed, InflateBudget& budget);
// Raw DEFLATE (no header), as draw.io's pako.deflateRaw.
std::string deflate_raw(std::string_view bytes);

// decodeURIComponent, leniently: a `%` not followed by two hex digits stays as it is. The result
// may be invalid UTF-8; readers check text with find_invalid_xml_text.
std::string url_decode(std::string_view text);
// encodeURIComponent: everything except A-Z a-z 0-9 - _ . ! ~ * ' ( ) becomes %XX (UTF-8 bytes).
std::string url_encode(std::string_view text);

// The byte offset of the first invalid UTF-8 sequence or character XML 1.0 forbids (C0
// controls other than tab, LF and CR; U+FFFE, U+FFFF), or nullopt when the text is clean.
std::optional<std::size_t> find_invalid_xml_text(std::string_view text);

// The content of a <diagram> element that holds text instead of an <mxGraphModel> child:
// base64 → inflate → URI-decoding (draw.io's compressed format), or text that is already
// URI-encoded ("%3CmxGraphModel…") or plain XML. `compressed` says which it was.
struct DecodedPage {
  std::string xml;
  bool compressed = false;
};
Result<DecodedPage> decode_page_text(std::string_view text, InflateBudget& budget);
// The inverse of decode_page_text for the compressed format.
std::string encode_page_text(std::string_view xml);

}  // namespace fcp::drawio

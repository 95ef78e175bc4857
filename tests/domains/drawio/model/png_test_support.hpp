// An independent reader and writer of PNG chunks for the .drawio.png tests: the chunk layout
// of the PNG specification parsed with plain byte arithmetic and zlib's crc32, and URI escapes
// undone here — nothing from the code under test (which reads PNGs with libpng).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fcp::drawio::testing {

inline constexpr std::string_view kPngSignature("\x89PNG\r\n\x1a\n", 8);

struct PngChunk {
  std::string type;
  std::string data;
  bool crc_ok = false;
};

inline std::uint32_t crc_of(std::string_view type, std::string_view data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(type.data()), static_cast<uInt>(type.size()));
  crc = crc32(crc, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size()));
  return static_cast<std::uint32_t>(crc);
}

inline std::string be32(std::uint32_t value) {
  return {static_cast<char>(value >> 24), static_cast<char>(value >> 16),
          static_cast<char>(value >> 8), static_cast<char>(value)};
}

inline std::uint32_t read_be32(std::string_view bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

// The chunks of a PNG in file order; nullopt when the signature or the framing is broken.
inline std::optional<std::vector<PngChunk>> png_chunks(std::string_view png) {
  if (png.substr(0, 8) != kPngSignature) return std::nullopt;
  std::vector<PngChunk> chunks;
  std::size_t at = 8;
  while (at < png.size()) {
    if (png.size() - at < 12) return std::nullopt;
    const std::uint32_t length = read_be32(png, at);
    if (length > png.size() - at - 12) return std::nullopt;
    PngChunk chunk;
    chunk.type = std::string(png.substr(at + 4, 4));
    chunk.data = std::string(png.substr(at + 8, length));
    chunk.crc_ok = read_be32(png, at + 8 + length) == crc_of(chunk.type, chunk.data);
    chunks.push_back(std::move(chunk));
    at += 12 + std::size_t{length};
  }
  return chunks;
}

// One chunk as bytes: length, type, data, CRC.
inline std::string png_chunk(std::string_view type, std::string_view data) {
  return be32(static_cast<std::uint32_t>(data.size())) + std::string(type) + std::string(data) +
         be32(crc_of(type, data));
}

// A PNG from chunks (their CRCs recomputed).
inline std::string png_from(const std::vector<PngChunk>& chunks) {
  std::string out(kPngSignature);
  for (const PngChunk& chunk : chunks)
    out += png_chunk(chunk.type, chunk.data);
  return out;
}

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// decodeURIComponent; nullopt for a malformed escape (as JavaScript throws).
inline std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size() || hex_digit(text[i + 1]) < 0 || hex_digit(text[i + 2]) < 0)
      return std::nullopt;
    out += static_cast<char>(hex_digit(text[i + 1]) * 16 + hex_digit(text[i + 2]));
    i += 2;
  }
  return out;
}

// encodeURIComponent of UTF-8 text.
inline std::string percent_encode(std::string_view text) {
  static constexpr std::string_view kKeep =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()";
  static constexpr std::string_view kHex = "0123456789ABCDEF";
  std::string out;
  for (char c : text) {
    if (kKeep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

// What draw.io reads from a .drawio.png: the text of the first tEXt chunk "mxfile" before the
// first IDAT, URI-decoded. nullopt when there is none or the file's framing is broken.
inline std::optional<std::string> embedded_mxfile(std::string_view png) {
  auto chunks = png_chunks(png);
  if (!chunks) return std::nullopt;
  for (const PngChunk& chunk : *chunks) {
    if (chunk.type == "IDAT") break;
    if (chunk.type != "tEXt" || !chunk.crc_ok) continue;
    const std::string_view data(chunk.data);
    if (data.substr(0, 7) != std::string_view("mxfile\0", 7)) continue;
    return percent_decode(data.substr(7));
  }
  return std::nullopt;
}

// Raw DEFLATE (windowBits -15) or zlib (15) of `text`.
inline std::string deflate_text(std::string_view text, int window_bits) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, static_cast<uLong>(text.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

// Base64 (standard alphabet, padding optional) to bytes; nullopt for other characters.
inline std::optional<std::string> base64_bytes(std::string_view text) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') continue;
    const std::size_t value = kAlphabet.find(c);
    if (value == std::string_view::npos) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(value);
    if (++count % 4 == 0) {
      out += static_cast<char>(bits >> 16);
      out += static_cast<char>(bits >> 8);
      out += static_cast<char>(bits);
      bits = 0;
    }
  }
  if (count % 4 == 2) out += static_cast<char>(bits >> 4);
  if (count % 4 == 3) {
    out += static_cast<char>(bits >> 10);
    out += static_cast<char>(bits >> 2);
  }
  return out;
}

// Raw DEFLATE to bytes (at most 64 MiB); nullopt when corrupt.
inline std::optional<std::string> inflate_raw(std::string_view data) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return std::nullopt;
  std::string out(std::size_t{64} << 20, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int status = inflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  inflateEnd(&zs);
  if (status != Z_STREAM_END) return std::nullopt;
  return out;
}

// The <mxGraphModel> text of every page of an <mxfile>: inline, or draw.io's compressed form
// (base64 of raw DEFLATE of encodeURIComponent(xml)) decoded here. Pages are found by their
// <diagram …>…</diagram> text, which is enough for files this program wrote.
inline std::vector<std::string> page_models(std::string_view mxfile) {
  std::vector<std::string> pages;
  std::size_t at = 0;
  while ((at = mxfile.find("<diagram", at)) != std::string_view::npos) {
    const std::size_t open_end = mxfile.find('>', at);
    if (open_end == std::string_view::npos) break;
    if (mxfile[open_end - 1] == '/') {  // an empty page
      pages.emplace_back();
      at = open_end;
      continue;
    }
    const std::size_t close = mxfile.find("</diagram>", open_end);
    if (close == std::string_view::npos) break;
    const std::string_view body = mxfile.substr(open_end + 1, close - open_end - 1);
    std::string model(body);
    if (body.find('<') == std::string_view::npos && !body.empty()) {
      auto bytes = base64_bytes(body);
      auto inflated = bytes ? inflate_raw(*bytes) : std::nullopt;
      auto decoded = inflated ? percent_decode(*inflated) : std::nullopt;
      model = decoded.value_or("(undecodable page)");
    }
    pages.push_back(std::move(model));
    at = close;
  }
  return pages;
}

}  // namespace fcp::drawio::testing

#include "domains/drawio/io/codec.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

namespace fcp::drawio {
namespace {

using core::make_error;

constexpr std::string_view base64_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::uint8_t base64_skip = 0xFE;
constexpr std::uint8_t base64_bad = 0xFF;

constexpr std::array<std::uint8_t, 256> make_base64_table() {
  std::array<std::uint8_t, 256> table{};
  table.fill(base64_bad);
  for (std::size_t i = 0; i < base64_alphabet.size(); ++i) {
    table[static_cast<unsigned char>(base64_alphabet[i])] = static_cast<std::uint8_t>(i);
  }
  table['-'] = 62;  // URL-safe alphabet
  table['_'] = 63;
  for (char c : {' ', '\t', '\r', '\n'})
    table[static_cast<unsigned char>(c)] = base64_skip;
  return table;
}

constexpr std::array<std::uint8_t, 256> base64_table = make_base64_table();

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_uri_unreserved(unsigned char c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("-_.!~*'()").find(static_cast<char>(c)) != std::string_view::npos;
}

std::string_view trim(std::string_view text) {
  constexpr std::string_view space = " \t\r\n";
  const std::size_t first = text.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(space) - first + 1);
}

// The outcome of one inflate attempt: the text, or why there is none.
struct Inflated {
  enum class Status { ok, too_big, failed } status = Status::failed;
  std::string text;
  std::string message;
};

// One inflate attempt with the given zlib windowBits (-15 raw, 47 zlib or gzip).
Inflated inflate_with(std::string_view in, int window_bits, std::size_t limit) {
  Inflated result;
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) {
    result.message = "zlib initialisation failed";
    return result;
  }
  std::string& out = result.text;
  out.resize(std::min<std::size_t>(limit, std::max<std::size_t>(in.size() * 4, 4096)));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::size_t produced = 0;
  int status = Z_OK;
  while (status == Z_OK) {
    if (produced == out.size()) {
      if (out.size() >= limit) break;
      out.resize(std::min(limit, out.size() * 2));
    }
    const std::size_t room = std::min<std::size_t>(out.size() - produced, 1u << 30);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs.avail_out = static_cast<uInt>(room);
    status = ::inflate(&zs, Z_NO_FLUSH);
    produced += room - zs.avail_out;
  }
  result.message = zs.msg != nullptr ? zs.msg : "compressed data is corrupt";
  inflateEnd(&zs);
  out.resize(status == Z_STREAM_END ? produced : 0);
  if (status == Z_STREAM_END) result.status = Inflated::Status::ok;
  if (status == Z_OK) result.status = Inflated::Status::too_big;
  if (status == Z_BUF_ERROR) result.message = "compressed data is truncated";
  return result;
}

std::size_t inflate_limit(std::size_t compressed_size, const InflateBudget& budget) {
  const std::size_t by_ratio =
      compressed_size > std::numeric_limits<std::size_t>::max() / budget.max_ratio
          ? std::numeric_limits<std::size_t>::max()
          : compressed_size * budget.max_ratio;
  return std::min(budget.remaining, std::max(budget.free_bytes, by_ratio));
}

// The length of the well-formed, XML-allowed UTF-8 sequence of 2-4 bytes at `p`, or 0.
std::size_t utf8_sequence_length(const unsigned char* p, std::size_t available) {
  const unsigned char b = p[0];
  std::size_t length = 0;
  std::uint32_t cp = 0;
  if (b >= 0xC2 && b <= 0xDF) {
    length = 2;
    cp = b & 0x1Fu;
  } else if (b >= 0xE0 && b <= 0xEF) {
    length = 3;
    cp = b & 0x0Fu;
  } else if (b >= 0xF0 && b <= 0xF4) {
    length = 4;
    cp = b & 0x07u;
  } else {
    return 0;
  }
  if (available < length) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((p[k] & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (p[k] & 0x3Fu);
  }
  const bool overlong = (length == 3 && cp < 0x800) || (length == 4 && cp < 0x10000);
  const bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF || cp == 0xFFFE || cp == 0xFFFF) return 0;
  return length;
}

}  // namespace

Result<std::string> base64_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  std::uint32_t bits = 0;
  int count = 0;
  std::size_t i = 0;
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '=') break;
    const std::uint8_t v = base64_table[c];
    if (v == base64_skip) continue;
    if (v == base64_bad) {
      return make_error("invalid base64 character at offset " + std::to_string(i));
    }
    bits = (bits << 6) | v;
    if (++count == 4) {
      out.push_back(static_cast<char>((bits >> 16) & 0xFF));
      out.push_back(static_cast<char>((bits >> 8) & 0xFF));
      out.push_back(static_cast<char>(bits & 0xFF));
      bits = 0;
      count = 0;
    }
  }
  for (; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c != '=' && base64_table[c] != base64_skip) return make_error("invalid base64 padding");
  }
  if (count == 1) return make_error("truncated base64");
  if (count == 2) out.push_back(static_cast<char>((bits >> 4) & 0xFF));
  if (count == 3) {
    out.push_back(static_cast<char>((bits >> 10) & 0xFF));
    out.push_back(static_cast<char>((bits >> 2) & 0xFF));
  }
  return out;
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  auto byte = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[k]));
  };
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    for (int shift : {18, 12, 6, 0})
      out.push_back(base64_alphabet[(v >> shift) & 63]);
  }
  const std::size_t rest = bytes.size() - i;
  if (rest == 0) return out;
  const std::uint32_t v = (byte(i) << 16) | (rest == 2 ? byte(i + 1) << 8 : 0);
  out.push_back(base64_alphabet[(v >> 18) & 63]);
  out.push_back(base64_alphabet[(v >> 12) & 63]);
  out.push_back(rest == 2 ? base64_alphabet[(v >> 6) & 63] : '=');
  out.push_back('=');
  return out;
}

Result<std::string> inflate(std::string_view compressed, InflateBudget& budget) {
  if (compressed.size() > std::numeric_limits<uInt>::max()) {
    return make_error("compressed data is too large");
  }
  const std::size_t limit = inflate_limit(compressed.size(), budget);
  Inflated result = inflate_with(compressed, -15, limit);
  if (result.status == Inflated::Status::failed) {
    Inflated wrapped = inflate_with(compressed, 15 + 32, limit);
    if (wrapped.status != Inflated::Status::failed) result = std::move(wrapped);
  }
  if (result.status == Inflated::Status::too_big) {
    return make_error("compressed data inflates beyond " + std::to_string(limit >> 20) +
                      " MiB (a deflate bomb?)");
  }
  if (result.status == Inflated::Status::failed) return make_error(result.message);
  budget.remaining -= result.text.size();
  return std::move(result.text);
}

std::string deflate_raw(std::string_view bytes) {
  z_stream zs{};
  deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  ::deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string url_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 &&
        hex_value(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string url_encode(std::string_view text) {
  constexpr std::string_view hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size() * 3 / 2);
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_uri_unreserved(c)) {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

std::optional<std::size_t> find_invalid_xml_text(std::string_view text) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t size = text.size();
  std::size_t i = 0;
  while (i < size) {
    const unsigned char b = bytes[i];
    if (b >= 0x20 && b < 0x80) {
      ++i;
      continue;
    }
    if (b < 0x20) {
      if (b != '\t' && b != '\n' && b != '\r') return i;
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(bytes + i, size - i);
    if (length == 0) return i;
    i += length;
  }
  return std::nullopt;
}

Result<DecodedPage> decode_page_text(std::string_view text, InflateBudget& budget) {
  const std::string_view content = trim(text);
  if (!content.empty() && content.front() == '<') return DecodedPage{std::string(content), false};
  if (!content.empty() && content.front() == '%') return DecodedPage{url_decode(content), false};
  auto bytes = base64_decode(content);
  if (!bytes) return make_error("compressed page is not valid base64: " + bytes.error().message);
  auto inflated = inflate(*bytes, budget);
  if (!inflated)
    return make_error("compressed page cannot be inflated: " + inflated.error().message);
  if (!inflated->empty() && inflated->front() == '<')
    return DecodedPage{std::move(*inflated), true};
  return DecodedPage{url_decode(*inflated), true};
}

std::string encode_page_text(std::string_view xml) {
  return base64_encode(deflate_raw(url_encode(xml)));
}

}  // namespace fcp::drawio

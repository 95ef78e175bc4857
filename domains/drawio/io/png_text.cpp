#include "domains/drawio/io/png_text.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <vector>

namespace fcp::drawio {
namespace {

using core::make_error;

constexpr std::string_view kSignature("\x89PNG\r\n\x1a\n", 8);
constexpr std::size_t kMaxWarnings = 8;

// What libpng's callbacks reach through its io and error pointers; it lives in the frame of the
// public function, outside every setjmp.
struct PngChannel {
  std::string_view input;
  std::size_t position = 0;
  std::string* output = nullptr;
  std::vector<std::string> warnings;
  std::array<char, 256> error{};
};

// libpng reports errors through this callback, which must not return: it records the message
// and longjmps to the setjmp of the guarded step that called libpng (see below).
[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* channel = static_cast<PngChannel*>(png_get_error_ptr(png));
  std::snprintf(channel->error.data(), channel->error.size(), "%s",
                message != nullptr ? message : "unknown error");
  png_longjmp(png, 1);
}

// Also called for libpng's "benign" errors. One of them is not benign here: libpng only warns
// about a chunk longer than png_set_chunk_malloc_max and then allocates it anyway (up to 2 GiB
// for a forged length), so that one becomes an error.
void on_warning(png_structp png, png_const_charp message) {
  if (message == nullptr) return;
  if (std::strstr(message, "chunk data is too large") != nullptr) png_error(png, message);
  auto* channel = static_cast<PngChannel*>(png_get_error_ptr(png));
  if (channel->warnings.size() < kMaxWarnings) channel->warnings.emplace_back(message);
}

void read_input(png_structp png, png_bytep data, std::size_t length) {
  auto* channel = static_cast<PngChannel*>(png_get_io_ptr(png));
  if (length > channel->input.size() - channel->position)
    png_error(png, "the file ends early (truncated)");
  std::memcpy(data, channel->input.data() + channel->position, length);
  channel->position += length;
}

void write_output(png_structp png, png_bytep data, std::size_t length) {
  static_cast<PngChannel*>(png_get_io_ptr(png))
      ->output->append(reinterpret_cast<const char*>(data), length);
}

void flush_output(png_structp /*png*/) {}

// libpng's read state: the struct, the chunks before the image data (`info`) and after it (`end`).
class PngReader {
 public:
  explicit PngReader(PngChannel& channel)
      : png_(png_create_read_struct(PNG_LIBPNG_VER_STRING, &channel, on_error, on_warning)) {
    if (png_ == nullptr) return;
    info_ = png_create_info_struct(png_);
    end_ = png_create_info_struct(png_);
    png_set_read_fn(png_, &channel, read_input);
  }
  ~PngReader() { png_destroy_read_struct(&png_, &info_, &end_); }
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;

  bool ok() const { return png_ != nullptr && info_ != nullptr && end_ != nullptr; }
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }
  png_infop end() const { return end_; }

 private:
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
  png_infop end_ = nullptr;
};

class PngWriter {
 public:
  explicit PngWriter(PngChannel& channel)
      : png_(png_create_write_struct(PNG_LIBPNG_VER_STRING, &channel, on_error, on_warning)) {
    if (png_ == nullptr) return;
    info_ = png_create_info_struct(png_);
    png_set_write_fn(png_, &channel, write_output, flush_output);
  }
  ~PngWriter() { png_destroy_write_struct(&png_, &info_); }
  PngWriter(const PngWriter&) = delete;
  PngWriter& operator=(const PngWriter&) = delete;

  bool ok() const { return png_ != nullptr && info_ != nullptr; }
  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

 private:
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
};

// ---- guarded steps --------------------------------------------------------------------------
// Each step calls setjmp and then libpng; an error longjmps back into the step, which returns
// false. A longjmp must not skip a destructor, so these functions hold only trivially
// destructible locals and take everything else from their callers.

// Signature, IHDR and every chunk before the image data; the image size checked against the
// limits; `passes` and `row_bytes` for reading the rows.
bool read_header(png_structp png, png_infop info, const PngLimits& limits, int& passes,
                 std::size_t& row_bytes) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  // A CRC error in an ancillary chunk (the text chunks) is an error, not a silent discard.
  png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);
  png_set_chunk_malloc_max(png, limits.max_chunk_bytes);
  // zTXt comes raw: older draw.io compressed it with raw DEFLATE, which libpng's zlib reader
  // refuses; the caller inflates it with either wrapping.
  static constexpr std::array<png_byte, 5> kZtxt{'z', 'T', 'X', 't', '\0'};
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, kZtxt.data(), 1);
  png_read_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (width > limits.max_side || height > limits.max_side ||
      std::uint64_t{width} * height > limits.max_pixels) {
    std::array<char, 160> message{};
    std::snprintf(message.data(), message.size(),
                  "the image is %u x %u px, over the limit of %u px per side and %llu pixels",
                  static_cast<unsigned>(width), static_cast<unsigned>(height),
                  static_cast<unsigned>(limits.max_side),
                  static_cast<unsigned long long>(limits.max_pixels));
    png_error(png, message.data());
  }
  passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  row_bytes = png_get_rowbytes(png, info);
  return true;
}

// Every row, decoded into the one `row` buffer, then the chunks after the image data.
bool read_rows(png_structp png, png_infop info, png_infop end, png_bytep row, int passes) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  const png_uint_32 height = png_get_image_height(png, info);
  for (int pass = 0; pass < passes; ++pass) {
    for (png_uint_32 y = 0; y < height; ++y)
      png_read_row(png, row, nullptr);
  }
  png_read_end(png, end);
  return true;
}

// The whole image into `rows`, then the chunks after it.
bool read_image(png_structp png, png_infop end, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_read_image(png, rows);
  png_read_end(png, end);
  return true;
}

// The picture of `source` with one tEXt chunk (`key`, `text`) before the image data.
bool write_image(png_structp png, png_infop info, png_structp source, png_infop source_info,
                 png_bytepp rows, png_textp text) {
  if (setjmp(png_jmpbuf(png)) != 0) return false;
  png_uint_32 width = 0, height = 0;
  int depth = 0, color = 0, interlace = 0, compression = 0, filter = 0;
  png_get_IHDR(source, source_info, &width, &height, &depth, &color, &interlace, &compression,
               &filter);
  // The rows were read de-interlaced, so they are written without interlacing.
  png_set_IHDR(png, info, width, height, depth, color, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_colorp palette = nullptr;
  int colors = 0;
  if (png_get_PLTE(source, source_info, &palette, &colors) != 0)
    png_set_PLTE(png, info, palette, colors);
  png_bytep alpha = nullptr;
  int alphas = 0;
  png_color_16p transparent = nullptr;
  if (png_get_tRNS(source, source_info, &alpha, &alphas, &transparent) != 0)
    png_set_tRNS(png, info, alpha, alphas, transparent);
  png_fixed_point gamma = 0;
  if (png_get_gAMA_fixed(source, source_info, &gamma) != 0) png_set_gAMA_fixed(png, info, gamma);
  int intent = 0;
  if (png_get_sRGB(source, source_info, &intent) != 0) png_set_sRGB(png, info, intent);
  png_uint_32 x_resolution = 0, y_resolution = 0;
  int unit = 0;
  if (png_get_pHYs(source, source_info, &x_resolution, &y_resolution, &unit) != 0)
    png_set_pHYs(png, info, x_resolution, y_resolution, unit);
  png_set_text(png, info, text, 1);
  png_write_info(png, info);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

// ---- finding the diagram --------------------------------------------------------------------

// One text chunk as stored: for zTXt `data` is the compressed text after the method byte.
struct TextChunk {
  std::string type;  // tEXt, iTXt or zTXt
  std::string keyword;
  std::string data;
  bool after_image = false;
  int method = 0;  // zTXt compression method (0 is the only one PNG defines)
};

std::string describe(const TextChunk& chunk) {
  return chunk.type + " \"" + chunk.keyword + "\"";
}

void collect_chunks(png_structp png, png_infop info, bool after_image,
                    std::vector<TextChunk>& out) {
  png_textp texts = nullptr;
  const int count = png_get_text(png, info, &texts, nullptr);
  for (int i = 0; i < count; ++i) {
    const png_text& text = texts[i];
    TextChunk chunk;
    const bool international = text.compression >= PNG_ITXT_COMPRESSION_NONE;
    chunk.type = international ? "iTXt" : "tEXt";
    chunk.keyword = text.key != nullptr ? text.key : "";
    const std::size_t length = international ? text.itxt_length : text.text_length;
    if (text.text != nullptr) chunk.data.assign(text.text, length);
    chunk.after_image = after_image;
    out.push_back(std::move(chunk));
  }
  png_unknown_chunkp unknowns = nullptr;
  const int unknown_count = png_get_unknown_chunks(png, info, &unknowns);
  for (int i = 0; i < unknown_count; ++i) {
    const png_unknown_chunk& unknown = unknowns[i];
    if (std::memcmp(unknown.name, "zTXt", 4) != 0) continue;
    const std::string_view data(reinterpret_cast<const char*>(unknown.data), unknown.size);
    const std::size_t nul = data.find('\0');
    TextChunk chunk;
    chunk.type = "zTXt";
    chunk.keyword = std::string(data.substr(0, nul));
    if (nul != std::string_view::npos && nul + 1 < data.size()) {
      chunk.method = static_cast<unsigned char>(data[nul + 1]);
      chunk.data = std::string(data.substr(nul + 2));
    }
    chunk.after_image = after_image;
    out.push_back(std::move(chunk));
  }
}

bool is_diagram_keyword(std::string_view keyword) {
  return keyword == "mxfile" || keyword == "mxGraphModel";
}

// The text of a diagram chunk: inflated (zTXt), then URI-decoded when it starts with '%' (twice
// for text encoded twice, as draw.io also accepts). Java's URL encoder, which wrote the old zTXt
// chunks, wrote '+' for spaces.
core::Result<std::string> decode_chunk(const TextChunk& chunk, InflateBudget& budget) {
  std::string text;
  if (chunk.type == "zTXt") {
    if (chunk.method != 0) {
      return make_error("the " + describe(chunk) + " chunk uses unknown compression method " +
                        std::to_string(chunk.method));
    }
    auto inflated = inflate(chunk.data, budget);
    if (!inflated) {
      return make_error("the " + describe(chunk) +
                        " chunk cannot be inflated: " + inflated.error().message);
    }
    text = std::move(*inflated);
    if (!text.empty() && text.front() == '%') std::replace(text.begin(), text.end(), '+', ' ');
  } else {
    text = chunk.data;
  }
  for (int round = 0; round < 2 && !text.empty() && text.front() == '%'; ++round)
    text = url_decode(text);
  return text;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const std::string& part : parts)
    out += (out.empty() ? "" : std::string(separator)) + part;
  return out;
}

core::Error damaged(const PngChannel& channel) {
  std::string message = "damaged PNG: " + std::string(channel.error.data());
  if (!channel.warnings.empty()) message += " (" + join(channel.warnings, "; ") + ")";
  return make_error(std::move(message));
}

core::Error no_diagram(const std::vector<TextChunk>& chunks, const PngChannel& channel) {
  std::vector<std::string> names;
  for (const TextChunk& chunk : chunks)
    names.push_back(describe(chunk));
  std::string message =
      "not a draw.io file: this PNG holds no diagram (no text chunk \"mxfile\"; it has " +
      (names.empty() ? std::string("no text chunks") : "only " + join(names, ", ")) + ")";
  if (!channel.warnings.empty()) message += "; libpng: " + join(channel.warnings, "; ");
  message +=
      " — it is a plain picture; draw.io makes an editable .drawio.png when exporting PNG with "
      "\"Include a copy of my diagram\"";
  return make_error(std::move(message));
}

}  // namespace

bool is_png(std::string_view bytes) {
  return bytes.substr(0, kSignature.size()) == kSignature;
}

core::Result<PngDiagramText> read_png_diagram_text(std::string_view png, const PngLimits& limits,
                                                   InflateBudget& budget) {
  if (!is_png(png)) return make_error("not a PNG file (no PNG signature)");
  PngChannel channel;
  channel.input = png;
  const PngReader reader(channel);
  if (!reader.ok()) return make_error("cannot read the PNG: libpng could not be initialised");
  int passes = 1;
  std::size_t row_bytes = 0;
  if (!read_header(reader.png(), reader.info(), limits, passes, row_bytes)) return damaged(channel);
  std::vector<png_byte> row(std::max<std::size_t>(row_bytes, 1));
  if (!read_rows(reader.png(), reader.info(), reader.end(), row.data(), passes))
    return damaged(channel);

  std::vector<TextChunk> chunks;
  collect_chunks(reader.png(), reader.info(), false, chunks);
  collect_chunks(reader.png(), reader.end(), true, chunks);
  // Before the image data first (draw.io reads only those), tEXt/iTXt before zTXt.
  std::stable_sort(chunks.begin(), chunks.end(), [](const TextChunk& a, const TextChunk& b) {
    return a.after_image < b.after_image;
  });
  const auto found = std::find_if(chunks.begin(), chunks.end(), [](const TextChunk& chunk) {
    return is_diagram_keyword(chunk.keyword);
  });
  if (found == chunks.end()) return no_diagram(chunks, channel);
  auto text = decode_chunk(*found, budget);
  if (!text) return text.error();
  return PngDiagramText{std::move(*text), describe(*found)};
}

core::Result<std::string> embed_png_diagram_text(std::string_view png, std::string_view xml,
                                                 const PngLimits& limits) {
  if (!is_png(png)) return make_error("not a PNG file (no PNG signature)");
  PngChannel source;
  source.input = png;
  const PngReader reader(source);
  if (!reader.ok()) return make_error("cannot read the PNG: libpng could not be initialised");
  int passes = 1;
  std::size_t row_bytes = 0;
  if (!read_header(reader.png(), reader.info(), limits, passes, row_bytes)) return damaged(source);
  const png_uint_32 height = png_get_image_height(reader.png(), reader.info());
  std::vector<png_byte> pixels(row_bytes * height);
  std::vector<png_bytep> rows(height);
  for (png_uint_32 y = 0; y < height; ++y)
    rows[y] = pixels.data() + std::size_t{y} * row_bytes;
  if (!read_image(reader.png(), reader.end(), rows.data())) return damaged(source);

  std::string out;
  PngChannel target;
  target.output = &out;
  const PngWriter writer(target);
  if (!writer.ok()) return make_error("cannot write the PNG: libpng could not be initialised");
  std::string key = "mxfile";
  std::string encoded = url_encode(xml);
  png_text text{};
  text.compression = PNG_TEXT_COMPRESSION_NONE;
  text.key = key.data();
  text.text = encoded.data();
  text.text_length = encoded.size();
  if (!write_image(writer.png(), writer.info(), reader.png(), reader.info(), rows.data(), &text))
    return make_error("cannot write the PNG: " + std::string(target.error.data()));
  return out;
}

}  // namespace fcp::drawio

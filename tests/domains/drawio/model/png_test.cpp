// .drawio.png: the diagram found in every form draw.io wrote it, hostile PNGs refused with a
// clear error, and the text chunk embedded the way draw.io writes it (checked by the
// independent chunk reader of png_test_support.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "domains/drawio/io/png_text.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "drawio_test_support.hpp"
#include "png_test_support.hpp"

namespace fcp::drawio {
namespace {

using ::testing::HasSubstr;
using testing::PngChunk;
using ::testing::StartsWith;

const std::string kModel =
    "<mxGraphModel><root><mxCell id=\"0\"/><mxCell id=\"1\" parent=\"0\"/>"
    "<mxCell id=\"a\" value=\"A + B &amp; ü 50%\" vertex=\"1\" parent=\"1\">"
    "<mxGeometry x=\"10\" y=\"10\" width=\"80\" height=\"40\" as=\"geometry\"/></mxCell>"
    "</root></mxGraphModel>";
const std::string kMxfile =
    "<mxfile host=\"test\"><diagram id=\"p\" name=\"Only page\">" + kModel + "</diagram></mxfile>";

std::string fixture_png() {
  return testing::fixture("embedded.drawio.png");
}

std::vector<PngChunk> fixture_chunks() {
  auto chunks = testing::png_chunks(fixture_png());
  EXPECT_TRUE(chunks.has_value());
  return chunks.value_or(std::vector<PngChunk>{});
}

PngChunk chunk(std::string type, std::string data) {
  return PngChunk{std::move(type), std::move(data), true};
}

// The fixture's picture with `before` between IHDR and the image data and `after` between the
// image data and IEND (the fixture's own text chunk left out).
std::string picture_with(const std::vector<PngChunk>& before,
                         const std::vector<PngChunk>& after = {}) {
  std::vector<PngChunk> out;
  const std::vector<PngChunk> original = fixture_chunks();
  out.push_back(original.front());
  out.insert(out.end(), before.begin(), before.end());
  for (const PngChunk& c : original) {
    if (c.type == "IDAT") out.push_back(c);
  }
  out.insert(out.end(), after.begin(), after.end());
  out.push_back(chunk("IEND", ""));
  return testing::png_from(out);
}

std::string keyed(std::string_view keyword, std::string_view text) {
  return std::string(keyword) + '\0' + std::string(text);
}

// Java's URLEncoder, which wrote the old zTXt chunks: '+' for a space.
std::string java_url_encode(std::string_view text) {
  std::string encoded = testing::percent_encode(text);
  std::string out;
  for (std::size_t i = 0; i < encoded.size(); ++i) {
    if (encoded.compare(i, 3, "%20") == 0) {
      out += '+';
      i += 2;
    } else {
      out += encoded[i];
    }
  }
  return out;
}

std::string label_of_a(const Diagram& diagram) {
  if (diagram.pages().empty()) return "(no pages)";
  const Cell* cell = diagram.pages().front().find("a");
  return cell != nullptr && cell->value ? *cell->value : "(no cell a)";
}

TEST(PngReadTest, ReadsTheFixtureWithBothPages) {
  const Diagram diagram = testing::read_ok(fixture_png());
  EXPECT_EQ(diagram.source_format(), SourceFormat::png);
  ASSERT_EQ(diagram.pages().size(), 2u);
  EXPECT_EQ(diagram.pages()[0].name(), "Flow");
  EXPECT_TRUE(diagram.pages()[0].was_compressed());
  EXPECT_EQ(diagram.pages()[1].name(), "Notes");
  EXPECT_FALSE(diagram.pages()[1].was_compressed());
  const Cell* db = diagram.pages()[0].find("db");
  ASSERT_NE(db, nullptr);
  EXPECT_EQ(db->value.value_or(""), "Grüße 100%");
  const Cell* edge = diagram.pages()[0].find("e1");
  ASSERT_NE(edge, nullptr);
  EXPECT_EQ(edge->value.value_or(""), "SQL + TLS");
  EXPECT_EQ(diagram.file_attributes().get("host").value_or(""), "fcp-fixture");
}

struct Variant {
  std::string name;
  std::vector<PngChunk> before;
  std::vector<PngChunk> after;
};

std::vector<Variant> variants() {
  const std::string encoded = testing::percent_encode(kMxfile);
  const std::string java = java_url_encode(kModel);
  return {
      {"tEXt mxfile, encodeURIComponent (draw.io)", {chunk("tEXt", keyed("mxfile", encoded))}, {}},
      {"tEXt mxfile, plain XML", {chunk("tEXt", keyed("mxfile", kMxfile))}, {}},
      {"tEXt mxfile, encoded twice",
       {chunk("tEXt", keyed("mxfile", testing::percent_encode(encoded)))},
       {}},
      {"tEXt mxGraphModel, a bare model",
       {chunk("tEXt", keyed("mxGraphModel", testing::percent_encode(kModel)))},
       {}},
      {"iTXt mxfile, uncompressed",
       {chunk("iTXt", keyed("mxfile", std::string("\0\0\0\0", 4) + encoded))},
       {}},
      {"iTXt mxfile, compressed",
       {chunk("iTXt",
              keyed("mxfile", std::string("\1\0\0\0", 4) + testing::deflate_text(encoded, 15)))},
       {}},
      {"zTXt mxGraphModel, raw DEFLATE of Java-encoded XML (old draw.io)",
       {chunk("zTXt",
              keyed("mxGraphModel", std::string(1, '\0') + testing::deflate_text(java, -15)))},
       {}},
      {"zTXt mxGraphModel, zlib as the PNG standard says",
       {chunk("zTXt",
              keyed("mxGraphModel", std::string(1, '\0') + testing::deflate_text(java, 15)))},
       {}},
      {"tEXt mxfile after the image data", {}, {chunk("tEXt", keyed("mxfile", encoded))}},
      {"other text chunks around it",
       {chunk("tEXt", keyed("Software", "draw.io")), chunk("tEXt", keyed("mxfile", encoded)),
        chunk("tEXt", keyed("Title", "x"))},
       {}},
  };
}

TEST(PngReadTest, FindsTheDiagramInEveryFormDrawioWroteIt) {
  for (const Variant& variant : variants()) {
    SCOPED_TRACE(variant.name);
    const Diagram diagram = testing::read_ok(picture_with(variant.before, variant.after));
    EXPECT_EQ(label_of_a(diagram), "A + B & ü 50%");
    EXPECT_EQ(diagram.source_format(), SourceFormat::png);
  }
}

TEST(PngReadTest, TheChunkBeforeTheImageWins) {
  const std::string other =
      "<mxfile><diagram id=\"q\" name=\"After\">" + kModel + "</diagram></mxfile>";
  const Diagram diagram = testing::read_ok(
      picture_with({chunk("tEXt", keyed("mxfile", testing::percent_encode(kMxfile)))},
                   {chunk("tEXt", keyed("mxfile", testing::percent_encode(other)))}));
  ASSERT_EQ(diagram.pages().size(), 1u);
  EXPECT_EQ(diagram.pages()[0].name(), "Only page");
}

// ---- hostile files ----------------------------------------------------------------------------

// The fixture's bytes with the chunk of `type` changed by `change` (CRC left as it was).
std::string corrupt(std::string png, std::string_view type,
                    const std::function<void(std::string&, std::size_t data_at)>& change) {
  std::size_t at = 8;
  while (at + 12 <= png.size()) {
    const std::uint32_t length = testing::read_be32(png, at);
    if (png.compare(at + 4, 4, type) == 0) {
      change(png, at + 8);
      return png;
    }
    at += 12 + std::size_t{length};
  }
  ADD_FAILURE() << "no " << type << " chunk";
  return png;
}

TEST(PngHostileTest, BadCrcsAreErrors) {
  const std::string text = corrupt(fixture_png(), "tEXt",
                                   [](std::string& png, std::size_t at) { png[at + 10] ^= 0x01; });
  EXPECT_EQ(testing::read_error(text), "damaged PNG: tEXt: CRC error");
  const std::string image_crc = corrupt(
      fixture_png(), "IDAT",
      [](std::string& png, std::size_t at) { png[at + testing::read_be32(png, at - 8)] ^= 0x01; });
  EXPECT_EQ(testing::read_error(image_crc), "damaged PNG: IDAT: CRC error");
  // zlib sees damaged image data before the chunk's CRC is checked.
  const std::string image = corrupt(fixture_png(), "IDAT",
                                    [](std::string& png, std::size_t at) { png[at + 20] ^= 0x01; });
  EXPECT_THAT(testing::read_error(image), StartsWith("damaged PNG: IDAT: "));
  const std::string header =
      corrupt(fixture_png(), "IHDR", [](std::string& png, std::size_t at) { png[at + 3] ^= 0x01; });
  EXPECT_EQ(testing::read_error(header), "damaged PNG: IHDR: CRC error");
}

TEST(PngHostileTest, EveryTruncationIsAnError) {
  const std::string png = fixture_png();
  for (std::size_t size = 8; size < png.size(); ++size) {
    auto diagram = read_drawio(std::string_view(png).substr(0, size));
    ASSERT_FALSE(diagram.has_value()) << size;
    EXPECT_THAT(diagram.error().message, StartsWith("damaged PNG: ")) << size;
  }
  EXPECT_THAT(testing::read_error(png.substr(0, 200)), HasSubstr("truncated"));
}

TEST(PngHostileTest, HugeChunkLengthsAreErrors) {
  for (const char* type : {"tEXt", "IDAT", "IHDR"}) {
    for (std::uint32_t length : {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x10000000u}) {
      SCOPED_TRACE(std::string(type) + " " + std::to_string(length));
      std::string png = fixture_png();
      png = corrupt(png, type, [&](std::string& bytes, std::size_t at) {
        bytes.replace(at - 8, 4, testing::be32(length));
      });
      const std::string error = testing::read_error(png);
      EXPECT_THAT(error, StartsWith("damaged PNG: "));
      // Refused at the chunk header, before libpng allocates the forged length.
      if (length < 0x80000000u && std::string_view(type) != "IHDR") {
        EXPECT_EQ(error, "damaged PNG: " + std::string(type) + ": chunk data is too large");
      }
    }
  }
}

TEST(PngHostileTest, APictureWithoutADiagramSaysSo) {
  const std::string plain = picture_with({chunk("tEXt", keyed("Software", "GIMP"))});
  const std::string error = testing::read_error(plain);
  EXPECT_THAT(error, StartsWith("not a draw.io file: this PNG holds no diagram (no text chunk "
                                "\"mxfile\"; it has only tEXt \"Software\")"));
  EXPECT_THAT(error, HasSubstr("Include a copy of my diagram"));
  EXPECT_THAT(testing::read_error(picture_with({})), HasSubstr("it has no text chunks"));
}

TEST(PngHostileTest, ImagesOverTheLimitsAreRefused) {
  const auto with_size = [](std::uint32_t width, std::uint32_t height) {
    std::vector<PngChunk> chunks = fixture_chunks();
    chunks.front().data.replace(0, 8, testing::be32(width) + testing::be32(height));
    return testing::png_from(chunks);
  };
  EXPECT_THAT(testing::read_error(with_size(60000, 60000)),
              HasSubstr("the image is 60000 x 60000 px, over the limit of 65536 px per side and "
                        "268435456 pixels"));
  EXPECT_THAT(testing::read_error(with_size(100000, 10)), HasSubstr("over the limit"));
  EXPECT_THAT(testing::read_error(with_size(3000000, 10)), StartsWith("damaged PNG: "));
  EXPECT_THAT(testing::read_error(with_size(0, 10)), StartsWith("damaged PNG: "));
  // The declared size is larger than the image data: the rows run out.
  EXPECT_THAT(testing::read_error(with_size(250, 1000)), StartsWith("damaged PNG: "));
}

TEST(PngHostileTest, ADeflateBombInZtxtStopsAtTheBudget) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
  const std::string zeros(std::size_t{1} << 20, '%');
  std::string bomb(std::size_t{1} << 20, '\0');
  zs.next_out = reinterpret_cast<Bytef*>(bomb.data());
  zs.avail_out = static_cast<uInt>(bomb.size());
  for (int i = 0; i < 200; ++i) {  // 200 MiB of '%' in about 200 KiB
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(zeros.data()));
    zs.avail_in = static_cast<uInt>(zeros.size());
    deflate(&zs, i == 199 ? Z_FINISH : Z_NO_FLUSH);
  }
  bomb.resize(zs.total_out);
  deflateEnd(&zs);
  const std::string png =
      picture_with({chunk("zTXt", keyed("mxGraphModel", std::string(1, '\0') + bomb))});
  EXPECT_THAT(testing::read_error(png),
              HasSubstr("the zTXt \"mxGraphModel\" chunk cannot be inflated: compressed data "
                        "inflates beyond"));
}

TEST(PngHostileTest, BrokenDiagramTextNamesTheChunk) {
  EXPECT_THAT(
      testing::read_error(picture_with({chunk("tEXt", keyed("mxfile", "%3Cmxfile%3E%3Cdiag"))})),
      StartsWith("not a draw.io file: XML error in the PNG's tEXt \"mxfile\" chunk at "
                 "line 1, column"));
  EXPECT_EQ(testing::read_error(picture_with({chunk("tEXt", keyed("mxfile", ""))})),
            "not a draw.io file: the PNG's tEXt \"mxfile\" chunk is empty");
  EXPECT_THAT(testing::read_error(picture_with({chunk("tEXt", keyed("mxfile", "<html/>"))})),
              HasSubstr("the root element is <html>"));
  EXPECT_THAT(testing::read_error(picture_with({chunk("zTXt", keyed("mxGraphModel", "\1xyz"))})),
              HasSubstr("the zTXt \"mxGraphModel\" chunk uses unknown compression method 1"));
  EXPECT_THAT(
      testing::read_error(picture_with({chunk("zTXt", keyed("mxGraphModel", "\0garbage"))})),
      HasSubstr("the zTXt \"mxGraphModel\" chunk cannot be inflated"));
}

TEST(PngHostileTest, ATextChunkOverTheLimitIsRefused) {
  ReadLimits limits;
  limits.png.max_chunk_bytes = 100;
  auto diagram = read_drawio(fixture_png(), limits);
  ASSERT_FALSE(diagram.has_value());
  EXPECT_EQ(diagram.error().message, "damaged PNG: tEXt: chunk data is too large");
}

// ---- embedding --------------------------------------------------------------------------------

std::vector<unsigned char> rgba_pixels(const std::string& png, png_uint_32& width,
                                       png_uint_32& height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (png_image_begin_read_from_memory(&image, png.data(), png.size()) == 0) return {};
  image.format = PNG_FORMAT_RGBA;
  std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr) == 0) return {};
  width = image.width;
  height = image.height;
  return pixels;
}

TEST(PngEmbedTest, WritesOneTextChunkBeforeTheImageTheWayDrawioDoes) {
  auto png = embed_png_diagram_text(fixture_png(), kMxfile);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  auto chunks = testing::png_chunks(*png);
  ASSERT_TRUE(chunks.has_value());
  ASSERT_FALSE(chunks->empty());
  EXPECT_EQ(chunks->front().type, "IHDR");
  EXPECT_EQ(chunks->back().type, "IEND");
  std::size_t text_chunks = 0;
  bool image_seen = false;
  for (const PngChunk& c : *chunks) {
    EXPECT_TRUE(c.crc_ok) << c.type;
    image_seen |= c.type == "IDAT";
    if (c.type != "tEXt" && c.type != "zTXt" && c.type != "iTXt") continue;
    ++text_chunks;
    EXPECT_FALSE(image_seen) << "the text chunk comes before the image data";
    EXPECT_EQ(c.type, "tEXt");
    EXPECT_EQ(c.data, "mxfile" + std::string(1, '\0') + testing::percent_encode(kMxfile));
  }
  EXPECT_EQ(text_chunks, 1u) << "the fixture's own chunk is replaced, not kept";
  EXPECT_EQ(testing::embedded_mxfile(*png), kMxfile);
}

TEST(PngEmbedTest, KeepsThePicture) {
  auto png = embed_png_diagram_text(fixture_png(), kMxfile);
  ASSERT_TRUE(png.has_value()) << png.error().message;
  png_uint_32 width = 0, height = 0, width2 = 0, height2 = 0;
  const auto before = rgba_pixels(fixture_png(), width, height);
  const auto after = rgba_pixels(*png, width2, height2);
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(width2, width);
  EXPECT_EQ(height2, height);
  EXPECT_TRUE(before == after) << "the pixels differ";
}

TEST(PngEmbedTest, ReadsBackAsTheSameDiagram) {
  const Diagram original = testing::read_ok(fixture_png());
  WriteOptions options;
  options.indent = false;
  auto png = embed_png_diagram_text(fixture_png(), write_drawio(original, options));
  ASSERT_TRUE(png.has_value()) << png.error().message;
  const Diagram reread = testing::read_ok(*png);
  EXPECT_EQ(testing::first_difference(original, reread), "");
  EXPECT_TRUE(reread.pages()[0].was_compressed());
}

TEST(PngEmbedTest, RefusesWhatIsNotAPng) {
  auto out = embed_png_diagram_text("<svg/>", kMxfile);
  ASSERT_FALSE(out.has_value());
  EXPECT_EQ(out.error().message, "not a PNG file (no PNG signature)");
  auto truncated = embed_png_diagram_text(fixture_png().substr(0, 100), kMxfile);
  ASSERT_FALSE(truncated.has_value());
  EXPECT_THAT(truncated.error().message, StartsWith("damaged PNG: "));
}

}  // namespace
}  // namespace fcp::drawio

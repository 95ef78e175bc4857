// Malformed and malicious files: each must give a clean error (or open), never crash or balloon.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "domains/drawio/io/codec.hpp"
#include "domains/drawio/io/reader.hpp"
#include "domains/drawio/io/writer.hpp"
#include "drawio_test_support.hpp"

namespace fcp::drawio {
namespace {

using ::testing::HasSubstr;
using testing::read_error;
using testing::read_ok;
using ::testing::StartsWith;

std::string page_with_text(const std::string& text) {
  return "<mxfile><diagram id=\"d\" name=\"Broken\">" + text + "</diagram></mxfile>";
}

TEST(HostileInputTest, EmptyAndWhitespaceFiles) {
  EXPECT_EQ(read_error(""), "not a draw.io file: the file is empty");
  EXPECT_EQ(read_error(" \n\t"), "not a draw.io file: the file is empty");
}

TEST(HostileInputTest, NotXml) {
  EXPECT_THAT(read_error("hello, world"), StartsWith("not a draw.io file: XML error"));
  EXPECT_THAT(read_error("{\"json\": true}"), StartsWith("not a draw.io file: XML error"));
  // A PNG is read as a .drawio.png (png_test.cpp has the rest).
  EXPECT_THAT(read_error(std::string("\x89PNG\r\n\x1a\n\0\0", 10)),
              StartsWith("damaged PNG: the file ends early (truncated)"));
}

TEST(HostileInputTest, XmlErrorsGiveLineAndColumn) {
  EXPECT_THAT(read_error("<mxfile>\n  <diagram id=\"a\">\n</mxfile>"),
              HasSubstr("at line 3, column"));
  EXPECT_THAT(read_error("<mxfile><diagram id=\"a\" id=\"b\"/></mxfile>"),
              HasSubstr("attribute \"id\" repeats"));
}

TEST(HostileInputTest, WrongRootElement) {
  EXPECT_EQ(read_error("<html><body/></html>"),
            "not a draw.io file: the root element is <html>, expected <mxfile>, <mxGraphModel> "
            "or a draw.io <svg>");
  EXPECT_THAT(read_error("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>"),
              HasSubstr("no embedded diagram"));
}

TEST(HostileInputTest, MxfileWithoutDiagramsOpensEmpty) {
  const Diagram diagram = read_ok("<mxfile host=\"x\"/>");
  EXPECT_TRUE(diagram.pages().empty());
  EXPECT_EQ(write_drawio(diagram), "<mxfile host=\"x\"/>\n");
}

TEST(HostileInputTest, TruncatedOrGarbageBase64) {
  const std::string good = encode_page_text("<mxGraphModel><root/></mxGraphModel>");
  EXPECT_THAT(read_error(page_with_text(good.substr(0, good.size() / 2))),
              StartsWith("cannot read page 1 (\"Broken\"): compressed page"));
  EXPECT_THAT(read_error(page_with_text("not*base64!")),
              HasSubstr("compressed page is not valid base64"));
  EXPECT_THAT(read_error(page_with_text("QUJDREVGRw==")),  // base64 of "ABCDEFG", not deflate
              HasSubstr("cannot be inflated"));
}

TEST(HostileInputTest, CompressedContentThatIsNotAModel) {
  EXPECT_THAT(read_error(page_with_text(encode_page_text("<html/>"))),
              HasSubstr("the page content is <html>, not <mxGraphModel>"));
  EXPECT_THAT(read_error(page_with_text(encode_page_text("<mxGraphModel><root>"))),
              HasSubstr("XML error in the page content"));
}

TEST(HostileInputTest, DeflateBombIsRefused) {
  const std::string bomb = base64_encode(deflate_raw(std::string(std::size_t{64} << 20, 'A')));
  EXPECT_THAT(read_error(page_with_text(bomb)), HasSubstr("deflate bomb"));
}

TEST(HostileInputTest, ManyPagesShareOneInflateBudget) {
  const std::string page = base64_encode(deflate_raw(
      "<mxGraphModel><root>" + std::string(std::size_t{6} << 20, ' ') + "</root></mxGraphModel>"));
  std::string file = "<mxfile>";
  for (int i = 0; i < 4; ++i)
    file += "<diagram id=\"p" + std::to_string(i) + "\">" + page + "</diagram>";
  file += "</mxfile>";
  ReadLimits limits;
  limits.max_inflated_bytes = std::size_t{20} << 20;
  auto result = read_drawio(file, limits);
  ASSERT_FALSE(result.has_value());
  EXPECT_THAT(result.error().message, HasSubstr("page 4"));
}

TEST(HostileInputTest, DeeplyNestedXmlIsRefused) {
  std::string nested;
  for (int i = 0; i < 100000; ++i)
    nested += "<a>";
  for (int i = 0; i < 100000; ++i)
    nested += "</a>";
  const std::string file = "<mxfile><diagram id=\"d\"><mxGraphModel><root><mxCell id=\"0\">" +
                           nested + "</mxCell></root></mxGraphModel></diagram></mxfile>";
  EXPECT_THAT(read_error(file), HasSubstr("nest deeper than"));
}

TEST(HostileInputTest, ElementCountIsLimited) {
  std::string many = "<mxGraphModel><root>";
  for (int i = 0; i < 2000; ++i)
    many += "<x/>";
  many += "</root></mxGraphModel>";
  ReadLimits limits;
  limits.max_elements = 1000;
  auto result = read_drawio(many, limits);
  ASSERT_FALSE(result.has_value());
  EXPECT_THAT(result.error().message, HasSubstr("more than 1000 elements"));
}

TEST(HostileInputTest, HugeAttributesAreReadIntact) {
  const std::string label(std::size_t{8} << 20, 'x');
  const Diagram diagram = read_ok("<mxGraphModel><root><mxCell id=\"0\" value=\"" + label +
                                  "\"/></root></mxGraphModel>");
  EXPECT_EQ(diagram.pages().at(0).find("0")->value->size(), label.size());
}

TEST(HostileInputTest, InputSizeIsLimited) {
  ReadLimits limits;
  limits.max_input_bytes = 100;
  auto result = read_drawio(std::string(200, ' ') + "<mxfile/>", limits);
  ASSERT_FALSE(result.has_value());
  EXPECT_THAT(result.error().message, HasSubstr("larger than"));
}

// A real 1 M-cell file is 130–400 MB: the default limits admit it (they once stopped at 128 MiB
// and 4 Mi elements) and still refuse more than 512 MiB.
TEST(HostileInputTest, DefaultLimitsAdmitAMillionCellFile) {
  const std::string head = R"(<mxfile><diagram id="d"><mxGraphModel><root><mxCell id="0"/>)";
  const std::string tail = "</root></mxGraphModel></diagram></mxfile>";
  std::string file = head;
  file.append(std::size_t{200} << 20, ' ');  // over the old 128 MiB
  file += tail;
  auto read = read_drawio(file);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->pages().at(0).cell_count(), 1u);
  // Up to 16 elements a cell (wrapper, cell, geometry, a waypoint array and its points).
  EXPECT_GE(ReadLimits{}.max_elements, std::size_t{16'000'000});
  file.append(std::size_t{320} << 20, ' ');
  auto refused = read_drawio(file);
  ASSERT_FALSE(refused.has_value());
  EXPECT_THAT(refused.error().message, HasSubstr("larger than 512 MiB"));
}

TEST(HostileInputTest, InvalidUtf8AndControlCharactersAreErrors) {
  EXPECT_THAT(read_error("<mxfile><diagram name=\"bad \xff\xfe\"/></mxfile>"),
              HasSubstr("invalid UTF-8 or XML character at byte 4 of attribute \"name\" in "
                        "<diagram>"));
  EXPECT_THAT(read_error("<mxGraphModel><root><mxCell id=\"0\" value=\"&#1;\"/></root>"
                         "</mxGraphModel>"),
              HasSubstr("invalid UTF-8 or XML character"));
  const std::string compressed = encode_page_text(
      "<mxGraphModel><root><mxCell id=\"0\" value=\"\xc3\x28\"/></root></mxGraphModel>");
  EXPECT_THAT(read_error(page_with_text(compressed)), HasSubstr("invalid UTF-8"));
}

// Every element the reader models checks its attributes the same way (the reader visits
// pugixml's attributes in place instead of copying them into a list first): a repeated name is
// an error naming it and the element, with up to 8 attributes and past them.
TEST(HostileInputTest, RepeatedAttributesAreErrorsInEveryElement) {
  auto in_root = [](const std::string& cells) {
    return "<mxGraphModel><root><mxCell id=\"0\"/>" + cells + "</root></mxGraphModel>";
  };
  EXPECT_THAT(read_error(in_root(R"(<mxCell id="1" parent="0" parent="0"/>)")),
              HasSubstr("attribute \"parent\" repeats in <mxCell>"));
  // The tenth attribute repeats the second: found past the first eight too.
  EXPECT_THAT(read_error(in_root(R"(<mxCell id="1" parent="0" a="" b="" c="" d="" e="" f="" )"
                                 R"(g="" parent="0"/>)")),
              HasSubstr("attribute \"parent\" repeats in <mxCell>"));
  EXPECT_THAT(read_error(in_root(R"(<mxCell id="1" parent="0"><mxGeometry x="1" x="2" )"
                                 R"(as="geometry"/></mxCell>)")),
              HasSubstr("attribute \"x\" repeats in <mxGeometry>"));
  EXPECT_THAT(read_error(in_root(R"(<mxCell id="1" edge="1" parent="0"><mxGeometry )"
                                 R"(relative="1" as="geometry"><Array as="points"><mxPoint x="1" )"
                                 R"(y="2" y="3"/></Array></mxGeometry></mxCell>)")),
              HasSubstr("attribute \"y\" repeats in <mxPoint>"));
  EXPECT_THAT(
      read_error(in_root(R"(<object id="1" label="a" k1="" k2="" k3="" k4="" k5="" )"
                         R"(k6="" k7="" k8="" k9="" k3="x"><mxCell parent="0"/></object>)")),
      HasSubstr("attribute \"k3\" repeats in <object>"));
  EXPECT_THAT(read_error(in_root(R"(<mxCell id="1" parent="0"><mxGeometry width="&#2;" )"
                                 R"(as="geometry"/></mxCell>)")),
              HasSubstr("invalid UTF-8 or XML character at byte 0 of attribute \"width\" in "
                        "<mxGeometry>"));
  // Names that only look alike are different attributes.
  const Diagram fine = read_ok(
      in_root(R"(<mxCell id="1" parent="0" a="" b="" c="" d="" e="" f="" g="" h="" A="" B=""/>)"));
  EXPECT_EQ(fine.pages().at(0).cell_count(), 2u);
}

TEST(HostileInputTest, RandomBytesNeverCrash) {
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<char>(state >> 24);
  };
  const std::string seeds[] = {"<mxfile><diagram id=\"a\">", "<mxGraphModel><root><mxCell ",
                               "<svg content=\"", ""};
  for (int round = 0; round < 400; ++round) {
    std::string input = seeds[round % 4];
    for (int i = 0; i < 64 + round; ++i)
      input.push_back(next());
    auto result = read_drawio(input);
    if (!result) {
      EXPECT_FALSE(result.error().message.empty());
    }
  }
}

}  // namespace
}  // namespace fcp::drawio

#include "domains/lofi/bridge/osc.hpp"

#include <gtest/gtest.h>

#include <random>

namespace fcp::lofi::bridge {
namespace {

using namespace std::string_literals;

OscMessage message(std::string address, std::vector<OscArgument> arguments = {}) {
  return OscMessage{std::move(address), std::move(arguments)};
}

std::string encode(const OscMessage& m) {
  auto encoded = encode_osc(m);
  EXPECT_TRUE(encoded) << (encoded ? "" : encoded.error().message);
  return encoded ? *encoded : "";
}

std::string big_endian(std::uint32_t value) {
  return {static_cast<char>(value >> 24), static_cast<char>((value >> 16) & 0xff),
          static_cast<char>((value >> 8) & 0xff), static_cast<char>(value & 0xff)};
}

// "#bundle", a time tag of 1 (immediately), then size-prefixed elements.
std::string bundle(const std::vector<std::string>& elements) {
  std::string bytes = "#bundle\0"s + big_endian(0) + big_endian(1);
  for (const auto& element : elements) {
    bytes += big_endian(static_cast<std::uint32_t>(element.size())) + element;
  }
  return bytes;
}

TEST(OscEncode, JsonWithCommasIsOneNulPaddedStringArgument) {
  // The bytes liblo's oscsend produces for: oscsend - /lofi/create s '{"id":"a,b"}'
  const std::string expected =
      "/lofi/create\0\0\0\0"s
      ",s\0\0"s
      "{\"id\":\"a,b\"}\0\0\0\0"s;
  EXPECT_EQ(encode(message("/lofi/create", {std::string(R"({"id":"a,b"})")})), expected);
}

TEST(OscEncode, StringWhoseLengthIsAMultipleOfFourGetsFourNuls) {
  EXPECT_EQ(encode(message("/abc", {std::string("abcd")})), "/abc\0\0\0\0,s\0\0abcd\0\0\0\0"s);
  EXPECT_EQ(encode(message("/ab", {std::string("abc")})), "/ab\0,s\0\0abc\0"s);
  EXPECT_EQ(encode(message("/ab", {std::string()})), "/ab\0,s\0\0\0\0\0\0"s);
}

TEST(OscEncode, NumbersAreBigEndian) {
  EXPECT_EQ(
      encode(message("/n", {std::int32_t{1}, std::int32_t{-2}, 1.5f})),
      "/n\0\0,iif\0\0\0\0"s + "\x00\x00\x00\x01"s + "\xff\xff\xff\xfe"s + "\x3f\xc0\x00\x00"s);
}

TEST(OscEncode, NoArgumentsStillCarriesATypeTagString) {
  EXPECT_EQ(encode(message("/lofi/ping")), "/lofi/ping\0\0,\0\0\0"s);
}

TEST(OscEncode, RefusesBadAddresses) {
  for (const std::string& address :
       {""s, "lofi/create"s, "/lofi create"s, "/lofi#x"s, "/a,b"s, "/a\0b"s, "/\x7f"s}) {
    auto encoded = encode_osc(message(address));
    ASSERT_FALSE(encoded) << address;
    EXPECT_NE(encoded.error().message.find("address"), std::string::npos);
  }
}

TEST(OscEncode, AnyAddressRuleAcceptsJsonAsTheAddress) {
  const std::string json = R"({"status":"ok","n":1})";
  auto encoded = encode_osc(message(json), AddressRule::any);
  ASSERT_TRUE(encoded);
  auto decoded = decode_osc(*encoded);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->front().address, json);
  EXPECT_FALSE(encode_osc(message(""), AddressRule::any));
}

TEST(OscEncode, RefusesNulInsideAString) {
  auto encoded = encode_osc(message("/a", {"x\0y"s}));
  ASSERT_FALSE(encoded);
  EXPECT_NE(encoded.error().message.find("NUL"), std::string::npos);
}

TEST(OscEncode, RefusesMoreThanOneDatagram) {
  // "/x\0\0" + ",s\0\0" + string: 65 495 chars pad to 65 496 → 65 504 bytes, the largest fit.
  EXPECT_TRUE(encode_osc(message("/x", {std::string(65495, 'a')})));
  auto too_large = encode_osc(message("/x", {std::string(65496, 'a')}));
  ASSERT_FALSE(too_large);
  EXPECT_NE(too_large.error().message.find("65508 bytes"), std::string::npos)
      << too_large.error().message;
  EXPECT_NE(too_large.error().message.find("65507"), std::string::npos);
}

TEST(OscDecode, RoundTripsEveryArgumentType) {
  const auto original =
      message("/lofi/create", {std::string(R"({"id":"a,b","name":"Grüße 🎛"})"),
                               std::int32_t{-7}, 0.25f, std::string("abcd"), std::string()});
  auto decoded = decode_osc(encode(original));
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 1u);
  EXPECT_EQ(decoded->front(), original);
}

TEST(OscDecode, SymbolsDecodeAsStrings) {
  auto decoded = decode_osc("/s\0\0,S\0\0sym\0"s);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->front(), message("/s", {std::string("sym")}));
}

TEST(OscDecode, JsonAddressWithoutTypeTagsHasNoArguments) {
  auto decoded = decode_osc("{\"status\":\"ok\"}\0"s);
  ASSERT_TRUE(decoded) << decoded.error().message;
  EXPECT_EQ(decoded->front(), message(R"({"status":"ok"})"));
}

TEST(OscDecode, OscAddressWithoutTypeTagsIsTruncated) {
  auto decoded = decode_osc("/lofi/create\0\0\0\0"s);
  ASSERT_FALSE(decoded);
  EXPECT_NE(decoded.error().message.find("no type tag string"), std::string::npos);
}

TEST(OscDecode, BundlesAreFlattenedInOrder) {
  const std::string first = encode(message("/one", {std::int32_t{1}}));
  const std::string second = encode(message("/two", {std::string("x")}));
  const std::string third = encode(message("/three"));
  auto decoded = decode_osc(bundle({first, bundle({second, third})}));
  ASSERT_TRUE(decoded) << decoded.error().message;
  ASSERT_EQ(decoded->size(), 3u);
  EXPECT_EQ((*decoded)[0].address, "/one");
  EXPECT_EQ((*decoded)[1], message("/two", {std::string("x")}));
  EXPECT_EQ((*decoded)[2].address, "/three");
}

TEST(OscDecode, EveryPrefixOfAValidMessageIsRejected) {
  const std::string packets[] = {
      encode(message("/lofi/create", {std::string(R"({"id":"a,b"})"), std::int32_t{3}, 2.5f})),
      encode(message("/lofi/ping")),
      // Not a JSON-as-address reply: cut right after its address, it is the tolerated tag-less
      // form (see JsonAddressWithoutTypeTagsHasNoArguments).
  };
  for (const auto& packet : packets) {
    ASSERT_TRUE(decode_osc(packet));
    for (std::size_t size = 0; size < packet.size(); ++size) {
      EXPECT_FALSE(decode_osc(std::string_view(packet).substr(0, size)))
          << "prefix of " << size << " bytes of " << packet << " was accepted";
    }
  }
}

TEST(OscDecode, EveryPrefixOfABundleIsRejectedOrHoldsOnlyWholeElements) {
  const std::string first = encode(message("/a", {std::string("abcd")}));
  const std::string second = encode(message("/b", {std::int32_t{2}}));
  const std::string packet = bundle({first, second});
  // Cut exactly after an element, a bundle is a shorter valid bundle (OSC framing cannot tell).
  const std::size_t boundaries[] = {16, 16 + 4 + first.size()};
  for (std::size_t size = 0; size < packet.size(); ++size) {
    auto decoded = decode_osc(std::string_view(packet).substr(0, size));
    if (size == boundaries[0] || size == boundaries[1]) {
      ASSERT_TRUE(decoded) << size;
      EXPECT_EQ(decoded->size(), size == boundaries[0] ? 0u : 1u);
    } else {
      EXPECT_FALSE(decoded) << "prefix of " << size << " bytes was accepted";
    }
  }
}

TEST(OscDecode, RejectsWrongPadding) {
  // Non-NUL bytes where the address, type tags or string padding must be NUL.
  EXPECT_FALSE(decode_osc("/ab\0,s\0xabc\0"s));
  EXPECT_FALSE(decode_osc("/a\0x,s\0\0abc\0"s));
  EXPECT_FALSE(decode_osc("/ab\0,s\0\0ab\0x"s));
  // A packet whose size is not a multiple of 4.
  EXPECT_FALSE(decode_osc("/ab\0,\0\0\0\0"s));
  // Trailing bytes after the last argument.
  EXPECT_FALSE(decode_osc("/ab\0,\0\0\0\0\0\0\0"s));
}

TEST(OscDecode, RejectsBadTypeTags) {
  // No leading comma.
  EXPECT_FALSE(decode_osc("/ab\0is\0\0\0\0\0\1"s));
  // Unknown and unsupported tags.
  auto unknown = decode_osc("/ab\0,z\0\0\0\0\0\1"s);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("'z'"), std::string::npos) << unknown.error().message;
  EXPECT_FALSE(decode_osc("/ab\0,d\0\0\0\0\0\0\0\0\0\1"s));
  EXPECT_FALSE(decode_osc("/ab\0,b\0\0\0\0\0\0"s));
  // More tags than data.
  EXPECT_FALSE(decode_osc("/ab\0,ii\0\0\0\0\1"s));
  // An unterminated type tag string.
  EXPECT_FALSE(decode_osc("/ab\0,iii"s));
  // An empty address.
  EXPECT_FALSE(decode_osc("\0\0\0\0,\0\0\0"s));
}

TEST(OscDecode, RejectsBadBundles) {
  const std::string inner = encode(message("/a"));
  EXPECT_FALSE(decode_osc("#bundlx\0"s + big_endian(0) + big_endian(1)));
  EXPECT_FALSE(decode_osc("#bundle\0"s + big_endian(0)));
  // An element size larger than what is left, zero, or not a multiple of 4.
  EXPECT_FALSE(decode_osc("#bundle\0"s + big_endian(0) + big_endian(1) + big_endian(64) + inner));
  EXPECT_FALSE(decode_osc("#bundle\0"s + big_endian(0) + big_endian(1) + big_endian(0)));
  EXPECT_FALSE(decode_osc("#bundle\0"s + big_endian(0) + big_endian(1) + big_endian(6) + inner));
  // Nested too deep.
  std::string nested = inner;
  for (int depth = 0; depth < 20; ++depth)
    nested = bundle({nested});
  EXPECT_FALSE(decode_osc(nested));
  // A bundle holding a malformed message.
  EXPECT_FALSE(decode_osc(bundle({"/ab\0,z\0\0"s})));
}

TEST(OscDecode, RejectsGarbage) {
  EXPECT_FALSE(decode_osc(""));
  EXPECT_FALSE(decode_osc("\xff\xfenot OSC at all\x01"));
  EXPECT_FALSE(decode_osc("GET / HTTP/1.1\r\n\r\n"));
}

// Random corruption never crashes the decoder, and whatever it accepts survives a round trip.
TEST(OscDecode, SurvivesRandomCorruption) {
  const std::string valid[] = {
      encode(message("/lofi/create", {std::string(R"({"id":"a,b"})"), std::int32_t{3}, 2.5f})),
      bundle({encode(message("/a", {std::string("abcd")})), encode(message("/b"))}),
  };
  std::mt19937 random(42);
  std::size_t accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string packet = valid[round % 2];
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int i = 0; i < flips; ++i) {
      packet[random() % packet.size()] = static_cast<char>(random() % 256);
    }
    if (round % 7 == 0) packet.resize(random() % (packet.size() + 1));
    auto decoded = decode_osc(packet);
    if (!decoded) continue;
    ++accepted;
    for (const auto& m : *decoded) {
      auto again = encode_osc(m, AddressRule::any);
      ASSERT_TRUE(again) << describe(m);
      auto back = decode_osc(*again);
      ASSERT_TRUE(back);
      // Compared as bytes: a corrupted float may be NaN, which never compares equal.
      EXPECT_EQ(encode_osc(back->front(), AddressRule::any).value(), *again);
    }
  }
  EXPECT_LT(accepted, 20000u);  // corruption was detected at least sometimes
}

TEST(OscDescribe, ShowsAddressAndTypedArguments) {
  EXPECT_EQ(describe(message("/a", {std::int32_t{1}, 1.5f, std::string("x,y")})),
            "/a i 1 f 1.5 s \"x,y\"");
}

}  // namespace
}  // namespace fcp::lofi::bridge

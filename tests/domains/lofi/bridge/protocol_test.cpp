#include "domains/lofi/bridge/protocol.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace fcp::lofi::bridge {
namespace {

namespace json = boost::json;

OscMessage decode_one(const std::string& packet) {
  auto decoded = decode_osc(packet);
  EXPECT_TRUE(decoded);
  EXPECT_EQ(decoded->size(), 1u);
  return decoded->front();
}

TEST(RequestPacket, IsOneStringArgumentHoldingThePayloadAndRequestId) {
  auto packet = request_packet("create", {{"id", "a,b"}, {"class", "cycle~"}, {"x", 10}}, "r-1");
  ASSERT_TRUE(packet) << packet.error().message;
  const auto message = decode_one(*packet);
  EXPECT_EQ(message.address, "/lofi/create");
  ASSERT_EQ(message.arguments.size(), 1u);
  const auto& text = std::get<std::string>(message.arguments.front());
  EXPECT_EQ(text, R"({"id":"a,b","class":"cycle~","x":10,"requestId":"r-1"})");
}

TEST(RequestPacket, ReplacesAnExistingRequestId) {
  auto packet = request_packet("ping", {{"requestId", "old"}}, "new");
  ASSERT_TRUE(packet);
  EXPECT_EQ(std::get<std::string>(decode_one(*packet).arguments.front()), R"({"requestId":"new"})");
}

TEST(RequestPacket, RefusesBadVerbsAndIds) {
  for (const char* verb : {"", "Create", "lofi/create", "cre ate", "a,b"}) {
    auto packet = request_packet(verb, {}, "r-1");
    ASSERT_FALSE(packet) << verb;
    EXPECT_NE(packet.error().message.find("verb"), std::string::npos);
  }
  EXPECT_FALSE(request_packet("ping", {}, ""));
  EXPECT_FALSE(request_packet("ping", {}, std::string(kMaxRequestId + 1, 'x')));
}

TEST(RequestPacket, RefusesJsonLongerThanAMaxSymbol) {
  // {"text":"…","requestId":"r"} is 29 bytes around the text.
  const std::size_t overhead = std::string(R"({"text":"","requestId":"r"})").size();
  auto fits = request_packet("ui", {{"text", std::string(kMaxSymbol - overhead, 'a')}}, "r");
  EXPECT_TRUE(fits) << fits.error().message;
  auto too_long =
      request_packet("ui", {{"text", std::string(kMaxSymbol - overhead + 1, 'a')}}, "r");
  ASSERT_FALSE(too_long);
  EXPECT_EQ(too_long.error().message,
            "the /lofi/ui payload is 32768 bytes; Max truncates symbols at 32767 bytes, so it must "
            "be sent in smaller parts");
}

TEST(PayloadFits, ReservesRoomForTheLongestRequestId) {
  const std::size_t overhead = std::string(R"({"t":"","requestId":""})").size() + kMaxRequestId;
  EXPECT_TRUE(payload_fits({{"t", std::string(kMaxSymbol - overhead, 'a')}}));
  EXPECT_FALSE(payload_fits({{"t", std::string(kMaxSymbol - overhead + 1, 'a')}}));
}

TEST(ParseReply, ReadsAnAddressWithOneJsonArgument) {
  auto reply = parse_reply(
      {"/lofi/reply", {std::string(R"({"status":"ok","requestId":"r-9","created":3})")}});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->ok);
  EXPECT_EQ(reply->request_id, "r-9");
  EXPECT_EQ(reply->body.at("created"), 3);
  EXPECT_EQ(reply->body.at("status"), "ok");
}

TEST(ParseReply, ReadsJsonSentAsTheAddressLikeLofisDaemon) {
  auto reply = parse_reply({R"({"status":"ok","device":"Flutter"})", {}});
  ASSERT_TRUE(reply) << reply.error().message;
  EXPECT_TRUE(reply->ok);
  EXPECT_EQ(reply->request_id, "");
  EXPECT_EQ(reply->body.at("device"), "Flutter");
}

TEST(ParseReply, ReadsErrorsAndTheirMessage) {
  auto reply =
      parse_reply({"/r", {std::string(R"({"status":"error","message":"unknown id \"x\""})")}});
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->ok);
  EXPECT_EQ(reply->message, "unknown id \"x\"");
  auto error_field = parse_reply({R"({"status":"error","error":"no device"})", {}});
  ASSERT_TRUE(error_field);
  EXPECT_EQ(error_field->message, "no device");
}

TEST(ParseReply, ReadsANumericRequestId) {
  auto reply = parse_reply({R"({"status":"ok","requestId":42})", {}});
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->request_id, "42");
}

TEST(ParseReply, RefusesWhatIsNotALofiReply) {
  const std::vector<OscMessage> bad{
      {"/lofi/reply", {std::string("not json")}},
      {"/lofi/reply", {std::string("[1,2]")}},
      {"/lofi/reply", {std::string(R"({"ok":true})")}},
      {"/lofi/reply", {std::string(R"({"status":"maybe"})")}},
      {"/lofi/reply", {std::string(R"({"status":1})")}},
      {"/lofi/reply", {std::int32_t{1}}},
      {"/lofi/reply", {std::string(R"({"status":"ok"})"), std::string("extra")}},
      {"/lofi/reply", {}},
  };
  for (const auto& message : bad)
    EXPECT_FALSE(parse_reply(message)) << describe(message);
  auto missing = parse_reply({R"({"ok":true})", {}});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no \"status\""), std::string::npos);
}

}  // namespace
}  // namespace fcp::lofi::bridge

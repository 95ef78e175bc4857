// The JSON-RPC messages fcpd writes: exact text, since the envelope is written by hand around the
// serialized parts.
#include "mcp/jsonrpc.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace fcp::mcp::jsonrpc {
namespace {
namespace json = boost::json;

TEST(JsonRpcWriter, ResultKeepsTheIdAsGiven) {
  EXPECT_EQ(result(7, json::object{{"ok", true}}),
            R"({"jsonrpc":"2.0","id":7,"result":{"ok":true}})");
  EXPECT_EQ(result("a\"b\\c", json::object{}), R"({"jsonrpc":"2.0","id":"a\"b\\c","result":{}})");
  EXPECT_EQ(result(UINT64_MAX, nullptr),
            R"({"jsonrpc":"2.0","id":18446744073709551615,"result":null})");
}

TEST(JsonRpcWriter, ErrorCarriesCodeMessageAndOptionalData) {
  EXPECT_EQ(error(nullptr, code::parse_error, "bad \"json\""),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad \"json\""}})");
  EXPECT_EQ(error(3, code::invalid_params, "no", json::object{{"at", 1}}),
            R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no","data":{"at":1}}})");
}

TEST(JsonRpcWriter, NotificationEscapesTheMethod) {
  EXPECT_EQ(notification("notifications/progress", json::object{{"progress", 1}}),
            R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}})");
  const auto odd = json::parse(notification("a\"\n\xC3\xA9", {}));
  EXPECT_EQ(odd.at("method").as_string(), "a\"\n\xC3\xA9");
}

TEST(JsonRpcWriter, WhatItWritesParsesBack) {
  const std::string text = result("x\u2028y", json::array{1, "two", nullptr});
  const auto parsed = parse(text);
  ASSERT_TRUE(std::holds_alternative<Incoming>(parsed));
  EXPECT_EQ(std::get<Incoming>(parsed).kind, Incoming::Kind::response);
  EXPECT_EQ(std::get<Incoming>(parsed).id.as_string(), "x\u2028y");
}

TEST(JsonRpcParse, ResponsesCarryTheirResultOrError) {
  const auto ok = parse(R"({"jsonrpc":"2.0","id":"s-1","result":{"action":"accept"}})");
  ASSERT_TRUE(std::holds_alternative<Incoming>(ok));
  EXPECT_EQ(std::get<Incoming>(ok).result, json::parse(R"({"action":"accept"})"));
  EXPECT_TRUE(std::get<Incoming>(ok).error.is_null());
  const auto failed = parse(R"({"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no"}})");
  ASSERT_TRUE(std::holds_alternative<Incoming>(failed));
  EXPECT_EQ(std::get<Incoming>(failed).error.at("message"), "no");
  EXPECT_TRUE(std::get<Incoming>(failed).result.is_null());
}

TEST(JsonRpcParse, RequestIdOfARefusedBody) {
  EXPECT_EQ(request_id(R"({"jsonrpc":"2.0","id":12,"method":"initialize"})"), json::value(12));
  EXPECT_EQ(request_id(R"({"id":"x","method":"ping"})"), json::value("x"));
  EXPECT_TRUE(request_id(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").is_null());
  EXPECT_TRUE(request_id(R"({"jsonrpc":"2.0","id":3,"result":{}})").is_null());
  EXPECT_TRUE(request_id(R"([{"id":1,"method":"ping"}])").is_null());
  EXPECT_TRUE(request_id(R"({"id":1.5,"method":"ping"})").is_null());
  EXPECT_TRUE(request_id("").is_null());
  EXPECT_TRUE(request_id("{\"id\":1,").is_null());
}

TEST(JsonRpcCodes, AreTheValuesTheSpecsAssign) {
  EXPECT_EQ(code::parse_error, -32700);
  EXPECT_EQ(code::invalid_request, -32600);
  EXPECT_EQ(code::method_not_found, -32601);
  EXPECT_EQ(code::invalid_params, -32602);
  EXPECT_EQ(code::internal_error, -32603);
  EXPECT_EQ(code::server_error, -32000);
  EXPECT_EQ(code::resource_not_found, -32002);  // MCP, resources/read
}

struct HttpRefusal {
  unsigned status;
  int code;
};

void PrintTo(const HttpRefusal& refusal, std::ostream* os) {
  *os << refusal.status << " -> " << refusal.code;
}

class JsonRpcHttpError : public ::testing::TestWithParam<HttpRefusal> {};

// A malformed HTTP request (400) is invalid_request; every other refusal is a server error.
TEST_P(JsonRpcHttpError, MapsTheStatusToOneCode) {
  const auto [status, expected] = GetParam();
  EXPECT_EQ(http_error(status, "Refused"), R"({"jsonrpc":"2.0","id":null,"error":{"code":)" +
                                               std::to_string(expected) +
                                               R"(,"message":"Refused"}})");
}

INSTANTIATE_TEST_SUITE_P(Statuses, JsonRpcHttpError,
                         ::testing::Values(HttpRefusal{400, -32600}, HttpRefusal{403, -32000},
                                           HttpRefusal{404, -32000}, HttpRefusal{405, -32000},
                                           HttpRefusal{406, -32000}, HttpRefusal{413, -32000},
                                           HttpRefusal{415, -32000}, HttpRefusal{503, -32000}));

TEST(JsonRpcWriter, HttpErrorAnswersTheGivenId) {
  EXPECT_EQ(http_error(400, "Refused", 5),
            R"({"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Refused"}})");
}

TEST(JsonRpcWriter, HttpErrorEscapesTheMessage) {
  const auto body = json::parse(http_error(400, "bad \"x\"\\\n"));
  EXPECT_TRUE(body.at("id").is_null());
  EXPECT_EQ(body.at("error").at("message").as_string(), "bad \"x\"\\\n");
}

}  // namespace
}  // namespace fcp::mcp::jsonrpc

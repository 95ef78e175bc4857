#include "transport/http_checks.hpp"

#include <gtest/gtest.h>

namespace fcp::transport {
namespace {

TEST(HttpChecks, AcceptHeaderMatching) {
  EXPECT_TRUE(accepts_media_type("application/json, text/event-stream", "text/event-stream"));
  EXPECT_TRUE(accepts_media_type("*/*", "application/json"));
  EXPECT_TRUE(accepts_media_type("Application/*;q=0.5", "application/json"));
  EXPECT_TRUE(accepts_media_type("text/html, application/json;q=0.9", "application/json"));
  EXPECT_FALSE(accepts_media_type("application/json;q=0", "application/json"));
  EXPECT_FALSE(accepts_media_type("application/jsonx", "application/json"));
  EXPECT_FALSE(accepts_media_type("text/*", "application/json"));
  EXPECT_FALSE(accepts_media_type("", "application/json"));
}

TEST(HttpChecks, ContentType) {
  EXPECT_TRUE(is_json_content_type("application/json"));
  EXPECT_TRUE(is_json_content_type("Application/JSON ; charset=utf-8"));
  EXPECT_FALSE(is_json_content_type("application/json-seq"));
  EXPECT_FALSE(is_json_content_type(""));
}

TEST(HttpChecks, HostNames) {
  EXPECT_EQ(host_name("localhost:8080"), "localhost");
  EXPECT_EQ(host_name("[::1]:8080"), "[::1]");
  EXPECT_EQ(host_name("127.0.0.1"), "127.0.0.1");
  // What a lenient split once took for 127.0.0.1 (the part before the first ':').
  for (const char* malformed :
       {"127.0.0.1:80@evil.com", "127.0.0.1:80/x", "127.0.0.1:evil",
        "127.0.0.1:", "127.0.0.1:123456", "127.0.0.1:99999", "[::1", "[::1]evil", "[evil.com]",
        "local host", "", ":80", "user@127.0.0.1"}) {
    EXPECT_EQ(host_name(malformed), std::nullopt) << malformed;
  }
  HttpOptions options;
  options.allowed_hosts = {"Mcp.Example:443"};
  EXPECT_TRUE(host_allowed("LOCALHOST:1", options));
  EXPECT_TRUE(host_allowed("[::1]", options));
  EXPECT_TRUE(host_allowed("mcp.example:9000", options));
  EXPECT_FALSE(host_allowed("localhost.evil.example", options));
  EXPECT_FALSE(host_allowed("127.0.0.1.nip.io:80", options));
  EXPECT_FALSE(host_allowed("", options));
  EXPECT_FALSE(host_allowed("127.0.0.1:80@evil.com", options));
  EXPECT_FALSE(host_allowed("localhost:1@mcp.example", options));
}

TEST(HttpChecks, Origins) {
  HttpOptions options;
  options.allowed_origins = {"https://app.example"};
  EXPECT_TRUE(origin_allowed("http://localhost:3000", options));
  EXPECT_TRUE(origin_allowed("http://127.0.0.1", options));
  EXPECT_TRUE(origin_allowed("http://[::1]:5173", options));
  EXPECT_TRUE(origin_allowed("https://app.example", options));
  EXPECT_FALSE(origin_allowed("https://app.example:444", options));
  EXPECT_FALSE(origin_allowed("http://localhost.evil.example", options));
  EXPECT_FALSE(origin_allowed("null", options));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:80@evil.com", options));
  EXPECT_FALSE(origin_allowed("http://localhost@evil.com/", options));
}

TEST(HttpChecks, RefusesTwoHostOrTwoOriginHeaders) {
  for (const auto field : {boost::beast::http::field::host, boost::beast::http::field::origin}) {
    HttpRequest request{boost::beast::http::verb::post, "/mcp", 11};
    request.set(boost::beast::http::field::host, "127.0.0.1");
    request.insert(field, "http://evil.example");  // a second Host, or an Origin…
    if (field == boost::beast::http::field::origin)
      request.insert(field, "http://127.0.0.1");  // …and a second Origin
    auto refused = check_request(request, HttpOptions{});
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->result(), boost::beast::http::status::bad_request);
    EXPECT_NE(refused->body().find("more than one Host or Origin"), std::string::npos);
  }
}

TEST(HttpChecks, ErrorBodiesAreJsonRpcErrors) {
  HttpRequest request{boost::beast::http::verb::post, "/mcp", 11};
  auto response =
      make_error_response(request, boost::beast::http::status::bad_request, "Bad Request: x");
  EXPECT_EQ(response.body(),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: x"}})");
  EXPECT_EQ(response[boost::beast::http::field::content_type], "application/json");
  EXPECT_EQ(request_path("/mcp?x=1"), "/mcp");
}

TEST(HttpChecks, ErrorsAnswerWithTheRefusedRequestsId) {
  HttpRequest request{boost::beast::http::verb::post, "/mcp", 11};
  // A Host that is not this server's (a POST's protocol version is the MCP layer's to check).
  request.set(boost::beast::http::field::host, "evil.example:7301");
  request.set(boost::beast::http::field::accept, "application/json, text/event-stream");
  request.set(boost::beast::http::field::content_type, "application/json");
  const auto refused_body = [&](std::string body) {
    request.body() = std::move(body);
    auto refused = check_request(request, HttpOptions{});
    EXPECT_TRUE(refused.has_value());
    return refused ? refused->body() : std::string();
  };
  EXPECT_EQ(refused_body(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})"),
            R"({"jsonrpc":"2.0","id":7,"error":{"code":-32000,)"
            R"("message":"Forbidden: Host not allowed"}})");
  EXPECT_NE(refused_body(R"({"jsonrpc":"2.0","id":"a-1","method":"ping"})").find(R"("id":"a-1")"),
            std::string::npos);
  // Nothing to answer: a notification, a batch, a response, not JSON, an id of the wrong type.
  for (const char* body :
       {R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
        R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", R"({"jsonrpc":"2.0","id":3,"result":{}})",
        "{not json", R"({"jsonrpc":"2.0","id":{"x":1},"method":"ping"})"}) {
    EXPECT_NE(refused_body(body).find(R"("id":null)"), std::string::npos) << body;
  }
}

TEST(HttpChecks, RefusalsOtherThanBadRequestAreServerErrors) {
  HttpRequest request{boost::beast::http::verb::post, "/elsewhere", 11};
  request.set(boost::beast::http::field::host, "localhost:7301");
  auto response = check_request(request, HttpOptions{});
  ASSERT_TRUE(response);
  EXPECT_EQ(response->result(), boost::beast::http::status::not_found);
  EXPECT_EQ(response->body(),
            R"({"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Not Found"}})");
}

}  // namespace
}  // namespace fcp::transport

// The stateless MCP 2026-07-28 lifecycle through ClientConnection: requests that carry their
// version and client capabilities in _meta are served without initialize, beside 2025-era
// sessions; server/discover; result shapes; the header checks of Streamable HTTP; the errors
// -32020/-32021/-32022 with their HTTP statuses and the request's id.
#include <regex>

#include "mcp/base64.hpp"
#include "mcp/lifecycle.hpp"
#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::ConnectionTest;
namespace json = boost::json;
using namespace std::chrono_literals;

// Records the reply, the HTTP status the connection chose for it (0: none), and offers headers
// as the HTTP transport would (null: stdio or TCP).
class HttpLikeResponder final : public Responder {
 public:
  explicit HttpLikeResponder(std::optional<TransportHeaders> headers = std::nullopt)
      : headers_(std::move(headers)) {}
  void notify(std::string message) override {
    std::lock_guard lock(mutex_);
    notifications.push_back(json::parse(message));
  }
  void reply(std::string message) override { finish(json::parse(message), 0); }
  void reply_with_status(std::string message, unsigned status) override {
    finish(json::parse(message), status);
  }
  void no_reply() override { finish(nullptr, 0); }
  const TransportHeaders* headers() const override { return headers_ ? &*headers_ : nullptr; }

  json::value wait() {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(done_.wait_for(lock, 10s, [this] { return finished_; })) << "no answer";
    return answer_;
  }
  unsigned status() {
    wait();
    std::lock_guard lock(mutex_);
    return status_;
  }
  std::vector<json::value> notifications;

 private:
  void finish(json::value answer, unsigned status) {
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(finished_) << "answered twice";
    answer_ = std::move(answer);
    status_ = status;
    finished_ = true;
    done_.notify_all();
  }
  std::optional<TransportHeaders> headers_;
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  unsigned status_ = 0;
  json::value answer_;
};

json::object modern_meta(json::object capabilities = {}) {
  return json::object{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                      {"io.modelcontextprotocol/clientCapabilities", std::move(capabilities)}};
}

class StatelessLifecycleTest : public ConnectionTest {
 protected:
  // Sends one request; `headers` as an HTTP client would send them (nullopt: stdio).
  std::pair<json::value, unsigned> ask(Connection& c, int id, const std::string& method,
                                       json::object params,
                                       std::optional<TransportHeaders> headers = std::nullopt) {
    auto responder = std::make_shared<HttpLikeResponder>(std::move(headers));
    json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    c.handle(json::serialize(message), responder);
    auto answer = responder->wait();
    return {answer, responder->status()};
  }
  std::pair<json::value, unsigned> modern(Connection& c, int id, const std::string& method,
                                          json::object params = {},
                                          std::optional<TransportHeaders> headers = std::nullopt) {
    params["_meta"] = modern_meta();
    return ask(c, id, method, std::move(params), std::move(headers));
  }
  // The headers a conforming HTTP client sends for `method` (and Mcp-Name `name`).
  static TransportHeaders http_headers(const std::string& method, const std::string& name = "") {
    TransportHeaders headers;
    headers.fields = {{"mcp-protocol-version", "2026-07-28"}, {"mcp-method", method}};
    if (!name.empty()) headers.fields.emplace_back("mcp-name", name);
    return headers;
  }
  // `new` in a stateless request; returns the handle the reply names.
  std::string create() {
    auto [reply, status] = modern(*connect(), 2, "tools/call",
                                  {{"name", "deck_session"}, {"arguments", {{"action", "new"}}}});
    std::smatch match;
    const auto text = text_of(reply);
    EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})")))
        << text;
    return match.size() > 1 ? match[1].str() : std::string();
  }
};

TEST_F(StatelessLifecycleTest, DiscoverNamesTheVersionCapabilitiesAndServerWithoutInitialize) {
  auto c = connect();
  auto [reply, status] = modern(*c, 5, "server/discover");
  ASSERT_TRUE(reply.as_object().contains("result")) << json::serialize(reply);
  const auto& result = reply.at("result");
  EXPECT_EQ(reply.at("id"), 5);
  EXPECT_EQ(status, 200u);
  EXPECT_EQ(result.at("supportedVersions"), (json::array{"2026-07-28"}));
  EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
  EXPECT_EQ(result.at("serverInfo").at("name"), "fcpd");
  // The _meta identity (what SDK clients read) is the whole one, title included, as initialize's.
  EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo"), result.at("serverInfo"));
  EXPECT_EQ(result.at("serverInfo").at("title"), "FCP daemon");
  EXPECT_NE(result.at("instructions").as_string().find("deck"), json::string::npos);
  EXPECT_EQ(result.at("resultType"), "complete");
  EXPECT_EQ(result.at("cacheScope"), "public");
  EXPECT_GT(result.at("ttlMs").as_int64(), 0);
  EXPECT_FALSE(c->initialized());  // no session began
}

TEST_F(StatelessLifecycleTest, ListResultsCarryResultTypeAndCachingHints) {
  auto c = connect();
  for (const std::string method : {"tools/list", "resources/list", "resources/templates/list"}) {
    auto [reply, status] = modern(*c, 2, method);
    ASSERT_TRUE(reply.as_object().contains("result")) << method << json::serialize(reply);
    const auto& result = reply.at("result").as_object();
    EXPECT_EQ(result.at("resultType"), "complete") << method;
    EXPECT_TRUE(result.at("ttlMs").is_int64()) << method;
    EXPECT_TRUE(result.contains("cacheScope")) << method;
  }
  // Documents are per principal: their resources are private and stale at once.
  auto [read, status] = modern(*c, 3, "resources/read", {{"uri", "fcp://deck/session"}});
  EXPECT_EQ(read.at("result").at("cacheScope"), "private") << json::serialize(read);
  EXPECT_EQ(read.at("result").at("ttlMs"), 0);
}

TEST_F(StatelessLifecycleTest, ToolCallsWorkThroughHandlesAndKeepNoCurrentDocument) {
  auto c = connect();
  auto [made, made_status] =
      modern(*c, 2, "tools/call", {{"name", "deck_session"}, {"arguments", {{"action", "new"}}}});
  const auto text = text_of(made);
  std::smatch match;
  ASSERT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})"))) << text;
  const std::string handle = match[1].str();
  EXPECT_EQ(made.at("result").at("resultType"), "complete");
  EXPECT_FALSE(made.at("result").as_object().contains("ttlMs"));
  // The same connection remembers no document: a call without doc has none.
  auto [bare, bare_status] =
      modern(*c, 3, "tools/call", {{"name", "deck"}, {"arguments", {{"ops", {"add A"}}}}});
  EXPECT_TRUE(bare.at("result").at("isError").as_bool()) << text_of(bare);
  EXPECT_NE(text_of(bare).find(handle), std::string::npos) << text_of(bare);
  // …said as what it is: this era has no MCP session (not "no document in this MCP session").
  EXPECT_NE(text_of(bare).find("! a 2026-07-28 request has no current document; 1 open deck "
                               "document of yours: pass a handle as the tool's doc argument"),
            std::string::npos)
      << text_of(bare);
  // The session resource does not claim that no document is open: it names the handle.
  auto [read, read_status] = modern(*c, 6, "resources/read", {{"uri", "fcp://deck/session"}});
  const auto resource = std::string(read.at("result").at("contents").at(0).at("text").as_string());
  EXPECT_EQ(resource.rfind("No current deck document: 2026-07-28 requests have none; pass a "
                           "handle as the tools' doc argument.\nOpen deck documents of yours, "
                           "latest first:\n  " +
                               handle + " \"Untitled\" file: (not saved yet)",
                           0),
            0u)
      << resource;
  // Any connection reaches it by handle, and a 2025-era session sees the same document.
  auto [added, added_status] =
      modern(*connect(), 4, "tools/call",
             {{"name", "deck"}, {"arguments", {{"ops", {"add Zeta color:red"}}, {"doc", handle}}}});
  EXPECT_FALSE(added.at("result").at("isError").as_bool()) << text_of(added);
  auto legacy = ready();
  auto listed = call(*legacy, 5, "deck_query", {{"q", "list"}, {"doc", handle}});
  EXPECT_NE(text_of(listed).find("Zeta"), std::string::npos) << text_of(listed);
  EXPECT_FALSE(listed.at("result").as_object().contains("resultType"));  // 2025 shape
}

TEST_F(StatelessLifecycleTest, RefusesMissingMetaWithInvalidParamsAnd400) {
  auto c = connect();
  auto [no_meta, status] = ask(*c, 101, "server/discover", {}, http_headers("server/discover"));
  EXPECT_EQ(error_code(no_meta), jsonrpc::code::invalid_params);
  EXPECT_EQ(no_meta.at("id"), 101);
  EXPECT_EQ(status, 400u);
  json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}};
  auto [no_caps, caps_status] = ask(*c, 104, "tools/list", {{"_meta", meta}});
  EXPECT_EQ(error_code(no_caps), jsonrpc::code::invalid_params);
  EXPECT_NE(no_caps.at("error").at("message").as_string().find("clientCapabilities"),
            json::string::npos);
}

TEST_F(StatelessLifecycleTest, RefusesUnsupportedVersionsNamingTheSupportedOnes) {
  auto c = connect();
  json::object meta = modern_meta();
  meta["io.modelcontextprotocol/protocolVersion"] = "v999.0.0";
  TransportHeaders headers = http_headers("server/discover");
  headers.fields[0].second = "v999.0.0";
  auto [reply, status] = ask(*c, 301, "server/discover", {{"_meta", meta}}, headers);
  EXPECT_EQ(error_code(reply), jsonrpc::code::unsupported_protocol_version);
  EXPECT_EQ(reply.at("error").at("data").at("supported"), (json::array{"2026-07-28"}));
  EXPECT_EQ(reply.at("error").at("data").at("requested"), "v999.0.0");
  EXPECT_EQ(reply.at("id"), 301);
  EXPECT_EQ(status, 400u);
  // A 2025-era version in _meta: served only in a session; the message says how.
  meta["io.modelcontextprotocol/protocolVersion"] = "2025-11-25";
  auto [old, old_status] = ask(*c, 302, "tools/list", {{"_meta", meta}});
  EXPECT_EQ(error_code(old), jsonrpc::code::unsupported_protocol_version);
  EXPECT_NE(old.at("error").at("message").as_string().find("initialize"), json::string::npos);
  // An unknown version in the header alone (a 2025-era client would not send it): -32022 too.
  TransportHeaders unknown;
  unknown.fields = {{"mcp-protocol-version", "1999-01-01"}};
  auto [header_only, header_status] = ask(*c, 303, "tools/list", {}, unknown);
  EXPECT_EQ(error_code(header_only), jsonrpc::code::unsupported_protocol_version);
  EXPECT_EQ(header_only.at("id"), 303);
}

TEST_F(StatelessLifecycleTest, RefusesHeadersThatDisagreeWithTheBody) {
  auto c = connect();
  const auto mismatch = [&](int id, const std::string& method, json::object params,
                            TransportHeaders headers) {
    auto [reply, status] = modern(*c, id, method, std::move(params), std::move(headers));
    EXPECT_EQ(status, 400u) << json::serialize(reply);
    EXPECT_EQ(reply.at("id"), id);
    return reply.as_object().contains("error") ? error_code(reply) : 0;
  };
  EXPECT_EQ(mismatch(1, "tools/list", {}, http_headers("prompts/list")),
            jsonrpc::code::header_mismatch);
  TransportHeaders no_method;
  no_method.fields = {{"mcp-protocol-version", "2026-07-28"}};
  EXPECT_EQ(mismatch(2, "tools/list", {}, no_method), jsonrpc::code::header_mismatch);
  EXPECT_EQ(mismatch(3, "tools/list", {}, http_headers("TOOLS/LIST")),
            jsonrpc::code::header_mismatch);
  const json::object help{{"name", "deck_help"}, {"arguments", json::object{}}};
  EXPECT_EQ(mismatch(4, "tools/call", help, http_headers("tools/call", "wrong_tool")),
            jsonrpc::code::header_mismatch);
  EXPECT_EQ(mismatch(5, "tools/call", help, http_headers("tools/call")),
            jsonrpc::code::header_mismatch);
  // _meta names one version, the header another.
  auto headers = http_headers("tools/list");
  headers.fields[0].second = "2025-11-25";
  EXPECT_EQ(mismatch(6, "tools/list", {}, headers), jsonrpc::code::header_mismatch);
  TransportHeaders no_version;
  no_version.fields = {{"mcp-method", "tools/list"}};
  EXPECT_EQ(mismatch(8, "tools/list", {}, no_version), jsonrpc::code::header_mismatch);
  auto [fine, status] = modern(*c, 7, "tools/call", help, http_headers("tools/call", "deck_help"));
  EXPECT_EQ(status, 200u) << json::serialize(fine);
  EXPECT_FALSE(fine.at("result").at("isError").as_bool());
}

TEST_F(StatelessLifecycleTest, ChecksTheDocHeaderMirroredFromTheDocArgument) {
  const auto handle = create();
  ASSERT_FALSE(handle.empty());
  auto c = connect();
  const json::object params{{"name", "deck_query"},
                            {"arguments", json::object{{"q", "stats"}, {"doc", handle}}}};
  const auto with_doc = [&](std::optional<std::string> value) {
    auto headers = http_headers("tools/call", "deck_query");
    if (value) headers.fields.emplace_back("mcp-param-doc", *value);
    return modern(*c, 9, "tools/call", params, headers);
  };
  EXPECT_EQ(with_doc(handle).second, 200u);
  EXPECT_EQ(with_doc("=?base64?" + base64_encode(handle) + "?=").second, 200u);
  for (const auto& wrong : std::vector<std::optional<std::string>>{
           std::optional<std::string>(), std::optional<std::string>("doc:de-other"),
           std::optional<std::string>("=?base64?ZG9j?"),
           std::optional<std::string>("=?base64?SGVsbG8?="),
           std::optional<std::string>("=?base64?SGVs!!!bG8=?=")}) {
    auto [reply, status] = with_doc(wrong);
    EXPECT_EQ(status, 400u) << wrong.value_or("(none)");
    EXPECT_EQ(error_code(reply), jsonrpc::code::header_mismatch) << json::serialize(reply);
  }
  // The header without the argument is a mismatch too.
  auto headers = http_headers("tools/call", "deck_help");
  headers.fields.emplace_back("mcp-param-doc", handle);
  auto [stray, stray_status] =
      modern(*c, 10, "tools/call", {{"name", "deck_help"}, {"arguments", json::object{}}}, headers);
  EXPECT_EQ(error_code(stray), jsonrpc::code::header_mismatch);
}

TEST_F(StatelessLifecycleTest, RemovedAndUnknownMethodsAre404MethodNotFound) {
  auto c = connect();
  for (const std::string method :
       {"initialize", "ping", "logging/setLevel", "resources/subscribe", "unknown/method"}) {
    auto [reply, status] = modern(*c, 500, method, {}, http_headers(method));
    EXPECT_EQ(status, 404u) << method;
    EXPECT_EQ(error_code(reply), jsonrpc::code::method_not_found) << method;
    EXPECT_EQ(reply.at("id"), 500);
  }
  EXPECT_FALSE(c->initialized());
}

TEST_F(StatelessLifecycleTest, TheTwoErasStayApartOnOneConnection) {
  // A 2025-era session: its replies keep the 2025 shape and no HTTP status.
  auto legacy = ready();
  auto [listed, status] = ask(*legacy, 2, "tools/list", {});
  EXPECT_EQ(status, 0u);
  EXPECT_FALSE(listed.at("result").as_object().contains("resultType"));
  // A stateless request on it is refused: its era was fixed by initialize.
  auto [mixed, mixed_status] = modern(*legacy, 3, "tools/list");
  EXPECT_EQ(error_code(mixed), jsonrpc::code::invalid_request);
  EXPECT_NE(mixed.at("error").at("message").as_string().find("2025-11-25"), json::string::npos);
}

TEST_F(StatelessLifecycleTest, LogsOnlyWhenTheRequestAsksForALevel) {
  auto c = connect();
  const json::object bad_ops{{"name", "deck"},
                             {"arguments", json::object{{"ops", json::array{"nonsense"}}}}};
  auto quiet = std::make_shared<HttpLikeResponder>();
  json::object params = bad_ops;
  params["_meta"] = modern_meta();
  c->handle(json::serialize(json::object{
                {"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}, {"params", params}}),
            quiet);
  quiet->wait();
  EXPECT_TRUE(quiet->notifications.empty());
  auto loud = std::make_shared<HttpLikeResponder>();
  params["_meta"].as_object()["io.modelcontextprotocol/logLevel"] = "debug";
  c->handle(json::serialize(json::object{
                {"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/call"}, {"params", params}}),
            loud);
  loud->wait();
  ASSERT_FALSE(loud->notifications.empty());
  EXPECT_EQ(loud->notifications[0].at("method"), "notifications/message");
}

TEST(LifecycleTest, Base64DecodingIsStrict) {
  EXPECT_EQ(base64_decode("SGVsbG8="), std::optional<std::string>("Hello"));
  EXPECT_EQ(base64_decode(""), std::optional<std::string>(""));
  EXPECT_EQ(base64_decode(base64_encode("doc:de-1")), std::optional<std::string>("doc:de-1"));
  for (const char* bad : {"SGVsbG8", "SGVs!!!bG8=", "SG=sbG8=", "S===", "SGVsbG8=="})
    EXPECT_FALSE(base64_decode(bad)) << bad;
}

TEST(LifecycleTest, AMissingClientCapabilityIsNamedInRequiredCapabilities) {
  const json::object required{{"sampling", json::object{}}};
  EXPECT_FALSE(lifecycle::check_client_capabilities(required, required));
  auto refusal = lifecycle::check_client_capabilities(required, {{"elicitation", json::object{}}});
  ASSERT_TRUE(refusal);
  EXPECT_EQ(refusal->code, jsonrpc::code::missing_client_capability);
  EXPECT_EQ(refusal->data.at("requiredCapabilities"), required);
  EXPECT_EQ(jsonrpc::http_status_of(refusal->code), 400u);
}

TEST(LifecycleTest, ChoosesTheEraFromMetaMethodAndVersionHeader) {
  jsonrpc::Incoming message;
  message.method = "tools/list";
  EXPECT_EQ(lifecycle::era_of(message, nullptr, false), lifecycle::Era::session);
  TransportHeaders headers;
  headers.fields = {{"mcp-protocol-version", "2025-06-18"}};
  EXPECT_EQ(lifecycle::era_of(message, &headers, false), lifecycle::Era::session);
  headers.fields[0].second = "2026-07-28";
  EXPECT_EQ(lifecycle::era_of(message, &headers, false), lifecycle::Era::stateless);
  message.params["_meta"] = json::object{{"progressToken", 1}};
  EXPECT_EQ(lifecycle::era_of(message, nullptr, false), lifecycle::Era::session);
  message.params["_meta"] = modern_meta();
  EXPECT_EQ(lifecycle::era_of(message, nullptr, false), lifecycle::Era::stateless);
  message.params = {};
  message.method = "server/discover";
  EXPECT_EQ(lifecycle::era_of(message, nullptr, false), lifecycle::Era::stateless);
  // Inside a 2025-era session server/discover without _meta is an unknown method, as before.
  EXPECT_EQ(lifecycle::era_of(message, nullptr, true), lifecycle::Era::session);
}

}  // namespace
}  // namespace fcp::mcp

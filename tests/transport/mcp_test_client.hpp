// What the end-to-end tests of the real transports and MCP server (deck test domain) share: the
// JSON-RPC messages they send, reading a reply, a line client that asks and reads JSON, and a
// fixture serving one MCP server over TCP and HTTP on loopback.
#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <optional>
#include <regex>
#include <string>

#include "http_client.hpp"
#include "mcp/server.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"
#include "transport/http.hpp"
#include "transport/tcp.hpp"
#include "transport_test_support.hpp"

namespace fcp::transport::testing {

inline std::string message(int id, const std::string& method, boost::json::object params = {}) {
  return boost::json::serialize(boost::json::object{
      {"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
}

// A 2025-11-25 initialize; with `token`, the token in params `fcp.token` or, `in_meta`, in
// `_meta["fcp/token"]`.
inline std::string initialize(int id, const std::optional<std::string>& token = std::nullopt,
                              bool in_meta = false) {
  boost::json::object params{{"protocolVersion", "2025-11-25"}};
  if (token && in_meta) params["_meta"] = boost::json::object{{"fcp/token", *token}};
  if (token && !in_meta) params["fcp"] = boost::json::object{{"token", *token}};
  return message(id, "initialize", std::move(params));
}

inline std::string tool_call(int id, const std::string& tool, boost::json::object arguments) {
  return message(id, "tools/call", {{"name", tool}, {"arguments", std::move(arguments)}});
}

// The text of a tools/call reply (its first content).
inline std::string text_of(const boost::json::value& reply) {
  return std::string(reply.at("result").at("content").at(0).at("text").as_string());
}

// The deck document handle a session reply names ("" and a failure when none).
inline std::string handle_in(const std::string& text) {
  std::smatch match;
  EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})"))) << text;
  return match.size() > 1 ? match[1].str() : std::string();
}

// A line client (TCP) that sends one JSON-RPC message and reads JSON messages.
class JsonLineClient : public LineClient {
 public:
  using LineClient::LineClient;
  // Sends `text` and reads the next message (its answer when nothing else is pending).
  boost::json::value ask(const std::string& text) {
    send(text + "\n");
    return next();
  }
  boost::json::value next() { return boost::json::parse(read_line()); }
};

// One MCP server of the deck test domain with `options`, on TCP and on HTTP with `http`
// (loopback, ports the system picks).
class DeckServerTest : public ::testing::Test {
 protected:
  explicit DeckServerTest(const mcp::ServerOptions& options = {}, const HttpOptions& http = {})
      : domain_(fcp::testing::make_deck_domain()) {
    server_ = std::make_unique<mcp::Server>(
        io_.io.get_executor(), std::vector<const core::Domain*>{domain_.get()}, paths_, options);
    const boost::asio::ip::tcp::endpoint loopback(boost::asio::ip::make_address("127.0.0.1"), 0);
    tcp_ = std::make_unique<TcpServer>(io_.io, *server_, loopback, Limits{});
    http_ = std::make_unique<HttpServer>(io_.io, *server_, loopback, http);
    EXPECT_TRUE(tcp_->start());
    EXPECT_TRUE(http_->start());
  }
  ~DeckServerTest() override {
    tcp_->stop();
    http_->stop();
    io_.stop();  // before server_ goes: the connections closing now still reach it
  }
  JsonLineClient line_client() { return JsonLineClient(io_.io, tcp_->local_endpoint()); }
  HttpClient http_client() { return HttpClient(io_.io, http_->local_endpoint()); }

  IoThreads io_;
  fcp::testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  std::unique_ptr<mcp::Server> server_;
  std::unique_ptr<TcpServer> tcp_;
  std::unique_ptr<HttpServer> http_;
};

}  // namespace fcp::transport::testing

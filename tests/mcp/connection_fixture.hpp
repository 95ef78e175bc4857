// A Server with the test domain and a ClientConnection driven without a transport, shared by
// the tests of tests/mcp.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/thread_pool.hpp>
#include <boost/json.hpp>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>

#include "mcp/client_connection.hpp"
#include "mcp/server.hpp"
#include "tests/support/test_domain.hpp"

namespace fcp::mcp::test_support {

namespace json = boost::json;
using namespace std::chrono_literals;

class AllowTemp final : public core::PathPolicy {
 public:
  core::Result<std::filesystem::path> for_reading(std::string_view p) const override {
    return std::filesystem::temp_directory_path() / p;
  }
  core::Result<std::filesystem::path> for_writing(std::string_view p) const override {
    return std::filesystem::temp_directory_path() / p;
  }
};

// Records what the connection sends back for one message.
class RecordingResponder final : public Responder {
 public:
  void notify(std::string message) override {
    std::lock_guard lock(mutex_);
    notifications.push_back(json::parse(message));
  }
  void reply(std::string message) override { finish(json::parse(message)); }
  void no_reply() override { finish(nullptr); }

  json::value wait() {
    std::unique_lock lock(mutex_);
    EXPECT_TRUE(done_.wait_for(lock, 10s, [this] { return finished_; })) << "no answer";
    return answer_;
  }
  std::vector<json::value> notifications;

 private:
  void finish(json::value answer) {
    std::lock_guard lock(mutex_);
    EXPECT_FALSE(finished_) << "answered twice";
    answer_ = std::move(answer);
    finished_ = true;
    done_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable done_;
  bool finished_ = false;
  json::value answer_;
};

class ConnectionTest : public ::testing::Test {
 protected:
  explicit ConnectionTest(ServerOptions options = {})
      : domain_(testing::make_deck_domain()),
        server_(workers_.get_executor(), {domain_.get()}, paths_, std::move(options)) {}
  ~ConnectionTest() override {
    for (auto& c : connections_)
      c->close();
    workers_.join();
  }

  std::shared_ptr<Connection> connect(std::optional<std::string> session = std::nullopt) {
    connections_.push_back(
        server_.connect(ConnectionInfo{"test", "peer", std::move(session), std::nullopt}, nullptr));
    return connections_.back();
  }
  json::value send(Connection& c, const std::string& text,
                   std::shared_ptr<RecordingResponder> responder = nullptr) {
    if (!responder) responder = std::make_shared<RecordingResponder>();
    c.handle(text, responder);
    return responder->wait();
  }
  json::value request(Connection& c, int id, std::string method, json::object params = {}) {
    json::object message{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}};
    return send(c, json::serialize(message));
  }
  std::shared_ptr<Connection> ready(std::optional<std::string> session = std::nullopt) {
    auto c = connect(std::move(session));
    auto reply = request(*c, 1, "initialize", {{"protocolVersion", "2025-11-25"}});
    EXPECT_TRUE(reply.as_object().contains("result")) << json::serialize(reply);
    return c;
  }
  json::value call(Connection& c, int id, std::string tool, json::object arguments) {
    return request(c, id, "tools/call", {{"name", tool}, {"arguments", arguments}});
  }
  // `deck` with `ops` and a progress token; `responder` keeps the notifications. Returns the reply.
  json::value call_with_progress(Connection& c, int id, json::array ops, json::value token,
                                 std::shared_ptr<RecordingResponder> responder) {
    json::object params{{"name", "deck"},
                        {"arguments", json::object{{"ops", std::move(ops)}}},
                        {"_meta", json::object{{"progressToken", std::move(token)}}}};
    json::object message{
        {"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", std::move(params)}};
    return send(c, json::serialize(message), std::move(responder));
  }
  // PREFIX0 SUFFIX, PREFIX1 SUFFIX, ...
  static json::array numbered_ops(std::string_view prefix, int count,
                                  std::string_view suffix = "") {
    json::array ops;
    for (int i = 0; i < count; ++i)
      ops.emplace_back(std::string(prefix) + std::to_string(i) + std::string(suffix));
    return ops;
  }
  static std::string text_of(const json::value& reply) {
    return std::string(reply.at("result").at("content").at(0).at("text").as_string());
  }
  static int error_code(const json::value& reply) {
    return static_cast<int>(reply.at("error").at("code").as_int64());
  }

  boost::asio::thread_pool workers_{2};
  AllowTemp paths_;
  std::unique_ptr<core::Domain> domain_;
  Server server_;
  std::vector<std::shared_ptr<Connection>> connections_;
};

}  // namespace fcp::mcp::test_support

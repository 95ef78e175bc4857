// In-test MCP servers on 127.0.0.1 (ephemeral port): a scripted "daemon" that answers
// initialize, tools/list and tools/call over newline-delimited TCP or Streamable HTTP, so the
// real client code can be driven end to end. Each serves one connection at a time on its own
// thread and records what it received.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace fcp::cli::testing_support {

namespace asio = boost::asio;
namespace http = boost::beast::http;
namespace json = boost::json;

// How the fake daemon treats tools/call.
enum class CallBehaviour {
  answer,   // answer as described in fake_replies()
  hang_up,  // close the connection instead of answering
  ignore,   // never answer (the client must time out)
};

// The tools of a small domain named "drawio" with the four shapes of mcp.md.
inline json::array fake_tools() {
  auto ops = json::parse(R"({"type":"object","properties":{"ops":{"type":"array",
      "items":{"type":"string"}}},"required":["ops"]})");
  auto q = json::parse(R"({"type":"object","properties":{"q":{"type":"string"}}})");
  auto action = json::parse(R"({"type":"object","properties":{"action":{"type":"string"}}})");
  auto none = json::parse(R"({"type":"object"})");
  return json::array{json::object{{"name", "drawio"}, {"inputSchema", ops}},
                     json::object{{"name", "drawio_query"}, {"inputSchema", q}},
                     json::object{{"name", "drawio_session"}, {"inputSchema", action}},
                     json::object{{"name", "drawio_help"}, {"inputSchema", none}}};
}

inline json::object text_result(const std::string& text, bool is_error) {
  return json::object{{"content", json::array{json::object{{"type", "text"}, {"text", text}}}},
                      {"isError", is_error}};
}

// drawio: "+ OP" per op, or isError naming "op N" for the first op starting with "bad".
inline json::object fake_drawio(const json::array& ops) {
  std::string text;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    std::string op(ops[i].as_string());
    if (op.starts_with("bad")) {
      return text_result("! op " + std::to_string(i + 1) + " failed: unknown verb 'bad'\n  " +
                             std::to_string(i) + " earlier ops were rolled back",
                         true);
    }
    text += (text.empty() ? "+ " : "\n+ ") + op;
  }
  return text_result(text, false);
}

inline json::value fake_call_result(const json::object& params) {
  std::string name(params.at("name").as_string());
  const auto& args = params.at("arguments").as_object();
  if (name == "drawio") return fake_drawio(args.at("ops").as_array());
  if (name == "drawio_query" && args.at("q").as_string() == "png") {
    auto result = text_result("@ rendered", false);
    result["content"].as_array().push_back(
        json::object{{"type", "image"}, {"mimeType", "image/png"}, {"data", "UE5HREFUQQ=="}});
    return result;
  }
  if (name == "drawio_query")
    return text_result("q=" + std::string(args.at("q").as_string()), false);
  if (name == "drawio_session") {
    return text_result("action=" + std::string(args.at("action").as_string()), false);
  }
  return text_result("help with " + std::to_string(args.size()) + " arguments", false);
}

inline std::string reply(const json::value& id, json::object body) {
  body["jsonrpc"] = "2.0";
  body["id"] = id;
  return json::serialize(body);
}

// The messages the fake sends for one incoming message, in order; notifications precede a
// tools/call reply so the client has to skip them.
inline std::vector<std::string> fake_replies(const json::object& message) {
  if (!message.contains("id")) return {};
  const auto& id = message.at("id");
  std::string method(message.at("method").as_string());
  const auto* params = message.if_contains("params");
  if (method == "initialize") {
    return {reply(id, {{"result",
                        {{"protocolVersion", "2025-11-25"},
                         {"capabilities", {{"tools", json::object{}}}},
                         {"serverInfo", {{"name", "fake"}, {"version", "1"}}}}}})};
  }
  if (method == "tools/list") return {reply(id, {{"result", {{"tools", fake_tools()}}}})};
  if (method != "tools/call") return {reply(id, {{"result", json::object{}}})};
  std::string name(params->at("name").as_string());
  if (!name.starts_with("drawio")) {
    return {reply(id, {{"error", {{"code", -32602}, {"message", "Unknown tool: " + name}}}})};
  }
  return {
      R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}})",
      R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"fcp","progress":1,"total":2}})",
      reply(id, {{"result", fake_call_result(params->as_object())}})};
}

// Records received messages and HTTP headers; thread-safe.
class Recorder {
 public:
  void add(json::object message) {
    std::lock_guard lock(mutex_);
    messages_.push_back(std::move(message));
  }
  std::vector<json::object> messages() const {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  std::vector<json::object> calls() const {
    std::vector<json::object> result;
    for (auto& message : messages()) {
      if (message.contains("method") && message.at("method") == "tools/call") {
        result.push_back(message);
      }
    }
    return result;
  }

 protected:
  mutable std::mutex mutex_;
  std::vector<json::object> messages_;
};

// Base: an acceptor on 127.0.0.1:0 and an io_context thread, stopped by the destructor.
class FakeServerBase : public Recorder {
 public:
  explicit FakeServerBase(CallBehaviour behaviour)
      : behaviour_(behaviour), acceptor_(io_, {asio::ip::make_address("127.0.0.1"), 0}) {}
  virtual ~FakeServerBase() { stop(); }
  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

 protected:
  template <class Session>
  void start(Session session) {
    asio::co_spawn(io_, std::move(session), asio::detached);
    thread_ = std::thread([this] { io_.run(); });
  }
  void stop() {
    io_.stop();
    if (thread_.joinable()) thread_.join();
  }

  CallBehaviour behaviour_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

// Newline-delimited JSON-RPC over TCP, like `fcpd --tcp`.
class FakeTcpServer : public FakeServerBase {
 public:
  explicit FakeTcpServer(CallBehaviour behaviour = CallBehaviour::answer)
      : FakeServerBase(behaviour) {
    start(serve());
  }
  ~FakeTcpServer() override { stop(); }
  std::string url() const { return "tcp://127.0.0.1:" + std::to_string(port()); }

 private:
  asio::awaitable<void> serve() {
    for (;;) {
      auto [accept_error, socket] =
          co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
      if (accept_error) co_return;
      boost::system::error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);  // several small writes per reply
      co_await converse(socket);
    }
  }

  static asio::awaitable<std::optional<json::object>> read_message(asio::ip::tcp::socket& socket,
                                                                   std::string& buffer) {
    auto [ec, n] = co_await asio::async_read_until(socket, asio::dynamic_buffer(buffer), '\n',
                                                   asio::as_tuple(asio::use_awaitable));
    if (ec) co_return std::nullopt;
    auto message = json::parse(std::string_view(buffer).substr(0, n - 1)).as_object();
    buffer.erase(0, n);
    co_return message;
  }

  static asio::awaitable<void> write_line(asio::ip::tcp::socket& socket, const std::string& line) {
    co_await asio::async_write(socket, asio::buffer(line + "\n"),
                               asio::as_tuple(asio::use_awaitable));
  }

  // Before answering drawio_help, asks the client two questions and waits for both answers,
  // so a test can check them as soon as the client is done.
  asio::awaitable<bool> interrogate(asio::ip::tcp::socket& socket, std::string& buffer) {
    co_await write_line(socket, R"({"jsonrpc":"2.0","id":"srv-1","method":"ping"})");
    co_await write_line(socket, R"({"jsonrpc":"2.0","id":"srv-2","method":"roots/list"})");
    for (int answers = 0; answers < 2; ++answers) {
      auto answer = co_await read_message(socket, buffer);
      if (!answer) co_return false;
      add(*answer);
    }
    co_return true;
  }

  asio::awaitable<void> converse(asio::ip::tcp::socket& socket) {
    std::string buffer;
    for (;;) {
      std::optional<json::object> message = co_await read_message(socket, buffer);
      if (!message) co_return;
      add(*message);
      bool is_call = message->at("method") == "tools/call";
      if (is_call && behaviour_ == CallBehaviour::hang_up) co_return;
      if (is_call && behaviour_ == CallBehaviour::ignore) continue;
      bool ask_first = is_call && message->at("params").at("name") == "drawio_help";
      bool answered = true;
      if (ask_first) answered = co_await interrogate(socket, buffer);
      if (!answered) co_return;
      std::vector<std::string> replies = fake_replies(*message);
      for (const auto& line : replies)
        co_await write_line(socket, line);
    }
  }
};

// MCP Streamable HTTP on /mcp: JSON replies for initialize and tools/list, SSE for tools/call.
class FakeHttpServer : public FakeServerBase {
 public:
  struct SeenRequest {
    std::string method;  // HTTP verb
    std::string target, session_id, fcp_session, protocol_version, accept, content_type;
  };

  explicit FakeHttpServer(CallBehaviour behaviour = CallBehaviour::answer)
      : FakeServerBase(behaviour) {
    start(serve());
  }
  ~FakeHttpServer() override { stop(); }
  std::string url(const std::string& path = "/mcp") const {
    return "http://127.0.0.1:" + std::to_string(port()) + path;
  }
  std::vector<SeenRequest> requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  using Request = http::request<http::string_body>;
  using Response = http::response<http::string_body>;

  asio::awaitable<void> serve() {
    for (;;) {
      auto [accept_error, socket] =
          co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
      if (accept_error) co_return;
      boost::system::error_code ignored;
      socket.set_option(asio::ip::tcp::no_delay(true), ignored);  // several small writes per reply
      co_await converse(socket);
    }
  }

  asio::awaitable<void> converse(asio::ip::tcp::socket& socket) {
    boost::beast::flat_buffer buffer;
    for (;;) {
      Request request;
      auto [ec, n] =
          co_await http::async_read(socket, buffer, request, asio::as_tuple(asio::use_awaitable));
      if (ec) co_return;
      record(request);
      auto response = respond(request);
      if (!response) co_return;  // hang up
      response->keep_alive(request.keep_alive());
      response->prepare_payload();
      co_await http::async_write(socket, *response, asio::as_tuple(asio::use_awaitable));
    }
  }

  void record(const Request& request) {
    std::lock_guard lock(mutex_);
    requests_.push_back(SeenRequest{
        std::string(request.method_string()), std::string(request.target()),
        std::string(request["Mcp-Session-Id"]), std::string(request["Fcp-Session"]),
        std::string(request["MCP-Protocol-Version"]), std::string(request[http::field::accept]),
        std::string(request[http::field::content_type])});
  }

  static Response make(http::status status, const std::string& type, std::string body) {
    Response response{status, 11};
    if (!type.empty()) response.set(http::field::content_type, type);
    response.body() = std::move(body);
    return response;
  }

  std::optional<Response> respond(const Request& request) {
    if (request.target() != "/mcp")
      return make(http::status::not_found, "text/plain", "no such path");
    if (request.method() == http::verb::delete_) return make(http::status::ok, "", "");
    auto message = json::parse(request.body()).as_object();
    add(message);
    bool is_call = message.at("method") == "tools/call";
    if (is_call && behaviour_ == CallBehaviour::hang_up) return std::nullopt;
    auto replies = fake_replies(message);
    if (replies.empty()) return make(http::status::accepted, "", "");
    if (replies.size() == 1) {
      auto response = make(http::status::ok, "application/json", replies.front());
      if (message.at("method") == "initialize") response.set("Mcp-Session-Id", "session-42");
      return response;
    }
    // An SSE stream: a comment, notifications, then the reply, with CRLF line ends.
    std::string body = ": stream opened\r\n\r\n";
    int event_id = 0;
    for (const auto& line : replies) {
      body +=
          "id: " + std::to_string(++event_id) + "\r\nevent: message\r\ndata: " + line + "\r\n\r\n";
    }
    return make(http::status::ok, "text/event-stream", body);
  }

  std::vector<SeenRequest> requests_;
};

}  // namespace fcp::cli::testing_support

// A MessageChannel over MCP Streamable HTTP: each message is one POST; replies come back as
// application/json or as an SSE stream; the session lives in the Mcp-Session-Id header.
#pragma once

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <deque>
#include <optional>
#include <string>

#include "cli/endpoint.hpp"
#include "cli/message_channel.hpp"
#include "cli/net_stream.hpp"
#include "cli/sse.hpp"

namespace fcp::cli {

// send() posts the message and reads the response head (and a JSON body) within the request
// timeout; receive() hands out the queued messages, reading further SSE events as needed.
// A stream still open when the next message is sent is abandoned by reconnecting.
class HttpChannel final : public MessageChannel {
 public:
  // Connects lazily on the first send. `session_name` becomes the Fcp-Session header.
  // `token` becomes `Authorization: Bearer TOKEN`.
  HttpChannel(Endpoint endpoint, std::optional<std::string> session_name,
              std::chrono::milliseconds timeout, std::optional<std::string> token = std::nullopt);
  ~HttpChannel() override { close(); }

  void send(const std::string& message) override;
  std::string receive(std::chrono::milliseconds timeout) override;
  // Sends DELETE for the MCP session (errors ignored), then disconnects.
  void close() noexcept override;
  void set_protocol_version(const std::string& version) override { protocol_version_ = version; }

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;
  using Parser = boost::beast::http::response_parser<boost::beast::http::string_body>;

  Request make_request(boost::beast::http::verb method, const std::string& body) const;
  // Writes the request and reads the response head, reconnecting once if a kept-alive
  // connection turns out to be closed by the server.
  void exchange_head(const Request& request, std::chrono::milliseconds timeout);
  void handle_response_head();
  void read_whole_body(std::chrono::milliseconds timeout);
  // Reads more of an SSE body and queues its messages; false once the body has ended.
  bool read_stream(std::chrono::milliseconds timeout);
  void feed_sse();
  void finish_response();
  void check(const boost::beast::error_code& ec, std::chrono::milliseconds timeout) const;

  Endpoint endpoint_;
  std::optional<std::string> session_name_;
  std::chrono::milliseconds timeout_;
  std::optional<std::string> token_;
  std::string session_id_;        // Mcp-Session-Id issued on the initialize reply
  std::string protocol_version_;  // sent as MCP-Protocol-Version once negotiated
  NetStream net_;
  boost::beast::flat_buffer buffer_;
  std::optional<Parser> parser_;
  SseParser sse_;
  bool streaming_ = false;  // an SSE body is still being read
  std::deque<std::string> inbox_;
  bool closed_ = false;
};

}  // namespace fcp::cli

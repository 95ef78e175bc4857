// A Beast HTTP client for the transport tests; every operation has a timeout.
#pragma once

#include <fmt/format.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <string>

#include "transport_test_support.hpp"

namespace fcp::transport::testing {

namespace beast = boost::beast;
namespace http = beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

class HttpClient {
 public:
  HttpClient(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint)
      : stream_(io), host_(fmt::format("127.0.0.1:{}", endpoint.port())) {
    stream_.socket().connect(endpoint);
  }

  // A request to /mcp with the headers a conforming client sends.
  Request make(http::verb method, std::string body = {}, const std::string& session = {}) const {
    Request request{method, "/mcp", 11};
    request.set(http::field::host, host_);
    request.set(http::field::accept, "application/json, text/event-stream");
    if (method == http::verb::post) request.set(http::field::content_type, "application/json");
    if (!session.empty()) request.set("Mcp-Session-Id", session);
    request.body() = std::move(body);
    request.prepare_payload();
    return request;
  }
  Request post(std::string body, const std::string& session = {}) const {
    return make(http::verb::post, std::move(body), session);
  }

  Response send(Request request) {
    write(request);
    return read();
  }
  void write_raw(const std::string& bytes) {
    await(boost::asio::async_write(stream_, boost::asio::buffer(bytes), boost::asio::use_future));
  }
  void write(Request& request) {
    await(http::async_write(stream_, request, boost::asio::use_future));
  }
  Response read() {
    Response response;
    await(http::async_read(stream_, buffer_, response, boost::asio::use_future));
    return response;
  }

  // Streams: read the header, then body text until it contains `needle`.
  void read_stream_header() {
    parser_.emplace();
    parser_->body_limit(boost::none);
    await(http::async_read_header(stream_, buffer_, *parser_, boost::asio::use_future));
  }
  const http::response_parser<http::string_body>& stream() const { return *parser_; }
  std::string read_stream_until(std::string_view needle) {
    auto& body = parser_->get().body();
    while (body.find(needle) == std::string::npos) {
      await(http::async_read_some(stream_, buffer_, *parser_, boost::asio::use_future));
    }
    return body;
  }

  // Streams: body text until `needle` occurs `times` times.
  std::string read_stream_until_count(std::string_view needle, std::size_t times) {
    auto& body = parser_->get().body();
    const auto occurrences = [&body, needle] {
      std::size_t n = 0;
      for (auto at = body.find(needle); at != std::string::npos; at = body.find(needle, at + 1))
        ++n;
      return n;
    };
    while (occurrences() < times) {
      await(http::async_read_some(stream_, buffer_, *parser_, boost::asio::use_future));
    }
    return body;
  }

  // Streams: the whole body, once the server has ended the response (its last chunk).
  std::string read_stream_to_end() {
    while (!parser_->is_done()) {
      await(http::async_read_some(stream_, buffer_, *parser_, boost::asio::use_future));
    }
    return parser_->get().body();
  }

  // True when the server closed the connection.
  bool closed_by_server() {
    try {
      read();
      return false;
    } catch (const boost::system::system_error&) {
      return true;
    }
  }
  void close() { stream_.socket().close(); }
  const std::string& host() const { return host_; }

 private:
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::string host_;
  std::optional<http::response_parser<http::string_body>> parser_;
};

}  // namespace fcp::transport::testing

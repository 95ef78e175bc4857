// MCP client connections to fcpd as the benchmark drives them: newline-delimited JSON-RPC over
// stdio pipes or TCP, and Streamable HTTP. Every operation is bounded by a Watchdog timeout.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "bench/roundtrip/watchdog.hpp"

namespace fcp::bench {

class Channel {
 public:
  virtual ~Channel() = default;
  // Sends one serialized JSON-RPC request and returns the response carrying `id`; notifications
  // the server sends in between are skipped.
  virtual asio::awaitable<json::value> request(std::string_view body, std::int64_t id) = 0;
  // Sends one serialized JSON-RPC notification.
  virtual asio::awaitable<void> notify(std::string_view body) = 0;
  // The protocol version initialize negotiated (HTTP repeats it on every later request).
  virtual void set_protocol_version(const std::string&) {}
  // How many times the server closed a connection the client had to reopen.
  virtual std::size_t reconnects() const { return 0; }
};

// Newline-delimited JSON-RPC: one message per line.
class LineChannel : public Channel {
 public:
  asio::awaitable<json::value> request(std::string_view body, std::int64_t id) override;
  asio::awaitable<void> notify(std::string_view body) override;

 protected:
  LineChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout);
  // Closes the streams so a pending operation fails (the watchdog's action).
  virtual void close() = 0;
  virtual asio::awaitable<void> write_text(const std::string& text) = 0;
  virtual asio::awaitable<std::size_t> read_until_newline(std::string& buffer) = 0;
  [[noreturn]] void fail(const std::exception& e, const char* doing) const;

  Watchdog watchdog_;

 private:
  asio::awaitable<std::string> read_line();
  std::string buffer_;
};

// MCP over a spawned daemon's stdin and stdout.
class StdioChannel final : public LineChannel {
 public:
  StdioChannel(const asio::any_io_executor& executor, int to_daemon, int from_daemon,
               std::chrono::milliseconds timeout);
  ~StdioChannel() override;

 private:
  void close() override;
  asio::awaitable<void> write_text(const std::string& text) override;
  asio::awaitable<std::size_t> read_until_newline(std::string& buffer) override;

  asio::posix::stream_descriptor to_daemon_;
  asio::posix::stream_descriptor from_daemon_;
};

// MCP over a TCP connection (what the fcp CLI speaks).
class TcpChannel final : public LineChannel {
 public:
  TcpChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout);
  ~TcpChannel() override;
  asio::awaitable<void> connect(const asio::ip::tcp::endpoint& endpoint);
  // Ends the connection as a polite client does: stops sending, then waits until the server has
  // closed its side (it has then also let go of the client's named session).
  asio::awaitable<void> close_gracefully();

 private:
  void close() override;
  asio::awaitable<void> write_text(const std::string& text) override;
  asio::awaitable<std::size_t> read_until_newline(std::string& buffer) override;

  asio::ip::tcp::socket socket_;
};

// MCP Streamable HTTP: each message POSTed to the endpoint on one keep-alive connection; replies
// come back as application/json or as a text/event-stream.
class HttpChannel final : public Channel {
 public:
  HttpChannel(const asio::any_io_executor& executor, std::chrono::milliseconds timeout);
  ~HttpChannel() override;
  asio::awaitable<void> connect(const asio::ip::tcp::endpoint& endpoint, std::string target);

  asio::awaitable<json::value> request(std::string_view body, std::int64_t id) override;
  asio::awaitable<void> notify(std::string_view body) override;
  void set_protocol_version(const std::string& version) override { protocol_version_ = version; }
  std::size_t reconnects() const override { return reconnects_; }

 private:
  struct Reply {
    unsigned status = 0;
    std::string content_type;
    std::string session_id;
    std::string body;
    bool keep_alive = true;
  };
  asio::awaitable<Reply> post(std::string_view body);
  asio::awaitable<Reply> exchange(std::string_view body);
  void close();

  asio::ip::tcp::socket socket_;
  Watchdog watchdog_;
  beast::flat_buffer buffer_;
  asio::ip::tcp::endpoint endpoint_;
  std::string target_;
  std::string host_;
  std::string session_id_;
  std::string protocol_version_;
  bool open_ = false;
  std::size_t reconnects_ = 0;
};

}  // namespace fcp::bench

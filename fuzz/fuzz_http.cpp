// libFuzzer target: the HTTP request path. The input is what one client writes on one TCP
// connection to a real transport::HttpServer (Beast's parser with fcpd's limits, the request
// checks, sessions, SSE, DELETE) in front of a real mcp::Server hosting the test domain "deck".
// "@SID@" in the input is replaced by the id of a session initialized for this input, so that
// the paths behind a valid Mcp-Session-Id are reached too. Checked: the server answers or
// closes (never hangs past the read timeout) and survives every input.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "mcp/server.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"
#include "transport/http.hpp"

namespace {

constexpr std::string_view kSessionToken = "@SID@";

// A blocking loopback client: connects, writes everything, half-closes, reads until the server
// closes or goes quiet for the timeout.
std::string send_request(std::uint16_t port, std::string_view request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) std::abort();
  timeval timeout{0, 500'000};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string response;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return response;
  }
  for (std::size_t sent = 0; sent < request.size();) {
    const auto n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  ::shutdown(fd, SHUT_WR);
  char buffer[4096];
  for (;;) {
    const auto n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    response.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return response;
}

std::string session_id(std::uint16_t port) {
  const std::string body =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
      R"("capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}})";
  const std::string request =
      "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
      "Content-Type: application/json\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  const std::string response = send_request(port, request);
  static constexpr std::string_view kHeader = "Mcp-Session-Id: ";
  const auto at = response.find(kHeader);
  if (at == std::string::npos) return "none";  // sessions full (inputs initialize their own)
  const auto start = at + kHeader.size();
  return response.substr(start, response.find("\r\n", start) - start);
}

struct Harness {
  Harness() {
    fcp::transport::HttpOptions options;
    options.limits.max_message_bytes = 64 * 1024;
    options.idle_timeout = std::chrono::milliseconds(400);
    options.session_idle_timeout = std::chrono::seconds(5);
    server = std::make_unique<fcp::transport::HttpServer>(
        io, mcp, boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0),
        options);
    if (!server->start()) std::abort();
    port = server->local_endpoint().port();
    io_thread = std::thread([this] { io.run(); });
    calls_thread = std::thread([this] { calls.run(); });
  }
  boost::asio::io_context io;
  boost::asio::io_context calls;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> io_work{
      io.get_executor()};
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> calls_work{
      calls.get_executor()};
  std::unique_ptr<fcp::core::Domain> deck = fcp::testing::make_deck_domain();
  fcp::testing::NoFiles files;
  fcp::mcp::Server mcp{calls.get_executor(), {deck.get()}, files, fcp::mcp::ServerOptions{}};
  std::unique_ptr<fcp::transport::HttpServer> server;
  std::uint16_t port = 0;
  std::thread io_thread;
  std::thread calls_thread;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Harness* harness = new Harness;  // lives for the process, as fcpd's server does
  std::string request(reinterpret_cast<const char*>(data), size);
  std::string id;
  if (request.find(kSessionToken) != std::string::npos) {
    id = session_id(harness->port);
    for (auto at = request.find(kSessionToken); at != std::string::npos;
         at = request.find(kSessionToken, at + id.size()))
      request.replace(at, kSessionToken.size(), id);
  }
  (void)send_request(harness->port, request);
  if (!id.empty())
    (void)send_request(harness->port,
                       "DELETE /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id: " + id +
                           "\r\nConnection: close\r\n\r\n");
  return 0;
}

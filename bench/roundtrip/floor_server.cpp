#include "bench/roundtrip/floor_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <string>

#include "bench/roundtrip/scenarios.hpp"

namespace fcp::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPollWindow = std::chrono::microseconds(200);  // fcpd's default busy_poll_us

// A reply shaped like fcpd's answer to the status query (about the same size), which satisfies
// both the handshake (protocolVersion) and the call check (content).
std::string canned_reply(std::string_view request) {
  std::string id = "0";
  if (const auto at = request.find("\"id\":"); at != std::string_view::npos) {
    const auto end = request.find_first_of(",}", at + 5);
    id = std::string(request.substr(at + 5, end - at - 5));
  }
  return R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{"protocolVersion":")" + kProtocolVersion +
         R"(","content":[{"type":"text","text":")" + std::string(180, 'x') +
         R"("}],"isError":false}})" + "\n";
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const auto n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
      pollfd wait{fd, POLLOUT, 0};
      ::poll(&wait, 1, -1);
      continue;
    }
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Answers each line read from `in` on `out`; `in` is non-blocking: it is polled for the window
// after each request, then waited for with poll().
int serve(int in, int out) {
  std::string buffer;
  char chunk[65536];
  auto last_request = Clock::now();
  for (;;) {
    const auto n = ::read(in, chunk, sizeof chunk);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno != EAGAIN && errno != EINTR) return 1;
      if (Clock::now() - last_request >= kPollWindow) {
        pollfd wait{in, POLLIN, 0};
        ::poll(&wait, 1, -1);
      }
      continue;
    }
    buffer.append(chunk, static_cast<std::size_t>(n));
    for (auto newline = buffer.find('\n'); newline != std::string::npos;
         newline = buffer.find('\n')) {
      const std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      if (line.find("\"id\":") != std::string::npos && !write_all(out, canned_reply(line))) {
        return 1;
      }
    }
    last_request = Clock::now();
  }
}

}  // namespace

int serve_floor(const std::string& transport) {
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGTERM, [](int) { ::_exit(0); });  // how the bench stops its servers
  if (transport == "stdio") {
    ::fcntl(0, F_SETFL, ::fcntl(0, F_GETFL) | O_NONBLOCK);  // our own pipe from the bench
    return serve(0, 1);
  }
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  auto* generic = reinterpret_cast<sockaddr*>(&address);
  if (::bind(listener, generic, length) != 0 || ::listen(listener, 4) != 0 ||
      ::getsockname(listener, generic, &length) != 0) {
    std::perror("floor server");
    return 1;
  }
  std::fprintf(stderr, "listening for MCP over TCP on 127.0.0.1:%d\n", ntohs(address.sin_port));
  const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (client < 0) return 1;
  const int one = 1;
  ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const int status = serve(client, client);
  ::close(client);
  ::close(listener);
  return status;
}

}  // namespace fcp::bench

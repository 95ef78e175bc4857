#include "bench/soak/hostile.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <string>

namespace fcp::bench {
namespace {

using asio::ip::tcp;
constexpr auto kTuple = asio::as_tuple(asio::use_awaitable);

const std::string kInitialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}})";
const std::string kInitialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

std::string tool_call(int id, const std::string& tool, const std::string& arguments) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":")" + tool + R"(","arguments":)" + arguments +
         "}}";
}

// A heavier call: a new diagram and fifty shapes, so that there is work to abandon.
std::string heavy_call(int id) {
  std::string ops = R"(["add svc S0")";
  for (int i = 1; i < 50; ++i)
    ops += R"(,"add svc S)" + std::to_string(i) + R"( near:S)" + std::to_string(i - 1) + R"(")";
  ops += "]";
  return tool_call(id, "drawio", R"({"ops":)" + ops + "}");
}

std::string http_post(const tcp::endpoint& endpoint, const std::string& body) {
  return "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(endpoint.port()) +
         "\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\n"
         "Content-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

asio::awaitable<bool> open(HostileRun& c, tcp::socket& socket, const tcp::endpoint& endpoint) {
  boost::system::error_code ec;
  socket.open(tcp::v4(), ec);
  if (!ec) socket.bind(tcp::endpoint(c.settings.source, 0), ec);
  if (ec) co_return false;
  auto [connect_ec] = co_await socket.async_connect(endpoint, kTuple);
  if (connect_ec) co_return false;
  ++c.counts.connections;
  co_return true;
}

asio::awaitable<void> pause(std::chrono::milliseconds duration) {
  asio::steady_timer timer(co_await asio::this_coro::executor, duration);
  co_await timer.async_wait(kTuple);
}

// Writes requests back to back without reading a reply, for a few seconds per connection.
asio::awaitable<void> pipeliner(HostileRun& c) {
  std::string burst = kInitialize + "\n" + kInitialized + "\n";
  for (int id = 2; id < 3000; ++id)
    burst += tool_call(id, "drawio_query", R"({"q":"describe X"})") + "\n";
  while (!c.stopping) {
    tcp::socket socket(co_await asio::this_coro::executor);
    if (!co_await open(c, socket, c.settings.tcp)) co_await pause(std::chrono::milliseconds(100));
    asio::steady_timer hold(socket.get_executor(), std::chrono::seconds(3));
    hold.async_wait([&socket](boost::system::error_code) { socket.close(); });
    auto [ec, written] = co_await asio::async_write(socket, asio::buffer(burst), kTuple);
    c.counts.bytes_written += written;
    c.counts.requests += 3000;
    if (ec && ec != asio::error::operation_aborted) ++c.counts.server_closed;
    if (!ec) co_await hold.async_wait(kTuple);
    socket.close();
  }
}

// Sends a message (TCP) or a request header (HTTP) one byte every 200 ms until fcpd gives up.
asio::awaitable<void> slowloris(HostileRun& c, bool http) {
  const tcp::endpoint endpoint = http ? *c.settings.http : c.settings.tcp;
  const std::string text = http ? http_post(endpoint, kInitialize) : kInitialize + "\n";
  while (!c.stopping) {
    tcp::socket socket(co_await asio::this_coro::executor);
    if (!co_await open(c, socket, endpoint)) {
      co_await pause(std::chrono::milliseconds(100));
      continue;
    }
    ++c.counts.requests;
    for (std::size_t i = 0; !c.stopping; i = (i + 1) % text.size()) {
      auto [ec, written] = co_await asio::async_write(socket, asio::buffer(&text[i], 1), kTuple);
      if (ec) {
        ++c.counts.server_closed;
        break;
      }
      ++c.counts.bytes_written;
      co_await pause(std::chrono::milliseconds(200));
    }
  }
}

// Sends a call and leaves before the reply; every other time it leaves halfway through the
// request instead.
asio::awaitable<void> disconnector(HostileRun& c, bool http) {
  const tcp::endpoint endpoint = http ? *c.settings.http : c.settings.tcp;
  std::string whole = kInitialize + "\n" + kInitialized + "\n" +
                      tool_call(2, "drawio_session", R"({"action":"new \"X\""})") + "\n" +
                      heavy_call(3) + "\n";
  if (http) whole = http_post(endpoint, kInitialize);
  for (std::size_t round = 0; !c.stopping; ++round) {
    tcp::socket socket(co_await asio::this_coro::executor);
    if (!co_await open(c, socket, endpoint)) {
      co_await pause(std::chrono::milliseconds(100));
      continue;
    }
    const std::size_t size = round % 2 == 0 ? whole.size() : whole.size() / 2;
    auto [ec, written] =
        co_await asio::async_write(socket, asio::buffer(whole.data(), size), kTuple);
    c.counts.bytes_written += written;
    c.counts.requests += http ? 1 : 3;
    if (round % 4 == 0) co_await pause(std::chrono::milliseconds(2));  // the call has started
    boost::system::error_code ignored;
    socket.set_option(asio::socket_base::linger(true, 0), ignored);  // RST: gone at once
    socket.close(ignored);
    co_await pause(std::chrono::milliseconds(5));
  }
}

}  // namespace

HostileClients::HostileClients(HostileSettings settings) : settings_(std::move(settings)) {}

HostileClients::~HostileClients() {
  stop();
}

void HostileClients::start() {
  for (std::size_t i = 0; i < settings_.pipeliners; ++i)
    asio::co_spawn(io_, pipeliner(run_), asio::detached);
  for (std::size_t i = 0; i < settings_.slowloris; ++i)
    asio::co_spawn(io_, slowloris(run_, settings_.http && i % 2 == 1), asio::detached);
  for (std::size_t i = 0; i < settings_.disconnectors; ++i)
    asio::co_spawn(io_, disconnector(run_, settings_.http && i % 2 == 1), asio::detached);
  thread_ = std::thread([this] { io_.run(); });
}

void HostileClients::stop() {
  stopping_ = true;
  io_.stop();
  if (thread_.joinable()) thread_.join();
}

}  // namespace fcp::bench

// libFuzzer target: JSON-RPC framing and the MCP lifecycle behind it. The input is a byte stream
// as a stdio or TCP client sends it: transport::LineFramer splits it into messages (the first
// byte picks the size of the chunks it arrives in, and a small message limit makes oversized
// lines reachable), jsonrpc::parse reads each one, and each goes to a real mcp::Server connection
// hosting the test domain "deck". Checked: every request gets exactly one answer and every
// answer is one JSON-RPC message.
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz/fuzz_support.hpp"
#include "mcp/jsonrpc.hpp"
#include "mcp/server.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"
#include "transport/line_framer.hpp"

namespace {

void check(bool condition) {
  fcp::fuzz::check(condition, "an answer broke the JSON-RPC contract");
}

void check_message(std::string_view text) {
  boost::system::error_code ec;
  const auto value = boost::json::parse(text, ec);
  check(!ec && value.is_object() && value.as_object().contains("jsonrpc"));
}

// Counts the answers to one message and checks their shape.
class CheckingResponder final : public fcp::mcp::Responder {
 public:
  explicit CheckingResponder(std::atomic<int>& open) : open_(open) { ++open_; }
  ~CheckingResponder() override { check(done_); }
  void notify(std::string message) override {
    check(!done_);
    check_message(message);
  }
  void reply(std::string message) override {
    check_message(message);
    finish();
  }
  void no_reply() override { finish(); }

 private:
  void finish() {
    check(!done_);
    done_ = true;
    --open_;
  }
  std::atomic<int>& open_;
  bool done_ = false;
};

struct Harness {
  boost::asio::io_context io;
  std::unique_ptr<fcp::core::Domain> deck = fcp::testing::make_deck_domain();
  fcp::testing::NoFiles files;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Harness* harness = new Harness;  // lives for the process, as fcpd's server does
  if (size == 0) return 0;
  const std::size_t chunk = 1 + data[0] % 64;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::atomic<int> open{0};
  // A server per input: named sessions an input creates do not outlive it, so every input runs
  // on the same state (reproducible, and memory stays flat over a long run).
  fcp::mcp::Server server{
      harness->io.get_executor(), {harness->deck.get()}, harness->files, fcp::mcp::ServerOptions{}};
  auto connection = server.connect({"fuzz", "fuzz", std::nullopt, std::nullopt}, nullptr);
  fcp::transport::LineFramer framer(4096);
  auto dispatch = [&](const fcp::transport::Frame& frame) {
    auto responder = std::make_shared<CheckingResponder>(open);
    if (frame.oversized > 0) return connection->handle_oversized(frame.oversized, responder);
    (void)fcp::mcp::jsonrpc::parse(frame.message);
    connection->handle(frame.message, responder);
  };
  for (std::size_t at = 0; at < input.size(); at += chunk)
    framer.feed(input.substr(at, chunk), dispatch);
  framer.finish(dispatch);

  // Tool calls run on the io_context (the strand of the client session); deck's effects may
  // complete on a thread of their own, so wait for the answers a little.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (open > 0 && std::chrono::steady_clock::now() < deadline) {
    harness->io.restart();
    harness->io.run_one_for(std::chrono::milliseconds(10));
  }
  check(open == 0);
  connection->close();
  harness->io.restart();
  harness->io.poll();
  return 0;
}

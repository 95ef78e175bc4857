// Byte layout checked against an independent OSC implementation: liblo's oscsend and oscdump.
#include <gtest/gtest.h>

#include "domains/lofi/bridge/osc.hpp"
#include "domains/lofi/bridge/protocol.hpp"
#include "support.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;

struct LibloCase {
  std::string types;                // oscsend's type string
  std::vector<std::string> values;  // oscsend's values
  OscMessage message;               // the same message for encode_osc
};

std::vector<LibloCase> liblo_cases() {
  return {
      {"s", {R"({"id":"a,b"})"}, {"/lofi/create", {std::string(R"({"id":"a,b"})")}}},
      {"s",
       {R"({"deviceName":"Grüße, Flütter 🎛","width":600})"},
       {"/lofi/init", {std::string(R"({"deviceName":"Grüße, Flütter 🎛","width":600})")}}},
      {"s", {"abcd"}, {"/lofi/ping", {std::string("abcd")}}},
      {"s", {R"({"a":1})"}, {"/lofi/x", {std::string(R"({"a":1})")}}},  // 7 chars + 1 NUL
      {"sif",
       {R"({"layers":[1,2]})", "42", "1.5"},
       {"/lofi/ui", {std::string(R"({"layers":[1,2]})"), std::int32_t{42}, 1.5f}}},
      {"s", {""}, {"/lofi/empty", {std::string()}}},
  };
}

class Liblo : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!on_path("oscsend") || !on_path("oscdump")) {
      GTEST_SKIP() << "liblo-tools (oscsend, oscdump) not on PATH";
    }
  }
};

TEST_F(Liblo, OscsendProducesTheSameBytesAsEncodeOsc) {
  for (const auto& c : liblo_cases()) {
    UdpCapture capture;
    std::vector<std::string> argv{"oscsend", "127.0.0.1", std::to_string(capture.port()),
                                  c.message.address, c.types};
    argv.insert(argv.end(), c.values.begin(), c.values.end());
    ASSERT_EQ(run_program(argv), 0) << c.message.address;
    auto datagram = capture.receive();
    ASSERT_TRUE(datagram) << "oscsend sent nothing for " << describe(c.message);
    auto ours = encode_osc(c.message);
    ASSERT_TRUE(ours);
    EXPECT_EQ(*datagram, *ours) << describe(c.message);
    auto decoded = decode_osc(*datagram);
    ASSERT_TRUE(decoded) << decoded.error().message;
    ASSERT_EQ(decoded->size(), 1u);
    EXPECT_EQ(decoded->front(), c.message);
  }
}

TEST_F(Liblo, OscsendMatchesTheBriefsExampleByteForByte) {
  // oscsend localhost PORT /lofi/create s '{"id":"a,b"}' — the comma stays inside one argument.
  UdpCapture capture;
  ASSERT_EQ(run_program({"oscsend", "127.0.0.1", std::to_string(capture.port()), "/lofi/create",
                         "s", R"({"id":"a,b"})"}),
            0);
  auto datagram = capture.receive();
  ASSERT_TRUE(datagram);
  using namespace std::string_literals;
  EXPECT_EQ(*datagram, "/lofi/create\0\0\0\0,s\0\0{\"id\":\"a,b\"}\0\0\0\0"s);
}

TEST_F(Liblo, OscdumpReadsOurPackets) {
  const std::uint16_t port = free_udp_port();
  ChildProcess oscdump({"oscdump", "-L", std::to_string(port)});
  const OscMessage json{"/lofi/create",
                        {std::string(R"({"id":"a,b","label":"Grüße","requestId":"r-1"})")}};
  const OscMessage mixed{"/lofi/set", {std::string("abcd"), std::int32_t{42}, 1.5f, std::string()}};
  auto request = request_packet(
      "wire", {{"sourceId", "lfo"}, {"outlet", 0}, {"destId", "dial"}, {"inlet", 1}}, "abc-7");
  ASSERT_TRUE(request);
  const std::string packets[] = {encode_osc(json).value(), encode_osc(mixed).value(), *request};
  const std::string expected[] = {
      R"(/lofi/create s "{"id":"a,b","label":"Grüße","requestId":"r-1"}")",
      R"(/lofi/set sifs "abcd" 42 1.500000 "")",
      R"(/lofi/wire s "{"sourceId":"lfo","outlet":0,"destId":"dial","inlet":1,"requestId":"abc-7"}")",
  };
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
  // oscdump needs a moment to bind: resend until it has printed every message.
  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  auto has_all = [&] {
    for (const auto& line : expected) {
      if (output.find(line) == std::string::npos) return false;
    }
    return true;
  };
  while (!has_all() && std::chrono::steady_clock::now() < deadline) {
    for (const auto& packet : packets) {
      ::sendto(fd, packet.data(), packet.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
    }
    output = oscdump.read(200ms);
  }
  ::close(fd);
  for (const auto& line : expected) {
    EXPECT_NE(output.find(line + "\n"), std::string::npos) << "missing: " << line << "\nin:\n"
                                                           << output;
  }
}

}  // namespace
}  // namespace fcp::lofi::bridge

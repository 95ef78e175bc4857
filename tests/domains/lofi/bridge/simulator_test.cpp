// The simulator on the wire, seen from a plain UDP socket (no Bridge involved).
#include "domains/lofi/bridge/simulator.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "domains/lofi/bridge/protocol.hpp"
#include "support.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;
using namespace std::string_literals;
namespace json = boost::json;

class SimulatorWire : public ::testing::Test {
 protected:
  std::unique_ptr<Simulator> start(Fault fault, std::string fail_on = "") {
    SimulatorOptions options;
    options.port = 0;
    options.reply_port = client.port();  // a fixed reply port, as Max's udpsend has
    options.fault = fault;
    options.fail_on = std::move(fail_on);
    options.on_message = [this](const std::string& address, const std::string& text) {
      std::lock_guard lock(mutex);
      observed.push_back(address + " " + text);
    };
    auto started = Simulator::start(threads.io(), std::move(options));
    EXPECT_TRUE(started) << (started ? "" : started.error().message);
    return std::move(*started);
  }

  void send(const Simulator& max, const std::string& packet) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(max.port());
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    ::sendto(fd, packet.data(), packet.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
    ::close(fd);
  }

  static std::string request(std::string_view verb, const json::object& payload,
                             std::string_view id) {
    return request_packet(verb, payload, id).value();
  }

 public:
  IoThreads threads{2};
  UdpCapture client;
  std::mutex mutex;
  std::vector<std::string> observed;
};

TEST_F(SimulatorWire, RepliesOnLofiReplyWithOneJsonArgumentEchoingTheId) {
  auto max = start(Fault::none);
  send(*max, request("init", {{"deviceName", "Flutter"}}, "r-1"));
  auto datagram = client.receive();
  ASSERT_TRUE(datagram);
  auto decoded = decode_osc(*datagram);
  ASSERT_TRUE(decoded);
  EXPECT_EQ(decoded->front(),
            (OscMessage{"/lofi/reply",
                        {std::string(R"({"status":"ok","device":"Flutter","requestId":"r-1"})")}}));
  EXPECT_EQ(max->log(),
            std::vector<std::string>{R"(/lofi/init {"deviceName":"Flutter","requestId":"r-1"})"});
  std::lock_guard lock(mutex);
  EXPECT_EQ(observed, max->log());
}

TEST_F(SimulatorWire, NoIdRepliesCarryTheJsonAsTheAddressLikeLofi) {
  auto max = start(Fault::no_id);
  send(*max, request("ping", {}, "r-2"));
  auto datagram = client.receive();
  ASSERT_TRUE(datagram);
  // The JSON text NUL-padded as the address, then an empty type tag string.
  const std::string json_text =
      R"({"status":"ok","pong":true,"device":null,"objects":0,"hash":"811c9dc5"})";
  std::string expected = json_text + std::string(4 - json_text.size() % 4, '\0') + ",\0\0\0"s;
  EXPECT_EQ(*datagram, expected);
}

TEST_F(SimulatorWire, FailOnAnswersThatAddressWithAnError) {
  auto max = start(Fault::none, "/lofi/ping");
  send(*max, request("ping", {}, "r-3"));
  auto reply = parse_reply(decode_osc(*client.receive()).value().front());
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->ok);
  EXPECT_EQ(reply->message, "simulated failure of /lofi/ping");
  EXPECT_EQ(reply->request_id, "r-3");
}

TEST_F(SimulatorWire, GarbageComesBeforeTheRealReplyAndDuplicatesTwice) {
  auto garbage = start(Fault::garbage);
  send(*garbage, request("ping", {}, "g"));
  auto first = client.receive();
  ASSERT_TRUE(first);
  EXPECT_FALSE(decode_osc(*first));
  auto second = client.receive();
  ASSERT_TRUE(second);
  EXPECT_TRUE(decode_osc(*second));
  garbage->set_fault(Fault::duplicate);
  send(*garbage, request("ping", {}, "d"));
  auto one = client.receive();
  auto two = client.receive();
  ASSERT_TRUE(one && two);
  EXPECT_EQ(*one, *two);
}

TEST_F(SimulatorWire, SilentSaysNothingAndDoesNothing) {
  auto max = start(Fault::silent);
  send(*max, request("init", {{"deviceName", "Quiet"}}, "s"));
  EXPECT_FALSE(client.receive(300ms));
  EXPECT_EQ(max->log().size(), 1u);
  EXPECT_FALSE(max->model().device());
}

TEST_F(SimulatorWire, IgnoresDatagramsThatAreNotOsc) {
  auto max = start(Fault::none);
  send(*max, "hello there!");
  send(*max, request("ping", {}, "after"));
  auto reply = parse_reply(decode_osc(*client.receive()).value().front());
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->request_id, "after");
  EXPECT_EQ(max->log().size(), 1u);
}

TEST(SimulatorArgs, ParsesTheSubcommandFlags) {
  auto options = parse_simulator_args({"--port", "9000", "--reply", "0", "--fault", "slow:250",
                                       "--fail-on", "/lofi/wire", "--reply-host", "10.0.0.2"});
  auto latency = parse_simulator_args({"--latency-ms", "20"});
  ASSERT_TRUE(latency) << latency.error().message;
  EXPECT_EQ(latency->fault, Fault::none);
  EXPECT_EQ(latency->delay, std::chrono::milliseconds(20));
  EXPECT_FALSE(parse_simulator_args({"--latency-ms", "soon"}));
  ASSERT_TRUE(options) << options.error().message;
  EXPECT_EQ(options->port, 9000);
  EXPECT_EQ(options->reply_port, 0);
  EXPECT_EQ(options->fault, Fault::slow);
  EXPECT_EQ(options->delay, std::chrono::milliseconds(250));
  EXPECT_EQ(options->fail_on, "/lofi/wire");
  EXPECT_EQ(options->reply_host, "10.0.0.2");
  auto defaults = parse_simulator_args({});
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->port, 7400);
  EXPECT_EQ(defaults->reply_port, 7401);
  EXPECT_EQ(defaults->fault, Fault::none);
}

TEST(SimulatorArgs, NamesEveryFault) {
  for (auto [text, fault] : {std::pair{"none", Fault::none}, std::pair{"silent", Fault::silent},
                             std::pair{"error", Fault::error}, std::pair{"garbage", Fault::garbage},
                             std::pair{"duplicate", Fault::duplicate},
                             std::pair{"no-id", Fault::no_id}, std::pair{"slow", Fault::slow}}) {
    SimulatorOptions options;
    ASSERT_TRUE(parse_fault(text, options)) << text;
    EXPECT_EQ(options.fault, fault);
    EXPECT_EQ(to_string(fault), text);
  }
}

TEST(SimulatorArgs, RefusesBadArguments) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--port"},
                                                                {"--port", "70000"},
                                                                {"--port", "12x"},
                                                                {"--fault", "loud"},
                                                                {"--fault", "silent:5"},
                                                                {"--fault", "slow:soon"},
                                                                {"--bogus", "1"}}) {
    EXPECT_FALSE(parse_simulator_args(args)) << args.front();
  }
  char program[] = "simulate-max";
  char bad[] = "--nope";
  char* argv[] = {program, bad};
  EXPECT_EQ(run_simulator_command(2, argv), 2);
}

TEST(SimulatorCommand, AnswersUntilSigtermAndLogsEachMessageToStderr) {
  const std::uint16_t port = free_udp_port();
  int err[2];
  ASSERT_EQ(::pipe(err), 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(err[1], STDERR_FILENO);
    ::close(err[0]);
    std::string port_text = std::to_string(port);
    std::vector<std::string> args{"simulate-max", "--port", port_text, "--reply", "0"};
    std::vector<char*> argv;
    for (auto& arg : args)
      argv.push_back(arg.data());
    ::_exit(run_simulator_command(static_cast<int>(argv.size()), argv.data()));
  }
  ::close(err[1]);
  UdpCapture client;
  std::optional<std::string> reply;
  for (int attempt = 0; attempt < 50 && !reply; ++attempt) {
    client.send_to(port, request_packet("ping", {}, "cmd-1").value());
    reply = client.receive(100ms);
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::string output;
  char chunk[4096];
  for (ssize_t size; (size = ::read(err[0], chunk, sizeof chunk)) > 0;) {
    output.append(chunk, static_cast<std::size_t>(size));
  }
  ::close(err[0]);
  ASSERT_TRUE(reply) << "the simulator never answered; stderr:\n" << output;
  EXPECT_EQ(parse_reply(decode_osc(*reply).value().front()).value().request_id, "cmd-1");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_NE(output.find(fmt::format("simulating the Max lofi daemon on 127.0.0.1:{}", port)),
            std::string::npos)
      << output;
  EXPECT_NE(output.find(R"(/lofi/ping {"requestId":"cmd-1"})"), std::string::npos) << output;
}

}  // namespace
}  // namespace fcp::lofi::bridge

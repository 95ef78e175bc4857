#include "cli/endpoint.hpp"

#include <gtest/gtest.h>

#include "cli/errors.hpp"

namespace fcp::cli {
namespace {

TEST(EndpointTest, TcpHostAndPort) {
  auto endpoint = parse_endpoint("tcp://127.0.0.1:7000");
  EXPECT_EQ(endpoint.scheme, Endpoint::Scheme::tcp);
  EXPECT_EQ(endpoint.host, "127.0.0.1");
  EXPECT_EQ(endpoint.port, 7000);
  EXPECT_EQ(endpoint.target, "");
  EXPECT_EQ(parse_endpoint("tcp://localhost:1/").port, 1);
}

TEST(EndpointTest, HttpWithPath) {
  auto endpoint = parse_endpoint("http://localhost:8080/mcp");
  EXPECT_EQ(endpoint.scheme, Endpoint::Scheme::http);
  EXPECT_EQ(endpoint.host, "localhost");
  EXPECT_EQ(endpoint.port, 8080);
  EXPECT_EQ(endpoint.target, "/mcp");
  EXPECT_EQ(endpoint.authority(), "localhost:8080");
  EXPECT_EQ(parse_endpoint("http://h:1/a/b?x=1").target, "/a/b?x=1");
}

TEST(EndpointTest, HttpDefaultsPortAndPath) {
  auto endpoint = parse_endpoint("http://example.org");
  EXPECT_EQ(endpoint.port, 80);
  EXPECT_EQ(endpoint.target, "/mcp");
  EXPECT_EQ(parse_endpoint("http://example.org/").target, "/");
}

TEST(EndpointTest, BracketedIpv6) {
  auto endpoint = parse_endpoint("tcp://[::1]:9000");
  EXPECT_EQ(endpoint.host, "::1");
  EXPECT_EQ(endpoint.port, 9000);
  EXPECT_EQ(endpoint.authority(), "[::1]:9000");
  EXPECT_EQ(parse_endpoint("http://[::1]/mcp").port, 80);
}

class BadEndpointTest : public testing::TestWithParam<const char*> {};

TEST_P(BadEndpointTest, IsAUsageError) {
  EXPECT_THROW(parse_endpoint(GetParam()), UsageError) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Cases, BadEndpointTest,
                         testing::Values("127.0.0.1:7000", "tcp://127.0.0.1", "tcp://:7000",
                                         "tcp://host:0", "tcp://host:65536", "tcp://host:7x",
                                         "tcp://host:", "tcp://host:7000/mcp", "https://h:1/mcp",
                                         "udp://h:1", "http://:80/mcp", "http://h:abc/mcp",
                                         "tcp://::1:7000", "tcp://[::1", "tcp://[::1]x:1",
                                         "http://h:1/a b", ""));

TEST(EndpointTest, MessageSaysWhatIsWrong) {
  try {
    parse_endpoint("tcp://host");
    FAIL();
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("missing :PORT"), std::string::npos);
  }
}

}  // namespace
}  // namespace fcp::cli

// Open documents as MCP resources with the three real domains: resources/templates/list names
// fcp://DOMAIN/doc/{handle} and its forms, resources/list the caller's open documents, and
// resources/read the file bytes save writes (drawio XML, midi Base64 .mid, lofi .maxpat JSON),
// drawio's SVG and midi's WAV; unknown, closed and other principals' handles are not found.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "domains/drawio/domain.hpp"
#include "domains/lofi/domain.hpp"
#include "domains/midi/domain.hpp"
#include "mcp/base64.hpp"
#include "tests/mcp/connection_fixture.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::mcp {
namespace {

namespace json = boost::json;
using test_support::RecordingResponder;

class DocumentResourcesTest : public ::testing::Test {
 protected:
  DocumentResourcesTest()
      : drawio_(drawio::make_drawio_domain()),
        midi_(midi::make_midi_domain()),
        lofi_(lofi::make_lofi_domain(io_, json::object{{"connect_on_new", false}})),
        server_(workers_.get_executor(), {drawio_.get(), midi_.get(), lofi_.get()}, paths_, {}) {
    std::filesystem::create_directories(dir_);
  }
  ~DocumentResourcesTest() override {
    for (auto& c : connections_)
      c->close();
    workers_.join();
    std::filesystem::remove_all(dir_);
  }

  std::shared_ptr<Connection> ready(const std::string& principal = "local") {
    connections_.push_back(
        server_.connect(ConnectionInfo{"test", "peer", std::nullopt, principal}, nullptr));
    auto& c = *connections_.back();
    EXPECT_TRUE(request(c, 1, "initialize", {{"protocolVersion", "2025-11-25"}})
                    .as_object()
                    .contains("result"));
    return connections_.back();
  }
  json::value request(Connection& c, int id, const std::string& method, json::object params = {}) {
    auto responder = std::make_shared<RecordingResponder>();
    c.handle(json::serialize(json::object{
                 {"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}),
             responder);
    return responder->wait();
  }
  std::string call(Connection& c, const std::string& tool, json::object arguments) {
    const auto reply = request(c, 9, "tools/call", {{"name", tool}, {"arguments", arguments}});
    return std::string(reply.at("result").at("content").at(0).at("text").as_string());
  }
  // `new "Title"` in `domain`: the handle the reply names.
  std::string create(Connection& c, const std::string& domain, const std::string& title) {
    const auto text = call(c, domain + "_session", {{"action", "new \"" + title + "\""}});
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:[a-z]{2}-[0-9a-f]{32})")))
        << text;
    return match.size() > 1 ? match[1].str() : std::string();
  }
  json::value read(Connection& c, const std::string& uri) {
    return request(c, 5, "resources/read", {{"uri", uri}});
  }
  // What save writes for the document (to a file in this test's directory).
  std::string saved(Connection& c, const std::string& domain, const std::string& handle,
                    const std::string& name) {
    const auto path = dir_ / name;
    const auto text =
        call(c, domain + "_session", {{"action", "save as:" + path.string()}, {"doc", handle}});
    EXPECT_EQ(text.substr(0, 1), "*") << text;
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
  }
  static const json::object& content(const json::value& reply) {
    return reply.at("result").at("contents").at(0).as_object();
  }
  static int error_code(const json::value& reply) {
    return static_cast<int>(reply.at("error").at("code").as_int64());
  }

  boost::asio::io_context io_;
  boost::asio::thread_pool workers_{2};
  fcp::testing::AllowAll paths_;
  std::unique_ptr<core::Domain> drawio_;
  std::unique_ptr<core::Domain> midi_;
  std::unique_ptr<core::Domain> lofi_;
  Server server_;
  std::vector<std::shared_ptr<Connection>> connections_;
  const std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() /
      ("fcp-resources-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
};

TEST_F(DocumentResourcesTest, TemplatesNameEveryDomainsDocumentAndItsForms) {
  auto c = ready();
  const auto listed = request(*c, 2, "resources/templates/list");
  const auto& templates = listed.at("result").at("resourceTemplates").as_array();
  std::map<std::string, std::string> by_uri;
  for (const auto& entry : templates) {
    const auto* mime = entry.as_object().if_contains("mimeType");
    by_uri[std::string(entry.at("uriTemplate").as_string())] =
        mime != nullptr ? std::string(mime->as_string()) : "";
    EXPECT_FALSE(entry.at("description").as_string().empty());
  }
  EXPECT_TRUE(by_uri.contains("fcp://drawio/doc/{handle}"));
  EXPECT_TRUE(by_uri.contains("fcp://midi/doc/{handle}"));
  EXPECT_TRUE(by_uri.contains("fcp://lofi/doc/{handle}"));
  EXPECT_EQ(by_uri["fcp://drawio/doc/{handle}.svg"], "image/svg+xml");
  EXPECT_EQ(by_uri["fcp://midi/doc/{handle}.wav"], "audio/wav");
  EXPECT_EQ(by_uri.size(), 5u);
}

TEST_F(DocumentResourcesTest, ListNamesTheCallersOpenDocumentsOnly) {
  auto alice = ready("alice");
  const auto diagram = create(*alice, "drawio", "Flow");
  const auto song = create(*alice, "midi", "Tune");
  auto bob = ready("bob");
  const auto devices = create(*bob, "lofi", "Delay");
  const auto uris = [this](Connection& c) {
    std::set<std::string> out;
    const auto listed = request(c, 3, "resources/list");
    for (const auto& entry : listed.at("result").at("resources").as_array())
      out.insert(std::string(entry.at("uri").as_string()));
    return out;
  };
  const auto for_alice = uris(*alice);
  EXPECT_TRUE(for_alice.contains("fcp://drawio/doc/" + diagram));
  EXPECT_TRUE(for_alice.contains("fcp://midi/doc/" + song));
  EXPECT_FALSE(for_alice.contains("fcp://lofi/doc/" + devices));
  const auto for_bob = uris(*bob);
  EXPECT_TRUE(for_bob.contains("fcp://lofi/doc/" + devices));
  EXPECT_FALSE(for_bob.contains("fcp://drawio/doc/" + diagram));
  // Bob cannot read Alice's document either: for him it does not exist.
  EXPECT_EQ(error_code(read(*bob, "fcp://drawio/doc/" + diagram)),
            jsonrpc::code::resource_not_found);
}

TEST_F(DocumentResourcesTest, DrawioReadsAsTheXmlSaveWritesAndAsSvg) {
  auto c = ready();
  const auto handle = create(*c, "drawio", "Flow");
  call(*c, "drawio",
       {{"ops", json::array{"add svc Api", "add db Store", "connect Api -> Store"}},
        {"doc", handle}});
  const auto file = read(*c, "fcp://drawio/doc/" + handle);
  EXPECT_EQ(content(file).at("mimeType"), "application/vnd.jgraph.mxfile");
  EXPECT_EQ(content(file).at("uri").as_string(), "fcp://drawio/doc/" + handle);
  const std::string xml(content(file).at("text").as_string());
  EXPECT_EQ(xml, saved(*c, "drawio", handle, "flow.drawio"));
  EXPECT_NE(xml.find("<mxfile"), std::string::npos);
  const auto svg = read(*c, "fcp://drawio/doc/" + handle + ".svg");
  EXPECT_EQ(content(svg).at("mimeType"), "image/svg+xml");
  const std::string picture(content(svg).at("text").as_string());
  EXPECT_NE(picture.find("<svg"), std::string::npos);
  EXPECT_NE(picture.find("Api"), std::string::npos);
}

TEST_F(DocumentResourcesTest, MidiReadsAsTheMidiFileSaveWritesAndAsWav) {
  auto c = ready();
  const auto handle = create(*c, "midi", "Tune");
  call(*c, "midi",
       {{"ops", json::array{"track add Keys instrument:piano", "note Keys C4 at:1.1 dur:quarter"}},
        {"doc", handle}});
  const auto file = read(*c, "fcp://midi/doc/" + handle);
  EXPECT_EQ(content(file).at("mimeType"), "audio/midi");
  const auto bytes = base64_decode(content(file).at("blob").as_string());
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->substr(0, 4), "MThd");
  EXPECT_EQ(*bytes, saved(*c, "midi", handle, "tune.mid"));
  const auto wav = read(*c, "fcp://midi/doc/" + handle + ".wav");
  if (wav.as_object().contains("error")) {
    // Without a SoundFont on this machine the error says how to get one.
    EXPECT_NE(std::string(wav.at("error").at("message").as_string()).find("SoundFont"),
              std::string::npos)
        << wav;
  } else {
    EXPECT_EQ(content(wav).at("mimeType"), "audio/wav");
    const auto audio = base64_decode(content(wav).at("blob").as_string());
    ASSERT_TRUE(audio);
    EXPECT_EQ(audio->substr(0, 4), "RIFF");
  }
}

TEST_F(DocumentResourcesTest, LofiReadsAsTheMaxpatJsonSaveWrites) {
  auto c = ready();
  const auto handle = create(*c, "lofi", "Delay");
  call(*c, "lofi", {{"ops", json::array{"add cycle~ lfo args:0.5"}}, {"doc", handle}});
  const auto file = read(*c, "fcp://lofi/doc/" + handle);
  EXPECT_EQ(content(file).at("mimeType"), "application/json");
  const std::string text(content(file).at("text").as_string());
  EXPECT_EQ(text, saved(*c, "lofi", handle, "delay.maxpat"));
  EXPECT_TRUE(json::parse(text).as_object().contains("patcher"));
}

TEST_F(DocumentResourcesTest, UnknownAndClosedHandlesAreNotFound) {
  auto c = ready();
  const auto handle = create(*c, "midi", "Gone");
  const auto unknown = read(*c, "fcp://midi/doc/doc:mi-0123456789abcdef0123456789abcdef");
  EXPECT_EQ(error_code(unknown), jsonrpc::code::resource_not_found);
  EXPECT_EQ(error_code(read(*c, "fcp://midi/doc/not-a-handle")), jsonrpc::code::resource_not_found);
  call(*c, "midi_session", {{"action", "close " + handle}});
  const auto closed = read(*c, "fcp://midi/doc/" + handle);
  EXPECT_EQ(error_code(closed), jsonrpc::code::resource_not_found);
  EXPECT_NE(std::string(closed.at("error").at("message").as_string()).find("was closed"),
            std::string::npos)
      << closed;
  // A midi handle under drawio names no drawio document.
  const auto other = create(*c, "midi", "Here");
  EXPECT_EQ(error_code(read(*c, "fcp://drawio/doc/" + other)), jsonrpc::code::resource_not_found);
}

TEST_F(DocumentResourcesTest, NotFoundIsInvalidParamsIn2026AndMinus32002Before) {
  const std::string unknown = "fcp://drawio/doc/doc:dw-0123456789abcdef0123456789abcdef";
  const std::string nothing = "fcp://drawio/nothing";
  // A 2025-era session: -32002, with the URI in data.
  auto session = ready();
  for (const auto& uri : {unknown, nothing}) {
    const auto answer = read(*session, uri);
    EXPECT_EQ(error_code(answer), -32002) << answer;
    EXPECT_EQ(answer.at("error").at("data").at("uri").as_string(), uri);
  }
  // 2026-07-28 (SEP-2164): -32602, with the URI in data.
  connections_.push_back(
      server_.connect(ConnectionInfo{"test", "peer", std::nullopt, "local"}, nullptr));
  auto& stateless = *connections_.back();
  const json::object meta{{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                          {"io.modelcontextprotocol/clientCapabilities", json::object{}}};
  for (const auto& uri : {unknown, nothing}) {
    const auto answer = request(stateless, 6, "resources/read", {{"uri", uri}, {"_meta", meta}});
    EXPECT_EQ(error_code(answer), -32602) << answer;
    EXPECT_EQ(answer.at("error").at("data").at("uri").as_string(), uri);
  }
}

TEST_F(DocumentResourcesTest, TheInstructionsNameTheDocumentResourcesAndSubscriptions) {
  connections_.push_back(
      server_.connect(ConnectionInfo{"test", "peer", std::nullopt, "local"}, nullptr));
  const auto init =
      request(*connections_.back(), 1, "initialize", {{"protocolVersion", "2025-11-25"}});
  const std::string text(init.at("result").at("instructions").as_string());
  for (const auto* part : {"fcp://DOMAIN/doc/HANDLE", "HANDLE.svg (drawio)", "HANDLE.wav (midi)",
                           "subscriptions/listen", "each form is its own subscription"})
    EXPECT_NE(text.find(part), std::string::npos) << part << " in: " << text;
}

TEST_F(DocumentResourcesTest, AnUnknownFormNamesTheFormsThereAre) {
  auto c = ready();
  const auto drawing = create(*c, "drawio", "Forms");
  const auto png = "fcp://drawio/doc/" + drawing + ".png";
  const auto answer = read(*c, png);
  EXPECT_EQ(error_code(answer), jsonrpc::code::resource_not_found);
  const std::string message(answer.at("error").at("message").as_string());
  EXPECT_NE(message.find("a drawio document has no \".png\" form; it has fcp://drawio/doc/" +
                         drawing + " (its file) and fcp://drawio/doc/" + drawing + ".svg"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.find("not a document handle"), std::string::npos) << message;
  // Subscribing to it says the same.
  const auto subscribed = request(*c, 7, "resources/subscribe", {{"uri", png}});
  EXPECT_EQ(error_code(subscribed), jsonrpc::code::resource_not_found);
  EXPECT_NE(std::string(subscribed.at("error").at("message").as_string()).find(".svg"),
            std::string::npos)
      << subscribed;
  // A domain without forms: only the file.
  const auto patch = create(*c, "lofi", "Plain");
  const auto svg = read(*c, "fcp://lofi/doc/" + patch + ".svg");
  EXPECT_NE(std::string(svg.at("error").at("message").as_string())
                .find("it has fcp://lofi/doc/" + patch + " (its file)"),
            std::string::npos)
      << svg;
  // An unknown handle with a suffix is still an unknown handle.
  const auto unknown =
      read(*c, "fcp://drawio/doc/" + drawing.substr(0, 7) + std::string(32, '0') + ".png");
  EXPECT_NE(std::string(unknown.at("error").at("message").as_string()).find("no open drawio"),
            std::string::npos)
      << unknown;
  EXPECT_EQ(error_code(unknown), jsonrpc::code::resource_not_found);
}

}  // namespace
}  // namespace fcp::mcp

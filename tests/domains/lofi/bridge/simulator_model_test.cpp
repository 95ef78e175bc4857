#include "domains/lofi/bridge/simulator_model.hpp"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "domains/lofi/bridge/protocol.hpp"

namespace fcp::lofi::bridge {
namespace {

namespace json = boost::json;

json::object payload(std::string_view text) {
  return json::parse(text).as_object();
}

class SimulatorModelTest : public ::testing::Test {
 protected:
  json::object send(std::string_view address, std::string_view body) {
    return model.handle(address, payload(body));
  }
  void expect_ok(std::string_view address, std::string_view body) {
    auto reply = send(address, body);
    EXPECT_EQ(reply.at("status"), "ok")
        << address << " " << body << " → " << json::serialize(reply);
  }
  void init_with(std::initializer_list<std::pair<const char*, const char*>> objects) {
    expect_ok("/lofi/init", R"({"deviceName":"Flutter"})");
    for (const auto& [id, max_class] : objects) {
      expect_ok("/lofi/create", json::serialize(json::object{{"id", id}, {"class", max_class}}));
    }
  }

 public:
  SimulatorModel model;
};

TEST_F(SimulatorModelTest, InitCreateWireRemoveKeepTheModel) {
  init_with({{"lfo", "cycle~"}, {"out", "dac~"}});
  auto reply = send("/lofi/create", R"({"id":"gain","class":"*~","x":10,"y":20,"args":[0.5]})");
  EXPECT_EQ(json::serialize(reply), R"({"status":"ok","id":"gain"})");
  expect_ok("/lofi/wire", R"({"sourceId":"lfo","outlet":0,"destId":"gain","inlet":0})");
  expect_ok("/lofi/wire", R"({"sourceId":"gain","outlet":0,"destId":"out","inlet":1})");
  EXPECT_EQ(model.wires().size(), 2u);
  EXPECT_EQ(model.objects().at("gain").args, json::array{0.5});
  expect_ok("/lofi/remove", R"({"id":"gain"})");
  EXPECT_EQ(model.objects().size(), 2u);
  EXPECT_TRUE(model.wires().empty());  // removing an object removes its wires
  EXPECT_EQ(*model.device(), "Flutter");
}

TEST_F(SimulatorModelTest, UnwireUndoesWire) {
  init_with({{"a", "cycle~"}, {"b", "cycle~"}});
  expect_ok("/lofi/wire", R"({"sourceId":"a","outlet":0,"destId":"b","inlet":1})");
  expect_ok("/lofi/unwire", R"({"sourceId":"a","outlet":0,"destId":"b","inlet":1})");
  EXPECT_TRUE(model.wires().empty());
}

TEST_F(SimulatorModelTest, UiCreatesEveryLayerOrNone) {
  init_with({});
  auto reply = send("/lofi/ui", R"({"layers":[
      {"name":"00_bg","class":"live.panel","x":0,"y":0,"width":600,"height":400,"attrs":{"bgcolor":[0.2,0.2,0.2,1]}},
      {"name":"30_rate","class":"live.dial","x":50,"y":100,"width":60,"height":80}]})");
  EXPECT_EQ(reply.at("created"), 2);
  EXPECT_TRUE(model.objects().at("00_bg").presentation);
  EXPECT_EQ(*model.objects().at("30_rate").width, 60);
  EXPECT_EQ(model.objects().at("00_bg").attrs.at("bgcolor").as_array().size(), 4u);
  auto duplicate = send("/lofi/ui", R"({"layers":[
      {"name":"40_new","class":"live.dial","x":0,"y":0,"width":1,"height":1},
      {"name":"30_rate","class":"live.dial","x":0,"y":0,"width":1,"height":1}]})");
  EXPECT_EQ(duplicate.at("status"), "error");
  EXPECT_FALSE(model.objects().contains("40_new"));
}

TEST_F(SimulatorModelTest, InjectMapSetMovePing) {
  init_with({{"engine", "v8"}, {"dial", "live.dial"}});
  expect_ok("/lofi/inject", R"({"targetId":"engine","filePath":"/tmp/Flutter_Engine.js"})");
  EXPECT_EQ(model.objects().at("engine").script, "/tmp/Flutter_Engine.js");
  expect_ok("/lofi/map",
            R"({"parameter":"live.dial[cutoff]","objectId":"dial","property":"value"})");
  EXPECT_EQ(model.mappings().at("live.dial[cutoff]").object_id, "dial");
  expect_ok("/lofi/unmap", R"({"parameter":"live.dial[cutoff]"})");
  EXPECT_TRUE(model.mappings().empty());
  expect_ok("/lofi/set", R"({"id":"dial","attrs":{"fontsize":12}})");
  expect_ok("/lofi/set", R"({"id":"dial","attr":"textcolor","value":[1,1,1,1]})");
  EXPECT_EQ(model.objects().at("dial").attrs.size(), 2u);
  expect_ok("/lofi/move", R"({"id":"dial","x":300,"y":40})");
  EXPECT_EQ(model.objects().at("dial").x, 300);
  EXPECT_EQ(json::serialize(send("/lofi/ping", "{}")),
            R"({"status":"ok","pong":true,"device":"Flutter","objects":2,"hash":")" +
                ids_hash({"engine", "dial"}) + R"("})");
}

// The hash lofi-daemon.js reports for the same ids (max/test/protocol.test.js checks it there).
TEST(IdsHash, IsFnv1aOfTheSortedIdsAsTheDaemonComputesIt) {
  EXPECT_EQ(ids_hash({}), "811c9dc5");
  EXPECT_NE(ids_hash({"a", "b"}), ids_hash({"ab"}));
  EXPECT_EQ(ids_hash({"vol", "30_dial", "in"}), "69ebb5e9");
  EXPECT_EQ(ids_hash({"in", "vol", "30_dial"}), "69ebb5e9");
}

struct RefusedCase {
  const char* address;
  const char* payload;
  const char* message;  // expected part of the error message
};

class SimulatorModelRefuses : public SimulatorModelTest,
                              public ::testing::WithParamInterface<RefusedCase> {};

TEST_P(SimulatorModelRefuses, WithAMessageMaxWouldGive) {
  init_with({{"osc", "cycle~"}, {"out", "dac~"}, {"js", "v8"}});
  expect_ok("/lofi/wire", R"({"sourceId":"osc","outlet":0,"destId":"out","inlet":0})");
  expect_ok("/lofi/map", R"({"parameter":"p","objectId":"osc"})");
  const auto& c = GetParam();
  auto reply = send(c.address, c.payload);
  EXPECT_EQ(reply.at("status"), "error") << json::serialize(reply);
  const auto* message = reply.if_contains("message");
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message->as_string()).find(c.message), std::string::npos)
      << message->as_string();
}

INSTANTIATE_TEST_SUITE_P(
    Errors, SimulatorModelRefuses,
    ::testing::Values(
        RefusedCase{"/lofi/nope", "{}", "unknown address /lofi/nope"},
        RefusedCase{"/lofi/create", R"({"id":"osc","class":"cycle~"})", "already exists"},
        RefusedCase{"/lofi/create", R"({"class":"cycle~"})", "\"id\""},
        RefusedCase{"/lofi/create", R"({"id":"z","class":"cycle~","x":"left"})", "\"x\""},
        RefusedCase{"/lofi/remove", R"({"id":"ghost"})", "unknown id \"ghost\""},
        RefusedCase{"/lofi/wire", R"({"sourceId":"ghost","outlet":0,"destId":"out","inlet":0})",
                    "unknown id \"ghost\""},
        RefusedCase{"/lofi/wire", R"({"sourceId":"osc","outlet":1,"destId":"out","inlet":0})",
                    "there is no outlet 1"},
        RefusedCase{"/lofi/wire", R"({"sourceId":"osc","outlet":0,"destId":"out","inlet":2})",
                    "there is no inlet 2"},
        RefusedCase{"/lofi/wire", R"({"sourceId":"js","outlet":-1,"destId":"out","inlet":0})",
                    "\"outlet\" must be an integer"},
        RefusedCase{"/lofi/wire", R"({"sourceId":"js","outlet":0.5,"destId":"out","inlet":0})",
                    "\"outlet\" must be an integer"},
        RefusedCase{"/lofi/wire", R"({"sourceId":"osc","outlet":0,"destId":"out","inlet":0})",
                    "already wired"},
        RefusedCase{"/lofi/unwire", R"({"sourceId":"osc","outlet":0,"destId":"out","inlet":1})",
                    "is not wired"},
        RefusedCase{"/lofi/ui", R"({"layers":{}})", "\"layers\""},
        RefusedCase{"/lofi/ui", R"({"layers":[{"name":"x","class":"live.dial","x":0,"y":0}]})",
                    "\"width\""},
        RefusedCase{"/lofi/inject", R"({"targetId":"js","filePath":"engine.js"})", "not absolute"},
        RefusedCase{"/lofi/inject", R"({"targetId":"ghost","filePath":"/a.js"})", "unknown id"},
        RefusedCase{"/lofi/map", R"({"parameter":"p","objectId":"out"})", "already mapped"},
        RefusedCase{"/lofi/unmap", R"({"parameter":"q"})", "not mapped"},
        RefusedCase{"/lofi/set", R"({"id":"osc"})", "\"attrs\""},
        RefusedCase{"/lofi/move", R"({"id":"osc","x":1})", "\"y\""}));

TEST_F(SimulatorModelTest, EverythingButInitAndPingNeedsADevice) {
  auto reply = send("/lofi/create", R"({"id":"a","class":"cycle~"})");
  EXPECT_EQ(reply.at("message"), "no device: send /lofi/init first");
  EXPECT_EQ(send("/lofi/ping", "{}").at("status"), "ok");
  EXPECT_EQ(send("/lofi/init", "{}").at("status"), "error");
}

TEST_F(SimulatorModelTest, InitStartsAFreshDevice) {
  init_with({{"a", "cycle~"}});
  expect_ok("/lofi/init", R"({"deviceName":"Second"})");
  EXPECT_TRUE(model.objects().empty());
  EXPECT_EQ(*model.device(), "Second");
}

}  // namespace
}  // namespace fcp::lofi::bridge

// Bridge::deliver: effects in order, compensation in Max on the first failure.
#include <atomic>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <mutex>
#include <vector>

#include "bridge_fixture.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;
using DeliverTest = BridgeFixture;
namespace json = boost::json;

core::Effect effect(std::string address, const json::object& payload,
                    std::vector<core::Effect> undo = {}) {
  return core::Effect{std::move(address), json::serialize(payload), std::move(undo)};
}

core::Effect create(const std::string& id, const std::string& max_class = "cycle~") {
  return effect("/lofi/create", {{"id", id}, {"class", max_class}, {"x", 0}, {"y", 0}},
                {effect("/lofi/remove", {{"id", id}})});
}

core::Effect wire(const std::string& from, const std::string& to) {
  const json::object fields{{"sourceId", from}, {"outlet", 0}, {"destId", to}, {"inlet", 0}};
  return effect("/lofi/wire", fields, {effect("/lofi/unwire", fields)});
}

// The simulator's log without the requestId the bridge adds: "address {json}".
std::vector<std::string> addresses_and_ids(const Simulator& max) {
  std::vector<std::string> out;
  for (const auto& line : max.log()) {
    const auto space = line.find(' ');
    const auto body = json::parse(line.substr(space + 1)).as_object();
    const auto* id = body.if_contains("id");
    out.push_back(line.substr(0, space) +
                  (id ? " " + std::string(id->as_string()) : std::string()));
  }
  return out;
}

class DeliverToMax : public DeliverTest {
 protected:
  void SetUp() override {
    max = simulator();
    bridge = bridge_to(*max);
    ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Flutter"}}));
    max->clear_log();
  }

 public:
  std::unique_ptr<Simulator> max;
  std::shared_ptr<Bridge> bridge;
};

TEST_F(DeliverToMax, DeliversEveryEffectInOrder) {
  auto delivered = deliver(*bridge, {create("a"), create("b"), wire("a", "b")});
  ASSERT_TRUE(delivered) << delivered.error().message;
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create a", "/lofi/create b", "/lofi/wire"}));
  EXPECT_EQ(max->model().wires().size(), 1u);
}

TEST_F(DeliverToMax, CompensatesNewestFirstWhenAnEffectFails) {
  max->set_fail_on("/lofi/wire");
  auto delivered = deliver(*bridge, {create("a"), create("b"), wire("a", "b")});
  ASSERT_FALSE(delivered);
  EXPECT_EQ(delivered.error().message, "simulated failure of /lofi/wire");
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create a", "/lofi/create b", "/lofi/wire",
                                      "/lofi/remove b", "/lofi/remove a"}));
  EXPECT_TRUE(max->model().objects().empty()) << "Max kept objects of a failed op";
}

TEST_F(DeliverToMax, SendsEachEffectsUndoListInItsOwnOrder) {
  // A remove whose undo re-creates the object and then its wire.
  ASSERT_TRUE(deliver(*bridge, {create("a"), create("b"), wire("a", "b")}));
  max->clear_log();
  const json::object wire_fields{{"sourceId", "a"}, {"outlet", 0}, {"destId", "b"}, {"inlet", 0}};
  auto remove_b = effect("/lofi/remove", {{"id", "b"}},
                         {effect("/lofi/create", {{"id", "b"}, {"class", "cycle~"}}),
                          effect("/lofi/wire", wire_fields)});
  max->set_fail_on("/lofi/move");
  auto delivered =
      deliver(*bridge, {remove_b, effect("/lofi/move", {{"id", "a"}, {"x", 1}, {"y", 2}})});
  ASSERT_FALSE(delivered);
  EXPECT_EQ(addresses_and_ids(*max), (std::vector<std::string>{"/lofi/remove b", "/lofi/move a",
                                                               "/lofi/create b", "/lofi/wire"}));
  EXPECT_EQ(max->model().wires().size(), 1u) << "the wire was not restored";
}

TEST_F(DeliverToMax, UndoesOnlyConfirmedEffects) {
  auto delivered = deliver(*bridge, {create("x", "cycle~"), create("x", "cycle~")});
  ASSERT_FALSE(delivered);
  EXPECT_EQ(delivered.error().message, "id \"x\" already exists");
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create x", "/lofi/create x", "/lofi/remove x"}));
  max->clear_log();
  auto first_fails = deliver(*bridge, {wire("ghost", "x"), create("y")});
  ASSERT_FALSE(first_fails);
  EXPECT_EQ(addresses_and_ids(*max), (std::vector<std::string>{"/lofi/wire"}));
}

TEST_F(DeliverToMax, RefusesAnEffectThatIsNotALofiMessageAndUndoesTheRest) {
  auto delivered = deliver(*bridge, {create("a"), effect("/other/thing", {})});
  ASSERT_FALSE(delivered);
  EXPECT_NE(delivered.error().message.find("is not /lofi/<verb>"), std::string::npos);
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create a", "/lofi/remove a"}));
}

TEST_F(DeliverToMax, AnEmptyDeliveryIsDone) {
  EXPECT_TRUE(deliver(*bridge, {}));
}

TEST_F(DeliverToMax, AnEffectTooLargeForMaxIsRefusedAndTheRestUndone) {
  auto huge = effect("/lofi/ui",
                     {{"layers", json::array{json::object{{"name", std::string(40000, 'n')}}}}});
  auto delivered = deliver(*bridge, {create("a"), huge});
  ASSERT_FALSE(delivered);
  EXPECT_NE(delivered.error().message.find("Max truncates symbols"), std::string::npos);
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create a", "/lofi/remove a"}));
}

TEST_F(DeliverTest, AfterATimeoutUndoesTheTimedOutEffectTooAndWaitsAtMostOneMoreTimeout) {
  auto max = simulator();
  auto bridge = bridge_to(*max, 200ms);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Slow"}}));
  ASSERT_TRUE(deliver(*bridge, {create("a")}));
  max->clear_log();
  max->set_fault(Fault::slow, 300ms);  // Max acts at once but answers after the timeout
  const auto started = std::chrono::steady_clock::now();
  auto delivered = deliver(*bridge, {create("b"), create("c"), wire("b", "c")});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(delivered);
  EXPECT_NE(delivered.error().message.find("Max did not answer /lofi/create within 200 ms"),
            std::string::npos)
      << delivered.error().message;
  EXPECT_NE(delivered.error().message.find("was not confirmed for 1 of 1"), std::string::npos)
      << delivered.error().message;
  EXPECT_LT(elapsed, 800ms) << "compensation waited beyond one timeout";
  ASSERT_TRUE(wait_until([&] { return max->log().size() == 2; }));
  EXPECT_EQ(addresses_and_ids(*max),
            (std::vector<std::string>{"/lofi/create b", "/lofi/remove b"}));
  ASSERT_TRUE(wait_until([&] { return !max->model().objects().contains("b"); }));
  EXPECT_TRUE(max->model().objects().contains("a"));
}

TEST_F(DeliverTest, ReportsProgressAfterEachConfirmation) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Progress"}}));
  std::mutex mutex;
  std::vector<std::pair<std::size_t, std::size_t>> reports;
  auto record = [&](std::size_t confirmed, std::size_t total) {
    std::lock_guard lock(mutex);
    reports.emplace_back(confirmed, total);
  };
  ASSERT_TRUE(deliver(*bridge, {create("a"), create("b"), wire("a", "b")}, record));
  {
    std::lock_guard lock(mutex);
    EXPECT_EQ(reports, (std::vector<std::pair<std::size_t, std::size_t>>{{1, 3}, {2, 3}, {3, 3}}));
    reports.clear();
  }
  ASSERT_FALSE(deliver(*bridge, {create("c"), wire("ghost", "c")}, record));
  std::lock_guard lock(mutex);
  EXPECT_EQ(reports,
            (std::vector<std::pair<std::size_t, std::size_t>>{{1, 2}}));  // not the failure
}

TEST_F(DeliverTest, CompensationStopsWaitingOnceMaxStopsAnswering) {
  // Max answers the creates, refuses the wire, then goes silent for the compensation.
  auto max_ptr = std::make_shared<std::atomic<Simulator*>>(nullptr);
  struct Arrivals {
    std::mutex mutex;
    std::vector<std::chrono::steady_clock::time_point> times;
  };
  auto removes = std::make_shared<Arrivals>();
  SimulatorOptions options;
  options.port = 0;
  options.reply_port = 0;
  options.fail_on = "/lofi/wire";
  options.on_message = [max_ptr, removes](const std::string& address, const std::string&) {
    if (address == "/lofi/wire") max_ptr->load()->set_fault(Fault::silent);
    if (address != "/lofi/remove") return;
    std::lock_guard lock(removes->mutex);
    removes->times.push_back(std::chrono::steady_clock::now());
  };
  auto started_max = Simulator::start(threads.io(), options);
  ASSERT_TRUE(started_max);
  auto& max = *started_max;
  max_ptr->store(max.get());
  auto bridge = bridge_to(*max, 200ms);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Gone"}}));
  max->clear_log();
  const auto started = std::chrono::steady_clock::now();
  auto delivered = deliver(*bridge, {create("a"), create("b"), create("c"), wire("a", "b")});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  ASSERT_FALSE(delivered);
  EXPECT_GE(elapsed, 200ms);
  ASSERT_TRUE(wait_until([&] { return max->log().size() == 7; }));
  // "remove c" waited for Max and timed out; the other two then went out together, without a
  // timeout each (checked on the wire: a wall-clock bound on the whole call flakes under load).
  {
    std::lock_guard lock(removes->mutex);
    ASSERT_EQ(removes->times.size(), 3u);
    EXPECT_LT(removes->times[2] - removes->times[1], 200ms)
        << "waited for every compensating message in turn";
  }
  EXPECT_EQ(
      addresses_and_ids(*max),
      (std::vector<std::string>{"/lofi/create a", "/lofi/create b", "/lofi/create c", "/lofi/wire",
                                "/lofi/remove c", "/lofi/remove b", "/lofi/remove a"}));
  EXPECT_TRUE(delivered.error().message.starts_with("simulated failure of /lofi/wire (undoing"))
      << delivered.error().message;
  EXPECT_NE(delivered.error().message.find("not confirmed for 3 of 3"), std::string::npos)
      << delivered.error().message;
}

}  // namespace
}  // namespace fcp::lofi::bridge

// A fixture with io threads, simulators on ephemeral ports and bridges to them.
#pragma once

#include <gtest/gtest.h>

#include <future>

#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/bridge/simulator.hpp"
#include "support.hpp"

namespace fcp::lofi::bridge::testing {

class BridgeFixture : public ::testing::Test {
 protected:
  // A simulator on a free port that answers whoever sent the request.
  std::unique_ptr<Simulator> simulator(Fault fault = Fault::none,
                                       std::chrono::milliseconds delay = {},
                                       std::chrono::milliseconds jitter = {}) {
    SimulatorOptions options;
    options.port = 0;
    options.reply_port = 0;
    options.fault = fault;
    options.delay = delay;
    options.jitter = jitter;
    auto started = Simulator::start(threads.io(), std::move(options));
    EXPECT_TRUE(started) << (started ? "" : started.error().message);
    return started ? std::move(*started) : nullptr;
  }

  std::shared_ptr<Bridge> bridge_to(const Simulator& target,
                                    std::chrono::milliseconds timeout = 3000ms) {
    BridgeOptions options;
    options.port = target.port();
    options.reply_port = 0;
    options.timeout = timeout;
    auto opened = Bridge::open(threads.io(), options);
    EXPECT_TRUE(opened) << (opened ? "" : opened.error().message);
    return opened ? *opened : nullptr;
  }

  static std::future<core::Result<Reply>> start(Bridge& bridge, const std::string& verb,
                                                const boost::json::object& payload = {}) {
    auto promise = std::make_shared<std::promise<core::Result<Reply>>>();
    auto future = promise->get_future();
    bridge.request(verb, payload, [promise](core::Result<Reply> result) {
      promise->set_value(std::move(result));
    });
    return future;
  }

  static core::Result<Reply> call(Bridge& bridge, const std::string& verb,
                                  const boost::json::object& payload = {}) {
    auto future = start(bridge, verb, payload);
    return get_within(future);
  }

  static core::Result<void> deliver(Bridge& bridge, std::vector<core::Effect> effects,
                                    core::DeliveryProgress progress = {}) {
    auto promise = std::make_shared<std::promise<core::Result<void>>>();
    auto future = promise->get_future();
    bridge.deliver(std::move(effects), std::move(progress),
                   [promise](core::Result<void> result) { promise->set_value(std::move(result)); });
    return get_within(future);
  }

  static void expect_ok(const core::Result<Reply>& result) {
    EXPECT_TRUE(result) << (result ? "" : result.error().message);
  }

 public:
  // The capture outlives the io threads: work a bridge posts as it goes (a late warning) may
  // still log while the threads wind down.
  LogCapture logs;
  IoThreads threads;  // destroyed before the capture, after everything a test made
};

}  // namespace fcp::lofi::bridge::testing

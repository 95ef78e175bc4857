// Round-trip time through the bridge and the simulator over loopback UDP, 2000 sequential
// requests (each sent from the previous one's completion). Prints p50/p99 for the docs.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "bridge_fixture.hpp"

namespace fcp::lofi::bridge {
namespace {

using namespace testing;
using RoundTrip = BridgeFixture;

class SequentialPings : public std::enable_shared_from_this<SequentialPings> {
 public:
  SequentialPings(std::shared_ptr<Bridge> bridge, int count)
      : bridge_(std::move(bridge)), count_(count) {
    samples_.reserve(static_cast<std::size_t>(count));
  }
  std::future<std::vector<double>> run() {
    next();
    return promise_.get_future();
  }

 private:
  void next() {
    if (static_cast<int>(samples_.size()) == count_) return promise_.set_value(samples_);
    const auto started = std::chrono::steady_clock::now();
    bridge_->request("create", {{"id", fmt::format("o{}", samples_.size())}, {"class", "cycle~"}},
                     [self = shared_from_this(), started](const core::Result<Reply>& result) {
                       if (!result) {
                         return self->promise_.set_exception(
                             std::make_exception_ptr(std::runtime_error(result.error().message)));
                       }
                       self->samples_.push_back(std::chrono::duration<double, std::milli>(
                                                    std::chrono::steady_clock::now() - started)
                                                    .count());
                       self->next();
                     });
  }
  std::shared_ptr<Bridge> bridge_;
  int count_;
  std::vector<double> samples_;
  std::promise<std::vector<double>> promise_;
};

double percentile(const std::vector<double>& sorted, double p) {
  const auto index =
      static_cast<std::size_t>(std::lround(p * static_cast<double>(sorted.size() - 1)));
  return sorted[std::min(index, sorted.size() - 1)];
}

TEST_F(RoundTrip, TwoThousandSequentialRequests) {
  auto max = simulator();
  auto bridge = bridge_to(*max);
  ASSERT_TRUE(call(*bridge, "init", {{"deviceName", "Bench"}}));
  constexpr int kRequests = 2000;
  const auto started = std::chrono::steady_clock::now();
  auto future = std::make_shared<SequentialPings>(bridge, kRequests)->run();
  auto samples = get_within(future, std::chrono::milliseconds(60000));
  const double total_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(samples.size(), static_cast<std::size_t>(kRequests));
  std::sort(samples.begin(), samples.end());
  const double p50 = percentile(samples, 0.50);
  const double p99 = percentile(samples, 0.99);
  const std::string summary = fmt::format(
      "lofi bridge RTT over loopback UDP ({} sequential /lofi/create via the simulator): "
      "p50 {:.3f} ms, p99 {:.3f} ms, max {:.3f} ms, min {:.3f} ms; {:.0f} requests/s",
      kRequests, p50, p99, samples.back(), samples.front(), kRequests / (total_ms / 1000.0));
  std::cout << "[   RTT    ] " << summary << std::endl;
  RecordProperty("rtt_p50_ms", fmt::format("{:.3f}", p50));
  RecordProperty("rtt_p99_ms", fmt::format("{:.3f}", p99));
  EXPECT_EQ(max->model().objects().size(), static_cast<std::size_t>(kRequests));
  EXPECT_EQ(bridge->health().timeouts, 0u);
  EXPECT_LT(p50, 5.0);  // generous: a loaded 2-core CI box, not a benchmark target
  EXPECT_LT(p99, 50.0);
}

}  // namespace
}  // namespace fcp::lofi::bridge

// What one lofi call may add: `repeat` past limits.max_created_per_call is refused before an
// object is made, with an error naming the setting; the device is as it was.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "domains/lofi/domain.hpp"
#include "tests/support/cost_session.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

// A lofi domain that never connects to Max.
std::unique_ptr<core::Domain> offline_domain(boost::asio::io_context& io) {
  return make_lofi_domain(io, boost::json::object{{"connect_on_new", false}});
}

TEST(LofiCost, RepeatPastTheCreationLimitIsRefused) {
  boost::asio::io_context io;
  auto domain = offline_domain(io);
  testing::CostSession cost(*domain, testing::creation_limit(10));
  ASSERT_FALSE(cost.ops({"add cycle~ osc1 at:40,40"}).is_error);
  cost.expect_refused({"add cycle~ osc2 at:40,100", "repeat osc1 count:10"},
                      "! this op would add 10 objects, more than one call may add "
                      "(limits.max_created_per_call = 10 entities per call, a setting of "
                      "the daemon's config; earlier ops of this call added 1)");
  EXPECT_FALSE(cost.ops({"repeat osc1 count:10"}).is_error);
}

// About 3 450 bytes an object or wire: a batch past limits.max_document_bytes is rolled back, an
// open whose file is estimated past it is refused before parsing; both name the setting.
TEST(LofiCost, BatchesAndOpensPastTheDocumentMemoryLimitAreRefused) {
  boost::asio::io_context io;
  auto domain = offline_domain(io);
  testing::CostSession cost(*domain, testing::memory_limit(3450 * 5));
  ASSERT_FALSE(cost.ops({"add cycle~ osc1 at:40,40"}).is_error);
  cost.expect_refused({"repeat osc1 count:8"},
                      "more than one document may hold (limits.max_document_bytes = "
                      "17250 bytes");
  cost.expect_open_refused(testing::source_dir() / "fixtures" / "lofi" / "opened.maxpat");
}

}  // namespace
}  // namespace fcp::lofi

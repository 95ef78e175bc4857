// What one lofi call may add: `repeat` past limits.max_created_per_call is refused before an
// object is made, with an error naming the setting; the device is as it was.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "core/session.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

TEST(LofiCost, RepeatPastTheCreationLimitIsRefused) {
  boost::asio::io_context io;
  auto domain = make_lofi_domain(io, boost::json::object{{"connect_on_new", false}});
  testing::NoFiles paths;
  core::SessionLimits limits;
  limits.max_created_per_call = 10;
  core::Session session(*domain, paths, limits);
  (void)session.run_session("new \"Cost\"", {});
  auto run = [&](std::vector<std::string> ops) { return session.run_ops(ops, {}).reply; };
  ASSERT_FALSE(run({"add cycle~ osc1 at:40,40"}).is_error);
  const std::string before = *session.digest();
  auto refused = run({"add cycle~ osc2 at:40,100", "repeat osc1 count:10"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("! this op would add 10 objects, more than one call may add "
                              "(limits.max_created_per_call = 10 entities per call, a setting of "
                              "the daemon's config; earlier ops of this call added 1)"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(*session.digest(), before);
  EXPECT_FALSE(run({"repeat osc1 count:10"}).is_error);
}

// About 3 450 bytes an object or wire: a batch past limits.max_document_bytes is rolled back, an
// open whose file is estimated past it is refused before parsing; both name the setting.
TEST(LofiCost, BatchesAndOpensPastTheDocumentMemoryLimitAreRefused) {
  boost::asio::io_context io;
  auto domain = make_lofi_domain(io, boost::json::object{{"connect_on_new", false}});
  testing::AllowAll paths;
  core::SessionLimits limits;
  limits.max_document_bytes = 3450 * 5;
  core::Session session(*domain, paths, limits);
  (void)session.run_session("new \"Cost\"", {});
  auto run = [&](std::vector<std::string> ops) { return session.run_ops(ops, {}).reply; };
  ASSERT_FALSE(run({"add cycle~ osc1 at:40,40"}).is_error);
  const std::string before = *session.digest();
  auto refused = run({"repeat osc1 count:8"});
  EXPECT_TRUE(refused.is_error);
  EXPECT_NE(refused.text.find("more than one document may hold (limits.max_document_bytes = "
                              "17250 bytes"),
            std::string::npos)
      << refused.text;
  EXPECT_EQ(*session.digest(), before);
  const auto file = testing::source_dir() / "fixtures" / "lofi" / "opened.maxpat";
  auto opened = session.run_session("open " + file.string() + " discard:true", {}).reply;
  EXPECT_TRUE(opened.is_error);
  EXPECT_NE(opened.text.find("opens into an estimated"), std::string::npos) << opened.text;
  EXPECT_EQ(*session.digest(), before);
}

}  // namespace
}  // namespace fcp::lofi

// Golden transcripts of the lofi domain, edited offline (format: tests/support/transcript.hpp).
#include "tests/support/transcript.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "domains/lofi/domain.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::lofi {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fcp::testing::source_dir();

class Transcript : public ::testing::TestWithParam<fs::path> {};

TEST_P(Transcript, RepliesMatch) {
  boost::asio::io_context io;
  const boost::json::object offline{{"connect_on_new", false}};
  auto domain = make_lofi_domain(io, offline);
  EXPECT_EQ(testing::run_transcript(GetParam(), *domain, kRoot / "fixtures" / "lofi"), "");
}

INSTANTIATE_TEST_SUITE_P(Golden, Transcript,
                         ::testing::ValuesIn(testing::transcript_files(kRoot, "lofi")),
                         [](const auto& file) {
                           return testing::transcript_test_name(file.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Transcript);

}  // namespace
}  // namespace fcp::lofi

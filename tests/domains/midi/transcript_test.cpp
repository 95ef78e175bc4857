// Golden transcripts of the midi domain (format: tests/support/transcript.hpp).
#include "tests/support/transcript.hpp"

#include <gtest/gtest.h>

#include "domains/midi/domain.hpp"
#include "tests/support/source_dir.hpp"

namespace fcp::midi {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = fcp::testing::source_dir();

class Transcript : public ::testing::TestWithParam<fs::path> {};

TEST_P(Transcript, RepliesMatch) {
  auto domain = make_midi_domain();
  EXPECT_EQ(testing::run_transcript(GetParam(), *domain, kRoot / "fixtures" / "midi"), "");
}

INSTANTIATE_TEST_SUITE_P(Golden, Transcript,
                         ::testing::ValuesIn(testing::transcript_files(kRoot, "midi")),
                         [](const auto& file) {
                           return testing::transcript_test_name(file.param);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Transcript);

}  // namespace
}  // namespace fcp::midi

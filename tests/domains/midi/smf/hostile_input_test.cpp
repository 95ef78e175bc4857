// Malformed and malicious input: every case gives a clear error or a valid file, never a crash or
// a read outside the buffer (run under the ASan build), and never an allocation the input
// cannot pay for.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>

#include "domains/midi/smf/smf.hpp"
#include "smf_test_support.hpp"

namespace fcp::midi::smf {
namespace {

using testing::bytes;
using testing::chunk;
using testing::fixture;
using ::testing::HasSubstr;
using testing::header;
using testing::one_track;
using testing::read_error;

const std::string kEnd = bytes({0x00, 0xFF, 0x2F, 0x00});

// Parses `data` from its own heap block of exactly its size, so ASan sees any overread.
core::Result<File> read_exact(std::string_view data) {
  auto copy = std::make_unique<char[]>(data.size() + (data.empty() ? 1 : 0));
  std::copy(data.begin(), data.end(), copy.get());
  return read_smf(std::string_view(copy.get(), data.size()));
}

// Anything read_smf accepts must survive write → read unchanged.
void expect_accepted_file_round_trips(const core::Result<File>& file) {
  if (!file) return;
  auto reread = read_smf(write_smf(*file));
  ASSERT_TRUE(reread.has_value()) << reread.error().message;
  EXPECT_EQ(*reread, *file);
}

TEST(HostileInputTest, EmptyAndForeignFiles) {
  EXPECT_EQ(read_error(""), "not a MIDI file: the file is empty");
  EXPECT_EQ(read_error("MTh"), "not a MIDI file: the header is truncated after 3 bytes");
  EXPECT_EQ(read_error("hello, world"),
            "not a MIDI file: it starts with \"hell\", not \"MThd\" (or a RIFF RMID header)");
  EXPECT_EQ(read_error(bytes({0x89, 'P', 'N', 'G', 0x0D, 0x0A})),
            "not a MIDI file: it starts with 0x89 0x50 0x4E 0x47, not \"MThd\" (or a RIFF RMID "
            "header)");
  EXPECT_EQ(read_error("RIFF"), "not a MIDI file: the RIFF header is truncated");
}

TEST(HostileInputTest, BadHeaders) {
  EXPECT_EQ(read_error(chunk("MThd", bytes({0, 0, 0, 1}))),
            "not a MIDI file: the header chunk is 4 bytes long, fewer than 6");
  EXPECT_EQ(read_error("MThd" + bytes({0, 0, 0, 0x20, 0, 0, 0, 1, 0})),
            "not a MIDI file: the header is truncated after 13 bytes");
  EXPECT_EQ(read_error("MThd" + bytes({0, 0, 0, 0x20, 0, 0, 0, 1, 0, 96, 0})),
            "not a MIDI file: the header chunk claims 32 bytes but only 7 follow — truncated");
  EXPECT_EQ(read_error(header(3, 0, 96)),
            "unsupported MIDI file format 3 at byte 8 (formats 0, 1 and 2 exist)");
}

TEST(HostileInputTest, ZeroTicksPerQuarterNote) {
  EXPECT_EQ(read_error(header(1, 0, 0)), "invalid time division: 0 ticks per quarter note");
}

TEST(HostileInputTest, HeaderClaimingManyTracksWithNonePresent) {
  EXPECT_EQ(read_error(header(1, 60000, 96)),
            "the header announces 60000 tracks but the file ends after 0 — truncated");
  EXPECT_EQ(read_error(header(1, 3, 96) + chunk("MTrk", kEnd)),
            "the header announces 3 tracks but the file ends after 1 — truncated");
}

TEST(HostileInputTest, ChunkLengthBeyondTheBuffer) {
  EXPECT_EQ(read_error(header(0, 1, 96) + "MTrk" + bytes({0x7F, 0xFF, 0xFF, 0xFF}) + kEnd),
            "track 1 at byte 14: the chunk claims 2147483647 bytes but only 4 remain — truncated");
  EXPECT_EQ(
      read_error(header(0, 1, 96) + chunk("MTrk", kEnd) + "XFIH" + bytes({0xFF, 0xFF, 0xFF, 0xFF})),
      "chunk \"XFIH\" at byte 26: the chunk claims 4294967295 bytes but only 0 remain — "
      "truncated");
}

TEST(HostileInputTest, VariableLengthQuantityOfFiveBytes) {
  EXPECT_EQ(read_error(one_track(bytes({0x81, 0x80, 0x80, 0x80, 0x00, 0xC0, 1}) + kEnd)),
            "track 1 at byte 22: a delta time is a variable-length quantity longer than 4 bytes");
  EXPECT_EQ(read_error(one_track(bytes({0x00, 0xFF, 0x01, 0x80, 0x80, 0x80, 0x80, 0x01}))),
            "track 1 at byte 25: the length of a meta event is a variable-length quantity longer "
            "than 4 bytes");
}

TEST(HostileInputTest, DataByteWithoutStatus) {
  EXPECT_EQ(read_error(one_track(bytes({0x00, 0x3C, 0x40}) + kEnd)),
            "track 1 at byte 23: running status without a previous status (data byte 0x3C where "
            "a status byte belongs)");
  // Only channel messages set running status.
  EXPECT_THAT(read_error(one_track(bytes({0x00, 0xFF, 0x01, 0x00, 0x00, 0x3C, 0x40}) + kEnd)),
              HasSubstr("at byte 27: running status without a previous status"));
}

TEST(HostileInputTest, StatusByteWhereADataByteBelongs) {
  EXPECT_EQ(read_error(one_track(bytes({0x00, 0x90, 0x3C, 0x90, 0x00}) + kEnd)),
            "track 1 at byte 25: channel message 0x90 has byte 0x90 where a data byte (below "
            "0x80) belongs");
}

TEST(HostileInputTest, SystemMessagesAreNotEvents) {
  EXPECT_THAT(read_error(one_track(bytes({0x00, 0xF8}) + kEnd)),
              HasSubstr("at byte 23: status byte 0xF8 is not allowed in a MIDI file"));
}

TEST(HostileInputTest, MetaAndSysexLengthOverflow) {
  EXPECT_EQ(read_error(one_track(bytes({0x00, 0xFF, 0x01, 0xFF, 0xFF, 0xFF, 0x7F, 'a'}))),
            "track 1 at byte 29: a meta event of 268435455 bytes runs past the end of the track "
            "chunk (1 bytes left) — truncated");
  EXPECT_EQ(read_error(one_track(bytes({0x00, 0xF0, 0x05, 0x7E}))),
            "track 1 at byte 25: a SysEx event of 5 bytes runs past the end of the track chunk (1 "
            "bytes left) — truncated");
}

TEST(HostileInputTest, EventsCutByTheEndOfTheirChunk) {
  EXPECT_THAT(read_error(one_track(bytes({0x00, 0x90, 0x3C}))),
              HasSubstr("at byte 23: the track chunk ends inside channel message 0x90"));
  EXPECT_THAT(read_error(one_track(bytes({0x00, 0xFF}))),
              HasSubstr("at byte 23: the track chunk ends inside a meta event"));
  EXPECT_THAT(read_error(one_track(bytes({0x81}))),
              HasSubstr("at byte 22: the track chunk ends inside a delta time"));
  EXPECT_THAT(read_error(one_track(bytes({0x00}))),
              HasSubstr("at byte 22: the track chunk ends after a delta time"));
  EXPECT_THAT(read_error(one_track(bytes({0x00, 0xF0, 0x81}))),
              HasSubstr("the track chunk ends inside the length of a SysEx event"));
}

std::vector<std::string> valid_samples() {
  std::vector<std::string> samples;
  for (const char* name : {"mido-format1.mid", "all-metas.mid", "sysex-packets.mid", "rmid.rmi",
                           "extra-chunks.mid", "empty-tracks.mid", "smpte-25x40.mid"}) {
    samples.push_back(fixture(name));
  }
  return samples;
}

TEST(HostileInputTest, EveryPrefixOfAValidFileIsAnErrorOrAFile) {
  for (const std::string& sample : valid_samples()) {
    std::size_t errors = 0;
    for (std::size_t length = 0; length < sample.size(); ++length) {
      SCOPED_TRACE(length);
      const auto file = read_exact(std::string_view(sample).substr(0, length));
      if (!file) {
        ++errors;
        if (length >= 8) {
          EXPECT_THAT(file.error().message, HasSubstr("truncated"));
        }
        continue;
      }
      expect_accepted_file_round_trips(file);
    }
    // Only prefixes that end after the last announced track (and, for RIFF, after the "data"
    // chunk) can be whole files: at most the trailing chunks of rmid.rmi and extra-chunks.mid.
    EXPECT_LE(sample.size() - errors, 25u);
  }
}

TEST(HostileInputTest, RandomByteMutationsNeverCrash) {
  std::mt19937 rng(20240611);
  std::vector<std::string> samples = valid_samples();
  const auto corpus = testing::source_dir() / ".." / "shared" / "corpus" / "midi";
  const auto corpus_sample = corpus / "Tonejs__Midi__bach_846.mid";
  if (std::filesystem::exists(corpus_sample)) samples.push_back(testing::read_file(corpus_sample));
  std::size_t accepted = 0, rejected = 0;
  for (int round = 0; round < 5000; ++round) {
    std::string data = samples[rng() % samples.size()];
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < flips; ++i) {
      const std::size_t at = rng() % data.size();
      data[at] = static_cast<char>(rng() % 3 == 0 ? data[at] ^ (1 << (rng() % 8))
                                                  : static_cast<int>(rng() % 256));
    }
    if (rng() % 8 == 0) data.resize(rng() % (data.size() + 1));
    const auto file = read_exact(data);
    if (file) {
      ++accepted;
      expect_accepted_file_round_trips(file);
    } else {
      ++rejected;
      EXPECT_FALSE(file.error().message.empty());
    }
  }
  std::printf("  5000 mutated files: %zu accepted (and round-tripped), %zu rejected\n", accepted,
              rejected);
  EXPECT_GT(accepted, 100u);
  EXPECT_GT(rejected, 100u);
}

TEST(HostileInputTest, HugeAnnouncedSizesAllocateNothingUpFront) {
  // 20 000 000 events allowed, but a 30-byte file cannot hold more than a few: reading must not
  // reserve for the limit. (ASan would report an allocation failure; here it must be instant.)
  ReadLimits limits;
  limits.max_events = std::size_t{1} << 40;
  auto file = read_smf(one_track(bytes({0x00, 0xC0, 1}) + kEnd), limits);
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(file->tracks[0].events.size(), 1u);
}

}  // namespace
}  // namespace fcp::midi::smf

// Every file of the shared MIDI corpus: read → write → read is lossless, the written file reads
// the same in mido, and the tempo map agrees with mido's playback times.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "domains/midi/smf/notes.hpp"
#include "domains/midi/smf/smf.hpp"
#include "domains/midi/smf/tempo_map.hpp"
#include "smf_test_support.hpp"

namespace fcp::midi::smf {
namespace {

namespace fs = std::filesystem;
using testing::read_file;
using testing::source_dir;

std::vector<fs::path> corpus_files() {
  const fs::path dir = source_dir() / ".." / "shared" / "corpus" / "midi";
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(CorpusTest, EveryFileRoundTripsLosslessly) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus at " << source_dir() / ".." / "shared";
  std::size_t byte_exact = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string original_bytes = read_file(path);
    auto original = read_smf(original_bytes);
    ASSERT_TRUE(original.has_value()) << original.error().message;
    const std::string written = write_smf(*original);
    auto reread = read_smf(written);
    ASSERT_TRUE(reread.has_value()) << reread.error().message;
    EXPECT_EQ(*reread, *original);
    EXPECT_EQ(write_smf(*reread), written);
    std::size_t events = 0, notes = 0;
    for (const Track& track : original->tracks) {
      events += track.events.size();
      notes += pair_notes(track).size();
    }
    EXPECT_GT(events, 0u);
    const bool same_bytes = written == original_bytes;
    byte_exact += same_bytes ? 1 : 0;
    std::printf("  %-62s fmt %d %2zu tracks %6zu events %5zu notes %s\n", path.filename().c_str(),
                original->format, original->tracks.size(), events, notes,
                same_bytes ? "byte-exact" : "");
  }
  std::printf("  %zu of %zu files written back byte for byte\n", byte_exact, files.size());
}

TEST(CorpusTest, MidoReadsOurWrittenFilesAsWeReadTheOriginals) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus";
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    auto original = read_smf(read_file(path));
    ASSERT_TRUE(original.has_value());
    const auto lines = testing::mido_dump(write_smf(*original));
    if (!lines) GTEST_SKIP() << "no /usr/bin/python3 with mido";
    EXPECT_EQ(*lines, testing::dump(*original));
  }
}

// mido's playback times (tempo from every track, merged) against TempoMap::seconds_at. mido
// plays our written copy: it cannot read files with a chunk other than MTrk among the tracks,
// and MidoReadsOurWrittenFilesAsWeReadTheOriginals shows the copy holds the original's events.
const char* const kMidoTimes = R"PY(
import sys
import mido
mid = mido.MidiFile(sys.argv[1])
now = 0.0
for msg in mid:
    now += msg.time
    if msg.type == "note_on" and msg.velocity > 0:
        print("%.9f %d %d" % (now, msg.channel, msg.note))
)PY";

TEST(CorpusTest, SecondsAgreeWithMidoPlayback) {
  const std::vector<fs::path> files = corpus_files();
  if (files.empty()) GTEST_SKIP() << "no corpus";
  if (std::system("/usr/bin/python3 -c 'import mido' >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "no /usr/bin/python3 with mido";
  }
  const fs::path script = fs::temp_directory_path() / "fcp-smf-times.py";
  std::ofstream(script) << kMidoTimes;
  std::size_t compared = 0;
  for (const fs::path& path : files) {
    auto file = read_smf(read_file(path));
    ASSERT_TRUE(file.has_value());
    if (file->format == 2 || file->division.smpte) continue;  // mido plays neither
    SCOPED_TRACE(path.filename().string());
    // Note-ons of all tracks in tick order (stable by track), as mido merges them.
    struct Onset {
      std::uint64_t tick;
      std::size_t track, index;
    };
    std::vector<Onset> onsets;
    for (std::size_t t = 0; t < file->tracks.size(); ++t) {
      const auto& events = file->tracks[t].events;
      for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].is_note_on()) onsets.push_back({events[i].tick, t, i});
      }
    }
    std::stable_sort(onsets.begin(), onsets.end(),
                     [](const Onset& a, const Onset& b) { return a.tick < b.tick; });
    const TempoMap tempo(*file);
    const fs::path copy = fs::temp_directory_path() / "fcp-smf-times.mid";
    std::ofstream(copy, std::ios::binary) << write_smf(*file);
    FILE* pipe = popen(("/usr/bin/python3 " + script.string() + " " + copy.string()).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    double seconds = 0;
    int channel = 0, note = 0;
    std::size_t n = 0;
    while (std::fscanf(pipe, "%lf %d %d", &seconds, &channel, &note) == 3) {
      ASSERT_LT(n, onsets.size());
      const Event& e = file->tracks[onsets[n].track].events[onsets[n].index];
      EXPECT_NEAR(tempo.seconds_at(e.tick), seconds, 1e-6) << "note-on " << n;
      ++n;
    }
    pclose(pipe);
    fs::remove(copy);
    EXPECT_EQ(n, onsets.size());
    compared += n;
  }
  fs::remove(script);
  std::printf("  %zu note-on times compared with mido\n", compared);
  EXPECT_GT(compared, 1000u);
}

}  // namespace
}  // namespace fcp::midi::smf

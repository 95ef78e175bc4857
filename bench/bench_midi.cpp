// midi benchmarks: 100 000 notes in one batch, save and open of a 100 000-note file, undo of
// one op in a 100 000-note song, selector ops and queries over 100 000 notes. Figures in
// bench/README.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp {
namespace {

// The benchmarks measure big batches themselves: no limit on what one call may add.
core::SessionLimits bench_limits() {
  core::SessionLimits limits;
  limits.max_created_per_call = limits.max_ops_per_call;
  return limits;
}

using testing::AllowAll;

// `count` notes over four tracks, sixteenth notes in sequence.
std::vector<std::string> song_ops(int count) {
  std::vector<std::string> ops{"track add A", "track add B", "track add C", "track add D"};
  const char* tracks[] = {"A", "B", "C", "D"};
  const char* pitches[] = {"C4", "E4", "G4", "B4", "D5"};
  for (int i = 0; i < count; ++i) {
    const int track = i % 4;
    const long tick = static_cast<long>(i / 4) * 120;
    ops.push_back(std::string("note ") + tracks[track] + " " + pitches[i % 5] +
                  " at:tick:" + std::to_string(tick) + " dur:16n");
  }
  return ops;
}

// A session holding a new song of `notes` notes (song_ops).
struct SongSession {
  explicit SongSession(int notes) {
    session.run_session("new \"Bench\"", {});
    session.run_ops(song_ops(notes), {});
  }
  std::unique_ptr<core::Domain> domain = midi::make_midi_domain();
  AllowAll paths;
  core::Session session{*domain, paths, bench_limits()};
};

void BM_MidiNotesInOneBatch(benchmark::State& state) {
  auto domain = midi::make_midi_domain();
  AllowAll paths;
  const auto ops = song_ops(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    core::Session session(*domain, paths, bench_limits());
    session.run_session("new \"Bench\"", {});
    auto result = session.run_ops(ops, {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(ops.size()));
}
BENCHMARK(BM_MidiNotesInOneBatch)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

std::string song_file(int count) {
  SongSession song(count);
  core::Session& session = song.session;
  const auto file = std::filesystem::temp_directory_path() / "fcp-bench-midi.mid";
  session.run_session("save as:" + file.string(), {});
  std::string bytes = *core::read_file(file, std::size_t{1} << 30);
  std::filesystem::remove(file);
  return bytes;
}

void BM_MidiOpen(benchmark::State& state) {
  const std::string bytes = song_file(static_cast<int>(state.range(0)));
  auto domain = midi::make_midi_domain();
  for (auto _ : state) {
    auto document = domain->load("bench.mid", bytes, {});
    if (!document) state.SkipWithError(document.error().message.c_str());
  }
  state.counters["bytes"] = static_cast<double>(bytes.size());
}
BENCHMARK(BM_MidiOpen)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_MidiSave(benchmark::State& state) {
  const std::string bytes = song_file(static_cast<int>(state.range(0)));
  auto domain = midi::make_midi_domain();
  auto document = domain->load("bench.mid", bytes, {});
  for (auto _ : state) {
    auto out = (*document)->serialize("bench.mid");
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_MidiSave)->Arg(100000)->Unit(benchmark::kMillisecond);

// Undo and redo of one op in songs of different sizes: the time must not grow with the song.
void BM_MidiUndoOneOp(benchmark::State& state) {
  SongSession song(static_cast<int>(state.range(0)));
  core::Session& session = song.session;
  session.run_ops(std::vector<std::string>{"note A C6 at:1.1"}, {});
  for (auto _ : state) {
    session.run_session("undo", {});
    session.run_session("redo", {});
  }
}
BENCHMARK(BM_MidiUndoOneOp)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

// Ops whose selectors scan the whole song: transpose everything, then velocity on one pitch.
void BM_MidiSelectorOps(benchmark::State& state) {
  SongSession song(static_cast<int>(state.range(0)));
  core::Session& session = song.session;
  for (auto _ : state) {
    auto result =
        session.run_ops(std::vector<std::string>{"transpose @all +1", "velocity @pitch:C#4 -3",
                                                 "transpose @track:B @range:10.1-200.4 -1"},
                        {});
    if (result.reply.is_error) state.SkipWithError(result.reply.text.c_str());
  }
}
BENCHMARK(BM_MidiSelectorOps)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(3);

// The queries a model runs most, over the whole song or a window of it.
void BM_MidiQueries(benchmark::State& state) {
  SongSession song(static_cast<int>(state.range(0)));
  core::Session& session = song.session;
  const std::vector<std::string> queries{"map",
                                         "tracks",
                                         "stats",
                                         "events A",
                                         "find C4",
                                         "describe A",
                                         "piano-roll A 100.1-104.1",
                                         "tracker A 100.1-104.1"};
  for (auto _ : state) {
    for (const auto& query : queries) {
      auto reply = session.run_query(query);
      if (reply.is_error) state.SkipWithError(reply.text.c_str());
    }
  }
  state.counters["queries"] = static_cast<double>(queries.size());
}
BENCHMARK(BM_MidiQueries)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace fcp

BENCHMARK_MAIN();

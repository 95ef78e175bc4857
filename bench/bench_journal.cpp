// bench_journal: what journals cost. (1) One `deck` call of 1 and of 100 ops through mcp::Server
// (JSON in, JSON out, no transport) without journals and with each fsync policy; (2) recovery
// of 1 000 documents of 20 calls each: listing them (`recover`) and restoring every one
// (`recover HANDLE`). A plain program: `bench_journal [--docs N] [--calls N] [--dir DIR]`.
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "mcp/server.hpp"
#include "tests/support/test_domain.hpp"

namespace {

using namespace fcp;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

class AllowDir final : public core::PathPolicy {
 public:
  explicit AllowDir(fs::path dir) : dir_(std::move(dir)) {}
  core::Result<fs::path> for_reading(std::string_view p) const override { return dir_ / p; }
  core::Result<fs::path> for_writing(std::string_view p) const override { return dir_ / p; }

 private:
  fs::path dir_;
};

class LastReply final : public mcp::Responder {
 public:
  void notify(std::string) override {}
  void reply(std::string message) override { last = std::move(message), ++replies; }
  void no_reply() override { ++replies; }
  std::size_t replies = 0;
  std::string last;
};

class Harness {
 public:
  Harness(const core::Domain& domain, const core::PathPolicy& paths, mcp::JournalOptions journal)
      : server_(io_.get_executor(), {&domain}, paths, options(std::move(journal))) {
    connection_ =
        server_.connect(mcp::ConnectionInfo{"bench", "bench", std::nullopt, std::nullopt}, nullptr);
    call_raw(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
             R"("2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
  }
  ~Harness() {
    connection_->close();
    io_.poll();
  }
  std::string call(const std::string& tool, boost::json::object arguments) {
    boost::json::object message{{"jsonrpc", "2.0"},
                                {"id", ++id_},
                                {"method", "tools/call"},
                                {"params", {{"name", tool}, {"arguments", std::move(arguments)}}}};
    return call_raw(boost::json::serialize(message));
  }

 private:
  static mcp::ServerOptions options(mcp::JournalOptions journal) {
    mcp::ServerOptions options;
    options.journal = std::move(journal);
    options.max_documents = 100'000;
    return options;
  }
  std::string call_raw(const std::string& text) {
    const auto before = responder_->replies;
    connection_->handle(text, responder_);
    while (responder_->replies == before)
      io_.poll_one();
    return responder_->last;
  }

  boost::asio::io_context io_;
  decltype(boost::asio::make_work_guard(io_)) work_ = boost::asio::make_work_guard(io_);
  mcp::Server server_;
  std::shared_ptr<mcp::Connection> connection_;
  std::shared_ptr<LastReply> responder_ = std::make_shared<LastReply>();
  std::int64_t id_ = 1;
};

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

std::string handle_in(const std::string& text) {
  std::smatch match;
  return std::regex_search(text, match, std::regex("doc:de-[0-9a-f]{32}")) ? match[0].str() : "";
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t docs = 1000;
  std::size_t calls_per_doc = 20;
  fs::path dir = fs::temp_directory_path() / ("fcp-bench-journal-" + std::to_string(::getpid()));
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--docs") docs = std::stoul(argv[i + 1]);
    if (flag == "--calls") calls_per_doc = std::stoul(argv[i + 1]);
    if (flag == "--dir") dir = argv[i + 1];
  }
  auto domain = testing::make_deck_domain();
  AllowDir paths(dir);

  // (1) Per-batch cost.
  struct Mode {
    const char* name;
    bool journals;
    mcp::FsyncPolicy fsync;
  };
  const Mode modes[] = {{"no journal", false, mcp::FsyncPolicy::never},
                        {"journal, fsync never", true, mcp::FsyncPolicy::never},
                        {"journal, fsync interval (1 s)", true, mcp::FsyncPolicy::interval},
                        {"journal, fsync batch", true, mcp::FsyncPolicy::batch}};
  std::printf("| mode | 1-op call (µs) | 100-op call (µs) |\n|---|---|---|\n");
  for (const auto& mode : modes) {
    fs::remove_all(dir);
    fs::create_directories(dir);
    mcp::JournalOptions journal;
    if (mode.journals) journal.state_dir = dir / "state";
    journal.fsync = mode.fsync;
    Harness harness(*domain, paths, journal);
    harness.call("deck_session", {{"action", "new Bench"}});
    double per_call[2] = {0, 0};
    const int rounds = 400;
    int name = 0;
    for (int size_index = 0; size_index < 2; ++size_index) {
      const int ops = size_index == 0 ? 1 : 100;
      const auto start = Clock::now();
      for (int r = 0; r < rounds; ++r) {
        boost::json::array list;
        for (int o = 0; o < ops; ++o)
          list.emplace_back("add C" + std::to_string(name++) + " color:red");
        harness.call("deck", {{"ops", std::move(list)}});
      }
      per_call[size_index] = micros_since(start) / rounds;
    }
    std::printf("| %s | %.1f | %.1f |\n", mode.name, per_call[0], per_call[1]);
  }

  // (2) Recovery of `docs` documents.
  fs::remove_all(dir);
  fs::create_directories(dir);
  mcp::JournalOptions journal;
  journal.state_dir = dir / "state";
  journal.fsync = mcp::FsyncPolicy::never;  // setup speed; recovery reads the same bytes
  std::vector<std::string> handles;
  {
    Harness harness(*domain, paths, journal);
    for (std::size_t d = 0; d < docs; ++d) {
      const auto handle = handle_in(harness.call("deck_session", {{"action", "new D"}}));
      handles.push_back(handle);
      for (std::size_t c = 0; c < calls_per_doc; ++c) {
        if (c % 5 == 4) {
          harness.call("deck_session", {{"action", "undo"}, {"doc", handle}});
        } else {
          harness.call("deck",
                       {{"ops", boost::json::array{"add C" + std::to_string(c) + " color:red"}},
                        {"doc", handle}});
        }
      }
    }
  }  // the server is gone, as after a kill
  std::size_t journal_bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir / "state"))
    journal_bytes += fs::file_size(entry.path());
  Harness harness(*domain, paths, journal);
  auto start = Clock::now();
  const auto listed = harness.call("deck_session", {{"action", "recover"}});
  const double list_ms = micros_since(start) / 1000;
  start = Clock::now();
  std::size_t failed = 0;
  for (const auto& handle : handles) {
    const auto reply = harness.call("deck_session", {{"action", "recover " + handle}});
    failed += reply.find("\"isError\":true") != std::string::npos ? 1 : 0;
  }
  const double recover_ms = micros_since(start) / 1000;
  std::printf(
      "\n%zu documents × %zu calls (%.1f MB of journals): recover (list) %.0f ms, "
      "recover HANDLE for all %.0f ms (%.0f µs each), %zu failed\n",
      docs, calls_per_doc, static_cast<double>(journal_bytes) / 1e6, list_ms, recover_ms,
      recover_ms * 1000 / static_cast<double>(docs), failed);
  fs::remove_all(dir);
  return failed == 0 && listed.find("to recover") != std::string::npos ? 0 : 1;
}

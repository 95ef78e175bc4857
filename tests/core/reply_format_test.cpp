// The reply format is enforced, not hoped for: a domain that hand-writes a reply line ("+card A"
// instead of core::created("card A")) is stopped by the engine in debug builds and by the golden
// transcript runner in release builds. Each build runs the check it has; together they cover both.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/session.hpp"
#include "tests/support/test_domain.hpp"
#include "tests/support/transcript.hpp"

namespace fcp::core {
namespace {

namespace fs = std::filesystem;

// The deck's document, with every op reply line hand-written the way domains used to: the
// prefix glued to the text ("+ card A" becomes "+card A").
class HandWrittenDocument final : public Document {
 public:
  explicit HandWrittenDocument(std::unique_ptr<Document> deck) : deck_(std::move(deck)) {}
  Result<OpOutcome> execute(const ParsedOp& op, CallContext& ctx) override {
    auto outcome = deck_->execute(op, ctx);
    if (outcome) {
      for (auto& line : outcome->lines)
        if (line.size() > 1 && line[1] == ' ') line.erase(1, 1);
    }
    return outcome;
  }
  void revert(const Event& event, EffectSink& effects) override { deck_->revert(event, effects); }
  void replay(const Event& event, EffectSink& effects) override { deck_->replay(event, effects); }
  std::optional<Result<QueryAnswer>> query(std::string_view verb, std::string_view args,
                                           const CallContext& ctx) const override {
    return deck_->query(verb, args, ctx);
  }
  std::string digest() const override { return deck_->digest(); }
  Result<std::string> serialize(const fs::path& path) const override {
    return deck_->serialize(path);
  }
  std::string title() const override { return deck_->title(); }
  std::string summary() const override { return deck_->summary(); }

 private:
  std::unique_ptr<Document> deck_;
};

class HandWrittenDeck final : public Domain {
 public:
  std::string_view name() const override { return deck_->name(); }
  std::string_view display_name() const override { return deck_->display_name(); }
  const VerbRegistry& verbs() const override { return deck_->verbs(); }
  std::string card_sections() const override { return deck_->card_sections(); }
  std::vector<VerbSpec> queries() const override { return deck_->queries(); }
  std::vector<std::string> file_extensions() const override { return deck_->file_extensions(); }
  Result<std::unique_ptr<Document>> create(const SessionCommand& command) const override {
    auto document = deck_->create(command);
    if (!document) return document.error();
    return std::unique_ptr<Document>(std::make_unique<HandWrittenDocument>(std::move(*document)));
  }
  Result<std::unique_ptr<Document>> load(const fs::path& path, const FileBytes& bytes,
                                         const ProgressFn& progress) const override {
    auto document = deck_->load(path, bytes, progress);
    if (!document) return document.error();
    return std::unique_ptr<Document>(std::make_unique<HandWrittenDocument>(std::move(*document)));
  }

 private:
  std::unique_ptr<Domain> deck_ = testing::make_deck_domain();
};

class TempDir final : public PathPolicy {
 public:
  TempDir() : dir_(fs::temp_directory_path() / ("fcp-reply-format-" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  ~TempDir() override { fs::remove_all(dir_); }
  Result<fs::path> for_reading(std::string_view p) const override { return dir_ / p; }
  Result<fs::path> for_writing(std::string_view p) const override { return dir_ / p; }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

TEST(ReplyFormat, TheEngineStopsAtAHandWrittenLineInDebugBuilds) {
#ifdef NDEBUG
  GTEST_SKIP() << "release build: the golden transcript runner checks the format instead";
#else
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        HandWrittenDeck domain;
        TempDir paths;
        Session session(domain, paths);
        (void)session.run_session("new \"D\"", {});
        (void)session.run_ops(std::vector<std::string>{"add A"}, {});
      },
      "core/response.hpp prefix");
#endif
}

TEST(ReplyFormat, TheDeckWritesOnlyReplyLines) {
  const auto deck = testing::make_deck_domain();
  TempDir paths;
  Session session(*deck, paths);
  (void)session.run_session("new \"D\"", {});
  const auto reply =
      session.run_ops(std::vector<std::string>{"add A color:red", "add B color:green",
                                               "link A -> B", "set B color:blue", "remove A"},
                      {});
  EXPECT_EQ(reply.reply.text,
            "+ card A red\n+ card B green\n~ A->B\n* card B color:blue\n- card A\n[1c 0l]");
}

TEST(ReplyFormat, TheGoldenRunnerReportsAHandWrittenLineInReleaseBuilds) {
#ifndef NDEBUG
  GTEST_SKIP() << "debug build: the engine asserts the format before the runner could see it";
#else
  TempDir dir;
  const fs::path golden = dir.dir() / "handwritten.txt";
  // The golden agrees with what the domain writes: only the format check can fail this file.
  std::ofstream(golden) << "> deck_session new \"D\"\n+ new deck document \"D\"\n[0c 0l]\n\n"
                        << "> deck add A\n+card A\n[1c 0l]\n";
  HandWrittenDeck domain;
  const std::string report = testing::run_transcript(golden, domain, dir.dir() / "none");
  EXPECT_NE(report.find("> deck add A"), std::string::npos) << report;
  EXPECT_NE(report.find("a reply line without a core/response.hpp prefix: \"+card A\""),
            std::string::npos)
      << report;
  EXPECT_EQ(report.find("--- expected"), std::string::npos) << report;
#endif
}

}  // namespace
}  // namespace fcp::core

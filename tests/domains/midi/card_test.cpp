// The reference card's examples, as an agent would run them: every `e.g.` of the card in the
// card's order on a new song (the verbs', the tracker block, the queries', the session's), then the
// EXAMPLE workflow in a session of its own. Each must succeed, and no op may change nothing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include "core/session.hpp"
#include "domains/midi/domain.hpp"
#include "domains/midi/render/soundfont.hpp"
#include "tests/support/op_contract_checks.hpp"

namespace fcp::midi {
namespace {

namespace fs = std::filesystem;
using testing::call_ops;

// Files go to one directory (relative paths are taken inside it).
class InDirectory final : public core::PathPolicy {
 public:
  explicit InDirectory(fs::path dir) : dir_(std::move(dir)) {}
  core::Result<fs::path> for_reading(std::string_view path) const override {
    return dir_ / fs::path(path).filename();
  }
  core::Result<fs::path> for_writing(std::string_view path) const override {
    return dir_ / fs::path(path).filename();
  }

 private:
  fs::path dir_;
};

// The card's examples by where they stand.
struct CardExamples {
  std::vector<std::string> ops, queries, session;
  std::vector<std::string> tracker_block;                     // one call
  std::vector<std::pair<std::string, std::string>> workflow;  // (tool, argument) in order
};

// The quoted strings of a JSON list of strings written on one line (no escapes inside).
std::vector<std::string> quoted_strings(const std::string& text) {
  std::vector<std::string> out;
  static const std::regex quoted(R"re("([^"]*)")re");
  for (std::sregex_iterator it(text.begin(), text.end(), quoted), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

CardExamples read_card(const std::string& card) {
  CardExamples examples;
  std::istringstream lines(card);
  std::string line, section;
  bool workflow = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("## ")) {
      section = line;
      workflow = false;
    }
    if (line.starts_with("EXAMPLE:")) workflow = true;
    if (line.starts_with("TRACKER BLOCK")) examples.tracker_block = quoted_strings(line);
    if (const auto at = line.find("e.g. "); at != std::string::npos && line.starts_with("      ")) {
      const std::string example = line.substr(at + 5);
      if (section.starts_with("## Verbs")) examples.ops.push_back(example);
      if (section.starts_with("## Queries")) examples.queries.push_back(example);
      if (section.starts_with("## Session")) examples.session.push_back(example);
    } else if (workflow && line.starts_with("  midi")) {
      const auto colon = line.find(": ");
      examples.workflow.emplace_back(line.substr(2, colon - 2), line.substr(colon + 2));
    }
  }
  return examples;
}

class MidiCard : public ::testing::Test {
 protected:
  MidiCard()
      : dir_(fs::temp_directory_path() / ("fcp-midi-card-" + std::to_string(::getpid()))),
        domain_(make_midi_domain()) {
    fs::create_directories(dir_);
  }
  ~MidiCard() override { fs::remove_all(dir_); }

  // Rendering needs a GM SoundFont; without one the export and preview examples are left out
  // (and said so).
  static bool runnable(const std::string& example) {
    const bool renders = example.starts_with("export") || example.starts_with("preview");
    if (!renders || render::default_soundfont()) return true;
    std::cout << "no GM SoundFont installed: not running `" << example << "`\n";
    return false;
  }

  fs::path dir_;
  std::unique_ptr<core::Domain> domain_;
};

TEST_F(MidiCard, EveryExampleWorksInTheCardsOrderOnANewSong) {
  InDirectory files(dir_);
  core::Session session(*domain_, files);
  const CardExamples card = read_card(session.help());
  ASSERT_GE(card.ops.size(), 40u) << session.help();
  ASSERT_FALSE(card.queries.empty());
  ASSERT_FALSE(card.session.empty());
  ASSERT_FALSE(card.tracker_block.empty());
  ASSERT_FALSE(session.run_session("new \"Card\"", {}).reply.is_error);
  for (const auto& op : card.ops) {
    if (!runnable(op)) continue;
    const auto reply = call_ops(session, {op});
    EXPECT_FALSE(reply.is_error) << op << "\n" << reply.text;
    EXPECT_EQ(reply.text.find("changed nothing"), std::string::npos) << op << "\n" << reply.text;
  }
  const auto block = call_ops(session, card.tracker_block);
  EXPECT_FALSE(block.is_error) << block.text;
  for (const auto& query : card.queries) {
    const auto reply = session.run_query(query);
    EXPECT_FALSE(reply.is_error) << query << "\n" << reply.text;
  }
  for (const auto& action : card.session) {
    if (!runnable(action)) continue;
    const auto reply = session.run_session(action, {}).reply;
    EXPECT_FALSE(reply.is_error) << action << "\n" << reply.text;
  }
}

TEST_F(MidiCard, TheWorkflowExampleRunsAsWritten) {
  InDirectory files(dir_);
  core::Session session(*domain_, files);
  const CardExamples card = read_card(session.help());
  ASSERT_GE(card.workflow.size(), 3u);
  EXPECT_EQ(card.workflow.front().first, "midi_session");
  EXPECT_TRUE(card.workflow.front().second.starts_with("new ")) << "the workflow starts a song";
  for (const auto& [tool, argument] : card.workflow) {
    if (tool == "midi") {
      const auto reply = call_ops(session, quoted_strings(argument));
      EXPECT_FALSE(reply.is_error) << argument << "\n" << reply.text;
      EXPECT_EQ(reply.text.find("changed nothing"), std::string::npos) << reply.text;
    } else {
      ASSERT_EQ(tool, "midi_session");
      if (!runnable(argument)) continue;
      const auto reply = session.run_session(argument, {}).reply;
      EXPECT_FALSE(reply.is_error) << argument << "\n" << reply.text;
    }
  }
  EXPECT_TRUE(fs::exists(dir_ / "groove.mid"));
}

}  // namespace
}  // namespace fcp::midi

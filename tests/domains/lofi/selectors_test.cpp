// lofi selectors through the engine: remove, move and modify change exactly the objects `list`
// shows for the same selectors (one selector engine for queries and verbs).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "domains/lofi/domain.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::lofi {
namespace {

using Ids = std::set<std::string>;

class LofiSelectors : public ::testing::TestWithParam<std::string> {
 protected:
  LofiSelectors()
      : domain_(make_lofi_domain(io_, boost::json::object{{"connect_on_new", false}})),
        session_(*domain_, paths_) {
    (void)session_.run_session("new \"Selectors\"", {});
    run({"add cycle~ osc1", "add cycle~ osc2", "add *~ vol", "add dac~ out",
         "wire osc1 -> vol -> out", "ui 30_rate live.dial at:20,20 size:44x48",
         "ui 40_depth live.dial at:80,20 size:44x48", "ui 00_bg panel at:0,0 size:300x100",
         "add cycle~ lfo"});
  }

  // Runs a batch offline: the Max messages it would send count as confirmed.
  std::string run(std::vector<std::string> ops) {
    auto result = session_.run_ops(ops, {});
    const core::ToolReply reply =
        result.pending ? session_.confirm(std::move(*result.pending)) : result.reply;
    EXPECT_FALSE(reply.is_error) << reply.text;
    return reply.text;
  }
  // Ids of `list` lines ("  osc1 cycle~ @(40,40)"); none when the selectors matched nothing.
  Ids listed(const std::string& query) {
    auto reply = session_.run_query(query);
    EXPECT_FALSE(reply.is_error) << reply.text;
    Ids out;
    if (reply.text.starts_with("No objects match")) return out;
    std::istringstream lines(reply.text);
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string id;
      words >> id;
      out.insert(id);
    }
    return out;
  }
  // Ids whose `describe` has a line containing `text`.
  Ids described_with(const std::string& text) {
    Ids out;
    for (const auto& id : listed("list")) {
      if (session_.run_query("describe " + id).text.find(text) != std::string::npos) out.insert(id);
    }
    return out;
  }

  boost::asio::io_context io_;
  testing::NoFiles paths_;
  std::unique_ptr<core::Domain> domain_;
  core::Session session_;
};

TEST_P(LofiSelectors, RemoveRemovesWhatListShows) {
  const Ids expected = listed("list " + GetParam());
  const Ids before = listed("list");
  run({"remove " + GetParam()});
  Ids removed;
  const Ids after = listed("list");
  for (const auto& id : before) {
    if (!after.contains(id)) removed.insert(id);
  }
  EXPECT_EQ(removed, expected);
}

TEST_P(LofiSelectors, MoveMovesWhatListShows) {
  const Ids expected = listed("list " + GetParam());
  run({"move " + GetParam() + " to:999,999"});
  // A UI layer's place is its presentation_rect, another object's its patching_rect.
  EXPECT_EQ(described_with("_rect: 999 999 "), expected);
}

TEST_P(LofiSelectors, ModifyChangesWhatListShows) {
  const Ids expected = listed("list " + GetParam());
  run({"modify " + GetParam() + " hint:chosen"});
  EXPECT_EQ(described_with("hint: chosen"), expected);
}

// Two selector types (alternatives within one, or a negation besides): types intersect.
INSTANTIATE_TEST_SUITE_P(TwoTypes, LofiSelectors,
                         ::testing::Values("@class:cycle~ @unwired", "@unwired @class:cycle~",
                                           "@ui @not:class:panel",
                                           "@type:live.dial @type:cycle~ @unwired",
                                           "@recent:2 @unwired", "@all @not:ui @not:unwired"),
                         [](const ::testing::TestParamInfo<std::string>& combination) {
                           return "Combination" + std::to_string(combination.index);
                         });

TEST_F(LofiSelectors, TheClassesAndTheSetsAreRight) {
  EXPECT_EQ(listed("list @class:cycle~ @unwired"), (Ids{"osc2", "lfo"}));
  EXPECT_EQ(listed("list @recent:2 @unwired"), (Ids{"00_bg", "lfo"}));
  EXPECT_EQ(listed("list @all @not:ui @not:unwired"), (Ids{"osc1", "vol", "out"}));
}

TEST_F(LofiSelectors, MatchingNothingWarnsAndTheBatchGoesOn) {
  const std::string reply = run({"remove @class:saw~ @ui", "add noise~ hiss"});
  EXPECT_NE(reply.find("? no objects match @class:saw~ @ui — @ui matches 3 objects: "
                       "00_bg(panel), 30_rate(live.dial), 40_depth(live.dial); remove changed "
                       "nothing\n+ noise~ hiss"),
            std::string::npos)
      << reply;
}

}  // namespace
}  // namespace fcp::lofi

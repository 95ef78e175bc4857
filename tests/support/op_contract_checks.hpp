// Property checks of the op contract over every verb of a domain, shared by the domains' tests:
// every verb refuses an undeclared key with a pasteable `try:`, the card shows exactly the
// declared keys, and every example on the card works.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "core/parsed_op.hpp"
#include "core/session.hpp"

namespace fcp::testing {

// Runs one call of ops and returns its final reply (effects, if any, count as delivered).
inline core::ToolReply call_ops(core::Session& session, std::vector<std::string> ops) {
  auto result = session.run_ops(ops, {});
  return result.pending ? session.confirm(std::move(*result.pending)) : result.reply;
}

// The `try:` lines of a reply, in order.
inline std::vector<std::string> try_lines(const std::string& text) {
  std::vector<std::string> hints;
  for (std::size_t at = text.find("  try: "); at != std::string::npos;
       at = text.find("  try: ", at + 1)) {
    const auto end = text.find('\n', at);
    hints.push_back(text.substr(at + 7, end == std::string::npos ? end : end - at - 7));
  }
  return hints;
}

// Every verb refuses `OP zzbogus:1`, where OP is the verb's first example (or the verb and
// `positional`): the error names the key and lists the verb's keys, and its first `try:` parses
// and no longer carries the key (for a verb with examples: it is the example itself).
inline void expect_every_verb_refuses_undeclared_keys(const core::Domain& domain,
                                                      core::Session& session,
                                                      const std::string& positional = "X") {
  for (const auto& spec : domain.verbs().all()) {
    const std::string base =
        spec.examples.empty() ? spec.name + " " + positional : spec.examples.front();
    const std::string op = base + " zzbogus:1";
    const auto reply = call_ops(session, {op});
    EXPECT_TRUE(reply.is_error) << op;
    EXPECT_NE(reply.text.find(spec.name + " has no key \"zzbogus:\"; its keys: "),
              std::string::npos)
        << op << "\n"
        << reply.text;
    for (const auto& declared : spec.keys)
      EXPECT_NE(reply.text.find(declared.name + ":"), std::string::npos) << op << " lists keys";
    const auto hints = try_lines(reply.text);
    ASSERT_FALSE(hints.empty()) << op << "\n" << reply.text;
    EXPECT_TRUE(core::parse_op(hints.front(), domain.parse_hooks())) << hints.front();
    EXPECT_EQ(hints.front().find("zzbogus"), std::string::npos) << hints.front();
    if (!spec.examples.empty()) {
      EXPECT_EQ(hints.front(), base) << op;
    }
  }
}

// The keys a card line's syntax shows: `name:` of each `[name:V]` or `name:V` after the usage.
inline std::set<std::string> card_keys(const std::string& syntax_after_usage) {
  std::set<std::string> keys;
  static const std::regex key_token(R"((?:^| )\[?([A-Za-z_][A-Za-z0-9_.-]*):)");
  for (std::sregex_iterator it(syntax_after_usage.begin(), syntax_after_usage.end(), key_token),
       end;
       it != end; ++it)
    keys.insert((*it)[1]);
  return keys;
}

// Each verb has one card line: its name and usage, exactly its declared keys (no more, no fewer,
// none hidden in the usage), then its description; its examples follow.
inline void expect_card_lists_declared_keys(const core::Domain& domain,
                                            const core::Session& session) {
  const std::string card = session.help();
  for (const auto& spec : domain.verbs().all()) {
    const std::string head = "\n  " + spec.name + (spec.usage.empty() ? "" : " " + spec.usage);
    const auto at = card.find(head);
    ASSERT_NE(at, std::string::npos) << head;
    const auto line_end = card.find('\n', at + 1);
    const std::string line = card.substr(at + head.size(), line_end - at - head.size());
    const auto padding = line.find("  ");  // the description follows the syntax
    const std::string keys_text = line.substr(0, padding);
    std::set<std::string> declared;
    for (const auto& key : spec.keys)
      declared.insert(key.name);
    EXPECT_EQ(card_keys(keys_text), declared) << spec.name << ": " << line;
    EXPECT_NE(line.find(spec.description), std::string::npos) << spec.name;
    auto usage = core::parse_op(spec.name + " " + spec.usage, domain.parse_hooks());
    if (usage) {
      EXPECT_TRUE(usage->params.empty()) << spec.name << " usage: " << spec.usage;
    }
    for (const auto& example : spec.examples)
      EXPECT_NE(card.find("      e.g. " + example + "\n"), std::string::npos) << example;
  }
}

// Every example on the card runs without error in a session `prepare` sets up.
inline void expect_examples_work(const core::Domain& domain,
                                 const std::function<void(core::Session&)>& prepare,
                                 core::Session& session) {
  for (const auto& spec : domain.verbs().all()) {
    for (const auto& example : spec.examples) {
      prepare(session);
      const auto reply = call_ops(session, {example});
      EXPECT_FALSE(reply.is_error) << example << "\n" << reply.text;
    }
  }
}

}  // namespace fcp::testing

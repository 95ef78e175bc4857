// Property checks of the op contract over every verb of a domain, shared by the domains' tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/parsed_op.hpp"
#include "core/session.hpp"

namespace fcp::testing {

// Every verb refuses an undeclared key `zzbogus:1`: the error names it and its `try:` parses
// and no longer carries it. `positional` stands in for the verb's positionals (the key is
// checked before any of them is resolved).
inline void expect_every_verb_refuses_undeclared_keys(const core::Domain& domain,
                                                      core::Session& session,
                                                      const std::string& positional = "X") {
  for (const auto& spec : domain.verbs().all()) {
    const std::string op = spec.name + " " + positional + " zzbogus:1";
    const auto reply = session.run_ops(std::vector<std::string>{op}, {}).reply;
    EXPECT_TRUE(reply.is_error) << op;
    EXPECT_NE(reply.text.find("no key \"zzbogus:\""), std::string::npos) << op << "\n"
                                                                         << reply.text;
    const auto at = reply.text.find("  try: ");
    ASSERT_NE(at, std::string::npos) << op << "\n" << reply.text;
    const auto end = reply.text.find('\n', at);
    const std::string hint =
        reply.text.substr(at + 7, end == std::string::npos ? end : end - at - 7);
    EXPECT_TRUE(core::parse_op(hint)) << hint;
    EXPECT_EQ(hint.find("zzbogus"), std::string::npos) << hint;
  }
}

// The reference card shows each verb's syntax as generated from its declared keys, and no
// verb hides a key in its positional usage text.
inline void expect_card_lists_declared_keys(const core::Domain& domain,
                                            const core::Session& session) {
  const std::string card = session.help();
  for (const auto& spec : domain.verbs().all()) {
    EXPECT_NE(card.find(spec.syntax()), std::string::npos) << spec.syntax();
    for (const auto& declared : spec.keys)
      EXPECT_NE(spec.syntax().find(declared.name + ":"), std::string::npos) << declared.name;
    // Keys belong in keys: a `name:` in the usage would be a key the engine does not know.
    auto op = core::parse_op(spec.name + " " + spec.usage);
    if (op) {
      EXPECT_TRUE(op->params.empty()) << spec.name << " usage: " << spec.usage;
    }
  }
}

}  // namespace fcp::testing

// What the per-domain cost tests (tests/domains/*/cost_test.cpp) share: a session of one domain
// under chosen limits with a new document "Cost", and the checks of a call refused by a limit
// (the error names the setting and the document is as it was).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/session.hpp"
#include "tests/support/path_policies.hpp"

namespace fcp::testing {

inline core::SessionLimits creation_limit(std::size_t entities) {
  core::SessionLimits limits;
  limits.max_created_per_call = entities;
  return limits;
}

inline core::SessionLimits memory_limit(std::size_t bytes) {
  core::SessionLimits limits;
  limits.max_document_bytes = bytes;
  return limits;
}

inline core::SessionLimits reply_limit(std::size_t bytes) {
  core::SessionLimits limits;
  limits.max_reply_bytes = bytes;
  return limits;
}

// Files may be read and written anywhere (the memory-limit tests open fixtures).
class CostSession {
 public:
  CostSession(const core::Domain& domain, const core::SessionLimits& limits)
      : session_(domain, paths_, limits) {
    (void)session_.run_session("new \"Cost\"", {});
  }

  // One batch of ops, its reply (lofi's may still be pending on Max, which these tests do not
  // wait for).
  core::ToolReply ops(const std::vector<std::string>& list) {
    return session_.run_ops(list, {}).reply;
  }
  std::string digest() const { return *session_.digest(); }
  core::Session& session() { return session_; }

  // `list` is refused with an error containing `message`, and the document is unchanged.
  void expect_refused(const std::vector<std::string>& list, const std::string& message) {
    const std::string before = digest();
    const auto refused = ops(list);
    EXPECT_TRUE(refused.is_error);
    EXPECT_NE(refused.text.find(message), std::string::npos) << refused.text;
    EXPECT_EQ(digest(), before);
  }
  // Opening `file` is refused before parsing, as estimated past max_document_bytes (the error
  // contains `message` too), and the current document stays.
  void expect_open_refused(const std::filesystem::path& file, const std::string& message = {}) {
    const std::string before = digest();
    const auto opened = session_.run_session("open " + file.string() + " discard:true", {}).reply;
    EXPECT_TRUE(opened.is_error);
    EXPECT_NE(opened.text.find("opens into an estimated"), std::string::npos) << opened.text;
    EXPECT_NE(opened.text.find(message), std::string::npos) << opened.text;
    EXPECT_EQ(digest(), before);
  }

 private:
  AllowAll paths_;
  core::Session session_;
};

}  // namespace fcp::testing

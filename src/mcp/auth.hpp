// Who a client is: bearer tokens that name principals, and the limits each principal has.
// Documents, handles and named sessions belong to a principal; one never reaches another's.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace fcp::mcp {

// The tokens the daemon accepts, each naming a principal. Empty: no authentication (every
// client is the principal "local").
// Thread: immutable after construction.
class Authenticator {
 public:
  struct Entry {
    std::string principal;
    std::string token;
  };

  Authenticator() = default;
  explicit Authenticator(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  bool enabled() const { return !entries_.empty(); }
  // The principal `token` names, or nullopt. Compares with every token in constant time (the
  // time depends on the tokens' lengths, never on how much of a token matched).
  std::optional<std::string> principal_for(std::string_view token) const;
  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
};

// The principal FCPD_TOKEN (or the config's auth.token) names when it is the only token.
inline constexpr std::string_view kTokenPrincipal = "default";

// Parses a token file: one `PRINCIPAL:TOKEN` per line; blank lines and lines starting with `#`
// are skipped. Errors name the line. A principal is letters, digits, `.`, `_`, `-` (1–64); a
// token at least 16 characters without spaces; a principal or token given twice is an error.
core::Result<std::vector<Authenticator::Entry>> parse_token_file(std::string_view text,
                                                                 std::string_view file_name);
// Checks one token given in the environment or config (length, no spaces).
core::Result<void> check_token(std::string_view token, std::string_view origin);

// What each principal may hold at once. Thread: every method is thread-safe.
class PrincipalLimits {
 public:
  struct Settings {
    std::size_t max_calls_in_flight = 64;  // tool calls running or queued, all connections
    std::size_t max_journal_bytes = std::size_t{1} << 30;  // unsaved work written to the journal
  };

  explicit PrincipalLimits(Settings settings) : settings_(settings) {}

  // A tool call of `principal` starts: a slot that ends the call's count when released (null
  // with the error when the principal already has max_calls_in_flight).
  core::Result<std::shared_ptr<void>> begin_call(const std::string& principal);
  std::size_t calls_in_flight(const std::string& principal) const;

  // The journal's hook: before writing `bytes` more for `principal`, reserve them (an error,
  // naming the setting, when that would pass max_journal_bytes); release them when the journal
  // entry is dropped (the document saved, closed or restored).
  core::Result<void> reserve_journal_bytes(const std::string& principal, std::size_t bytes);
  void release_journal_bytes(const std::string& principal, std::size_t bytes);
  // Counts `bytes` already written without checking the limit (a recovered journal, a compaction
  // snapshot larger than the reservation).
  void charge_journal_bytes(const std::string& principal, std::size_t bytes);
  std::size_t journal_bytes(const std::string& principal) const;

  const Settings& settings() const { return settings_; }

 private:
  struct Usage {
    std::size_t calls = 0;
    std::size_t journal_bytes = 0;
  };
  // Shared with the slots begin_call() hands out, which may outlive this object (a call queued on
  // an event loop torn down after the server).
  struct Counts {
    std::mutex mutex;
    std::map<std::string, Usage, std::less<>> usage;
  };
  static void end_call(Counts& counts, const std::string& principal);

  Settings settings_;
  std::shared_ptr<Counts> counts_ = std::make_shared<Counts>();
};

}  // namespace fcp::mcp

#include "mcp/auth.hpp"

#include <algorithm>
#include <set>

namespace fcp::mcp {
using core::make_error;
using core::Result;

namespace {

constexpr std::size_t kMinTokenLength = 16;

// Equal in time that depends only on the lengths: every byte of `expected` is looked at.
bool equal_in_constant_time(std::string_view given, std::string_view expected) {
  volatile unsigned char difference = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const unsigned char a = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    difference =
        static_cast<unsigned char>(difference | (a ^ static_cast<unsigned char>(expected[i])));
  }
  return difference == 0;
}

bool valid_principal(std::string_view name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

}  // namespace

std::optional<std::string> Authenticator::principal_for(std::string_view token) const {
  std::optional<std::string> found;
  for (const auto& entry : entries_) {
    // No early exit: the time does not say which entry matched.
    if (equal_in_constant_time(token, entry.token) && !found) found = entry.principal;
  }
  if (token.empty()) return std::nullopt;
  return found;
}

Result<void> check_token(std::string_view token, std::string_view origin) {
  if (token.size() < kMinTokenLength)
    return make_error(std::string(origin) +
                      ": a token needs at least 16 characters (e.g. `openssl rand -hex 32`)");
  if (std::any_of(token.begin(), token.end(),
                  [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == 0x7f; }))
    return make_error(std::string(origin) + ": a token cannot hold spaces or control characters");
  return {};
}

Result<std::vector<Authenticator::Entry>> parse_token_file(std::string_view text,
                                                           std::string_view file_name) {
  std::vector<Authenticator::Entry> entries;
  std::set<std::string, std::less<>> principals;
  std::set<std::string, std::less<>> tokens;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (line.empty() || line.front() == '#') continue;
    const std::string where = std::string(file_name) + " line " + std::to_string(number);
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) return make_error(where + ": expected PRINCIPAL:TOKEN");
    const auto principal = trim(line.substr(0, colon));
    const auto token = trim(line.substr(colon + 1));
    if (!valid_principal(principal))
      return make_error(where + ": a principal is 1–64 letters, digits, '.', '_' or '-'");
    if (auto ok = check_token(token, where); !ok) return ok.error();
    if (!principals.emplace(principal).second)
      return make_error(where + ": principal \"" + std::string(principal) + "\" is listed twice");
    if (!tokens.emplace(token).second)
      return make_error(where + ": this token is already another principal's");
    entries.push_back({std::string(principal), std::string(token)});
  }
  if (entries.empty()) return make_error(std::string(file_name) + ": no PRINCIPAL:TOKEN line");
  return entries;
}

Result<std::shared_ptr<void>> PrincipalLimits::begin_call(const std::string& principal) {
  {
    std::lock_guard lock(counts_->mutex);
    auto& usage = counts_->usage[principal];
    if (usage.calls >= settings_.max_calls_in_flight) {
      return make_error("too many calls at once: " + std::to_string(usage.calls) +
                        " of this principal's calls are running or queued (limit " +
                        std::to_string(settings_.max_calls_in_flight) +
                        ", setting limits.max_calls_per_principal); wait for a reply, then retry");
    }
    ++usage.calls;
  }
  // The deleter ends the call; the pointee is only a marker.
  return std::shared_ptr<void>(
      counts_.get(), [counts = counts_, principal](void*) { end_call(*counts, principal); });
}

void PrincipalLimits::end_call(Counts& counts, const std::string& principal) {
  std::lock_guard lock(counts.mutex);
  auto it = counts.usage.find(principal);
  if (it == counts.usage.end() || it->second.calls == 0) return;
  --it->second.calls;
  if (it->second.calls == 0 && it->second.journal_bytes == 0) counts.usage.erase(it);
}

std::size_t PrincipalLimits::calls_in_flight(const std::string& principal) const {
  std::lock_guard lock(counts_->mutex);
  auto it = counts_->usage.find(principal);
  return it == counts_->usage.end() ? 0 : it->second.calls;
}

Result<void> PrincipalLimits::reserve_journal_bytes(const std::string& principal,
                                                    std::size_t bytes) {
  std::lock_guard lock(counts_->mutex);
  auto& usage = counts_->usage[principal];
  if (bytes >
      settings_.max_journal_bytes - std::min(usage.journal_bytes, settings_.max_journal_bytes)) {
    return make_error("the journal holds " + std::to_string(usage.journal_bytes) +
                      " bytes of this principal's unsaved work; " + std::to_string(bytes) +
                      " more would pass limits.max_journal_bytes_per_principal (" +
                      std::to_string(settings_.max_journal_bytes) +
                      "); save or close a document to make room");
  }
  usage.journal_bytes += bytes;
  return {};
}

void PrincipalLimits::charge_journal_bytes(const std::string& principal, std::size_t bytes) {
  if (bytes == 0) return;
  std::lock_guard lock(counts_->mutex);
  counts_->usage[principal].journal_bytes += bytes;
}

void PrincipalLimits::release_journal_bytes(const std::string& principal, std::size_t bytes) {
  std::lock_guard lock(counts_->mutex);
  auto it = counts_->usage.find(principal);
  if (it == counts_->usage.end()) return;
  it->second.journal_bytes -= std::min(bytes, it->second.journal_bytes);
  if (it->second.calls == 0 && it->second.journal_bytes == 0) counts_->usage.erase(it);
}

std::size_t PrincipalLimits::journal_bytes(const std::string& principal) const {
  std::lock_guard lock(counts_->mutex);
  auto it = counts_->usage.find(principal);
  return it == counts_->usage.end() ? 0 : it->second.journal_bytes;
}

}  // namespace fcp::mcp

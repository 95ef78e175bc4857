// The shared reference-resolution cascade (fcp-core.md §6): exact → case-insensitive →
// normalized → unique prefix → not found with the closest candidates.
#pragma once

#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.hpp"
#include "core/tokenizer.hpp"

namespace fcp::core {

enum class MatchLevel { exact, case_insensitive, normalized, prefix, none };

// Lowercase ASCII; other bytes unchanged.
std::string to_lower(std::string_view text);
// Lowercase and drop '-', '_' and whitespace: "Auth-Service" and "auth service" → "authservice".
std::string normalize_ref(std::string_view text);
// Levenshtein distance on bytes.
std::size_t edit_distance(std::string_view a, std::string_view b);
// Up to `limit` candidates closest to `word` (case-insensitive), best first; only reasonably
// close ones (distance ≤ max(2, len/2)) or ones containing `word` are returned.
std::vector<std::string> closest_matches(std::string_view word,
                                         const std::vector<std::string>& candidates,
                                         std::size_t limit = 3);

// What an error about a reference says and offers. Hints are `written` (the op or query as the
// user wrote it) with the reference replaced, so each is a complete op or query to paste.
struct ReferenceErrors {
  std::string_view noun;     // singular: "shape", "track", "object", "page"
  std::string_view written;  // the op or query as written
  // Said instead of the list when no name exists at all: "this page has no shapes".
  std::string_view when_none = {};
  // Offered when no name is close (or none exists): complete ops, e.g. "track add Bass".
  std::vector<std::string> otherwise = {};
};

// `written` with the reference `ref` replaced by `replacement` (already an op token): a quoted
// "ref" first, else `ref` standing as a whole token or as a key's value. "" when `ref` does not
// occur that way (so no hint repeats the failed op).
std::string replace_reference(std::string_view written, std::string_view ref,
                              std::string_view replacement);

// `unknown NOUN "REF" (NOUNs: a, b, … N more)`, or `unknown NOUN "REF": WHEN_NONE` when
// `names` is empty; hints: `written` with each of the closest names in place of REF, else
// `otherwise`.
Error unknown_reference(const ReferenceErrors& how, std::string_view ref,
                        const std::vector<std::string>& names);

// `"REF" matches N NOUNs: Auth(svc), Auth(db)` listing `described` (at most 12); hints: `written`
// with each of `tokens` (op tokens that pick one candidate each, at most 3) in place of REF.
Error ambiguous_reference(const ReferenceErrors& how, std::string_view ref, std::size_t count,
                          const std::vector<std::string>& described,
                          const std::vector<std::string>& tokens);

// A multi-map from names to ids with the cascade as lookup. Add and remove are O(log n);
// resolution is O(1) expected for the first three levels and O(log n + k) for prefixes;
// only the not-found path scans every name (to suggest the closest).
// Id must be copyable and equality-comparable. Thread: single owner.
template <class Id>
class NameIndex {
 public:
  struct Lookup {
    MatchLevel level = MatchLevel::none;
    std::vector<Id> ids;  // every id matched at `level` (several = ambiguous)
  };

  void add(std::string_view name, Id id) {
    insert(exact_, std::string(name), id);
    insert(lower_, to_lower(name), id);
    insert(normalized_, normalize_ref(name), id);
  }

  void remove(std::string_view name, const Id& id) {
    erase_from(exact_, std::string(name), id);
    erase_from(lower_, to_lower(name), id);
    erase_from(normalized_, normalize_ref(name), id);
  }

  void clear() {
    exact_.clear();
    lower_.clear();
    normalized_.clear();
  }

  Lookup lookup(std::string_view ref) const {
    if (auto it = exact_.find(std::string(ref)); it != exact_.end())
      return {MatchLevel::exact, it->second.ids()};
    if (auto it = lower_.find(to_lower(ref)); it != lower_.end())
      return {MatchLevel::case_insensitive, it->second.ids()};
    const std::string key = normalize_ref(ref);
    if (auto it = normalized_.find(key); it != normalized_.end())
      return {MatchLevel::normalized, it->second.ids()};
    Lookup prefix{MatchLevel::prefix, {}};
    if (!key.empty()) {
      for (auto it = normalized_.lower_bound(key);
           it != normalized_.end() && it->first.compare(0, key.size(), key) == 0; ++it) {
        prefix.ids.push_back(it->second.first);
        prefix.ids.insert(prefix.ids.end(), it->second.rest.begin(), it->second.rest.end());
      }
    }
    if (prefix.ids.empty()) prefix.level = MatchLevel::none;
    return prefix;
  }

  // Exactly one match, or unknown_reference / ambiguous_reference (the candidates' names as
  // they are spelled, quoted as op tokens, pick them).
  Result<Id> resolve(std::string_view ref, const ReferenceErrors& how) const {
    Lookup found = lookup(ref);
    if (found.ids.size() == 1) return found.ids.front();
    if (found.ids.empty()) return unknown_reference(how, ref, names());
    std::vector<std::string> candidates = names_of(found.ids);
    std::vector<std::string> tokens;
    for (const auto& candidate : candidates)
      tokens.push_back(quote_token(candidate));
    return ambiguous_reference(how, ref, found.ids.size(), candidates, tokens);
  }

  // Every distinct name (exact spelling), sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    out.reserve(exact_.size());
    for (const auto& [name, bucket] : exact_)
      out.push_back(name);
    std::sort(out.begin(), out.end());
    return out;
  }

  bool empty() const { return exact_.empty(); }

 private:
  // The ids of one name in the order they were added. The first is held in the bucket itself:
  // nearly every name has one id, so a name costs no allocation beyond its map entry.
  struct Bucket {
    explicit Bucket(const Id& id) : first(id) {}
    Id first;
    std::vector<Id> rest;

    std::vector<Id> ids() const {
      std::vector<Id> out;
      out.reserve(1 + rest.size());
      out.push_back(first);
      out.insert(out.end(), rest.begin(), rest.end());
      return out;
    }
    bool holds_any(const std::vector<Id>& ids) const {
      auto held = [&](const Id& id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
      return held(first) || std::any_of(rest.begin(), rest.end(), held);
    }
  };

  template <class Map>
  static void insert(Map& map, std::string key, const Id& id) {
    auto [it, added] = map.try_emplace(std::move(key), id);
    if (!added) it->second.rest.push_back(id);
  }

  // Removes the first occurrence of `id` under `key`, and the name once it holds no id.
  template <class Map>
  static void erase_from(Map& map, const std::string& key, const Id& id) {
    auto it = map.find(key);
    if (it == map.end()) return;
    Bucket& bucket = it->second;
    if (bucket.first == id) {
      if (bucket.rest.empty()) {
        map.erase(it);
        return;
      }
      bucket.first = std::move(bucket.rest.front());
      bucket.rest.erase(bucket.rest.begin());
      return;
    }
    auto found = std::find(bucket.rest.begin(), bucket.rest.end(), id);
    if (found != bucket.rest.end()) bucket.rest.erase(found);
  }

  std::vector<std::string> names_of(const std::vector<Id>& ids) const {
    std::vector<std::string> out;
    for (const auto& [name, bucket] : exact_) {
      if (bucket.holds_any(ids)) out.push_back(name);
    }
    std::sort(out.begin(), out.end());  // exact_ is unordered; messages must be deterministic
    return out;
  }

  std::unordered_map<std::string, Bucket> exact_;
  std::unordered_map<std::string, Bucket> lower_;
  std::map<std::string, Bucket, std::less<>> normalized_;  // sorted: prefix scans
};

}  // namespace fcp::core

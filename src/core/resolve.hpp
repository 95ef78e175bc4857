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
    insert(exact_[std::string(name)], id);
    insert(lower_[to_lower(name)], id);
    insert(normalized_[normalize_ref(name)], id);
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
      return {MatchLevel::exact, it->second.ids};
    if (auto it = lower_.find(to_lower(ref)); it != lower_.end())
      return {MatchLevel::case_insensitive, it->second.ids};
    const std::string key = normalize_ref(ref);
    if (auto it = normalized_.find(key); it != normalized_.end())
      return {MatchLevel::normalized, it->second.ids};
    Lookup prefix{MatchLevel::prefix, {}};
    if (!key.empty()) {
      for (auto it = normalized_.lower_bound(key);
           it != normalized_.end() && it->first.compare(0, key.size(), key) == 0; ++it) {
        for (const Id& id : it->second.ids)
          prefix.ids.push_back(id);
      }
    }
    if (prefix.ids.empty()) prefix.level = MatchLevel::none;
    return prefix;
  }

  // Exactly one match or an error: `{kind} "ref" not found` with the closest names as hints,
  // or `{kind} "ref" is ambiguous: …` with the candidate names as hints.
  Result<Id> resolve(std::string_view ref, std::string_view kind) const {
    Lookup found = lookup(ref);
    if (found.ids.size() == 1) return found.ids.front();
    if (found.ids.empty()) {
      return make_error(std::string(kind) + " \"" + std::string(ref) + "\" not found",
                        closest_matches(ref, names()));
    }
    std::vector<std::string> candidates = names_of(found.ids);
    std::string list;
    for (const auto& c : candidates)
      list += (list.empty() ? "" : ", ") + c;
    return make_error(std::string(kind) + " \"" + std::string(ref) + "\" is ambiguous: " + list,
                      candidates);
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
  struct Bucket {
    std::vector<Id> ids;
  };

  static void insert(Bucket& bucket, const Id& id) { bucket.ids.push_back(id); }

  template <class Map>
  static void erase_from(Map& map, const std::string& key, const Id& id) {
    auto it = map.find(key);
    if (it == map.end()) return;
    auto& ids = it->second.ids;
    for (auto i = ids.begin(); i != ids.end(); ++i) {
      if (*i == id) {
        ids.erase(i);
        break;
      }
    }
    if (ids.empty()) map.erase(it);
  }

  std::vector<std::string> names_of(const std::vector<Id>& ids) const {
    std::vector<std::string> out;
    for (const auto& [name, bucket] : exact_) {
      for (const Id& id : bucket.ids) {
        if (std::find(ids.begin(), ids.end(), id) != ids.end()) {
          out.push_back(name);
          break;
        }
      }
    }
    std::sort(out.begin(), out.end());  // exact_ is unordered; messages must be deterministic
    return out;
  }

  std::unordered_map<std::string, Bucket> exact_;
  std::unordered_map<std::string, Bucket> lower_;
  std::map<std::string, Bucket, std::less<>> normalized_;  // sorted: prefix scans
};

}  // namespace fcp::core

#include "mcp/document_store.hpp"

#include <algorithm>

#include "mcp/random_id.hpp"

namespace fcp::mcp {
namespace {

constexpr std::size_t kHandleBytes = 16;   // 128 bits
constexpr std::size_t kClosedKept = 4096;  // closed handles remembered for a clear error

std::string list_hint(const core::Domain& domain) {
  return std::string(domain.name()) + "_session list";
}

std::string prefix_of(std::string_view handle) {
  return std::string(handle.substr(4, 2));  // "doc:dw-…" → "dw"
}

}  // namespace

// Title and file from the engine's resource text ("Title: …\nFile: …\nUnsaved changes: …").
StoredDocument::Summary summarize(const core::Session& session) {
  StoredDocument::Summary summary;
  summary.unsaved = session.has_unsaved_changes();
  if (!session.has_document()) return summary;
  const std::string text = session.resource_text();
  constexpr std::string_view kTitle = "Title: ";
  constexpr std::string_view kFile = "\nFile: ";
  constexpr std::string_view kUnsaved = "\nUnsaved changes: ";
  const auto file = text.find(kFile);
  const auto unsaved = text.find(kUnsaved, file == std::string::npos ? 0 : file);
  if (!text.starts_with(kTitle) || file == std::string::npos || unsaved == std::string::npos) {
    return summary;
  }
  summary.title = text.substr(kTitle.size(), file - kTitle.size());
  const std::string path = text.substr(file + kFile.size(), unsaved - file - kFile.size());
  if (path != "(not saved yet)") summary.file = path;
  constexpr std::string_view kState = "\nState: ";
  if (const auto state = text.find(kState, unsaved); state != std::string::npos) {
    summary.digest = text.substr(state + kState.size());
  }
  return summary;
}

std::string make_document_handle(std::string_view prefix) {
  return "doc:" + std::string(prefix) + "-" + random_hex(kHandleBytes);
}

bool looks_like_handle(std::string_view text) {
  constexpr std::size_t kLength = 7 + kHandleBytes * 2;
  if (text.size() != kLength || text.substr(0, 4) != "doc:" || text[6] != '-') return false;
  const auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  const auto hex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
  return lower(text[4]) && lower(text[5]) && std::all_of(text.begin() + 7, text.end(), hex);
}

StoredDocument::StoredDocument(std::string handle, std::string owner, const core::Domain& domain,
                               const boost::asio::any_io_executor& calls,
                               const core::PathPolicy& paths, core::SessionLimits limits)
    : handle_(std::move(handle)),
      owner_(std::move(owner)),
      domain_(domain),
      queue_(std::make_shared<SerialQueue>(calls)),
      paths_(paths),
      limits_(limits),
      session_(std::make_unique<core::Session>(domain, paths, limits)),
      last_use_(Clock::now()) {}

void StoredDocument::refresh(bool changed) {
  std::optional<Summary> summary;
  if (changed && session_) summary = summarize(*session_);
  std::lock_guard lock(mutex_);
  if (summary) summary_ = std::move(*summary);
  last_use_ = Clock::now();
}

std::unique_ptr<core::SessionState> StoredDocument::successor_state() const {
  std::lock_guard lock(session_mutex_);
  if (session_) return session_->successor_state();
  return evicted_state_ ? evicted_state_->successor() : nullptr;
}

StoredDocument::Summary StoredDocument::summary() const {
  std::lock_guard lock(mutex_);
  return summary_;
}

StoredDocument::Clock::time_point StoredDocument::last_use() const {
  std::lock_guard lock(mutex_);
  return last_use_;
}

DocumentStore::DocumentStore(boost::asio::any_io_executor calls, const core::PathPolicy& paths,
                             core::SessionLimits limits, std::size_t max_documents,
                             std::map<std::string, std::string, std::less<>> prefixes,
                             JournalOptions journal)
    : calls_(std::move(calls)),
      paths_(paths),
      limits_(limits),
      max_documents_(max_documents),
      prefixes_(std::move(prefixes)),
      journal_(std::move(journal)),
      leases_(journal_.state_dir, journal_.replica) {}

DocumentStore::~DocumentStore() {
  stop_timers();
}

std::string DocumentStore::prefix(const core::Domain& domain) const {
  if (auto it = prefixes_.find(domain.name()); it != prefixes_.end()) return it->second;
  return std::string(domain.name().substr(0, 2));
}

std::shared_ptr<StoredDocument> DocumentStore::make(const core::Domain& domain,
                                                    const std::string& owner) const {
  return std::make_shared<StoredDocument>(make_document_handle(prefix(domain)), owner, domain,
                                          calls_, paths_, limits_);
}

core::Result<void> DocumentStore::can_add(const std::string& owner,
                                          const core::Domain& domain) const {
  std::lock_guard lock(mutex_);
  return room_for(owner, domain);
}

core::Result<void> DocumentStore::room_for(const std::string& owner,
                                           const core::Domain& domain) const {
  const auto count = std::count_if(documents_.begin(), documents_.end(),
                                   [&owner](const auto& e) { return e.second->owner() == owner; });
  if (static_cast<std::size_t>(count) < max_documents_) return {};
  return core::make_error("too many open documents (" + std::to_string(max_documents_) +
                              ", setting limits.max_documents): close one first (" +
                              list_hint(domain) + " names them)",
                          {list_hint(domain)});
}

core::Result<void> DocumentStore::add(const std::shared_ptr<StoredDocument>& document) {
  if (leases_.enabled()) {
    // A fresh handle: its lease is free, unless a recovery took it already (then it is ours).
    auto lease = leases_.acquire(document->handle());
    if (!lease) return lease.error();
    if (!lease->taken) {
      return core::make_error(document->handle() + " is written by " + lease->holder->describe(),
                              {list_hint(document->domain())});
    }
  }
  {
    std::lock_guard lock(mutex_);
    if (auto room = room_for(document->owner(), document->domain()); !room) {
      leases_.release(document->handle());
      return room;
    }
    documents_.emplace(document->handle(), document);
  }
  if (list_observer_) list_observer_(document->owner());
  return {};
}

core::Result<std::shared_ptr<StoredDocument>> DocumentStore::room_for_one_more(
    const std::string& owner, const core::Domain& domain) const {
  std::lock_guard lock(mutex_);
  auto room = room_for(owner, domain);
  if (room) return std::shared_ptr<StoredDocument>();
  std::shared_ptr<StoredDocument> oldest;
  for (const auto& entry : documents_) {
    const auto& document = entry.second;
    if (document->owner() != owner || document->summary().unsaved) continue;
    if (!oldest || document->last_use() < oldest->last_use()) oldest = document;
  }
  if (!oldest) return room.error();
  return oldest;
}

core::Result<std::shared_ptr<StoredDocument>> DocumentStore::find(
    std::string_view handle, const std::string& owner, const core::Domain& domain) const {
  const std::string name(domain.name());
  if (!looks_like_handle(handle)) {
    return core::make_error("\"" + std::string(handle) +
                                "\" is not a document handle; handles look like doc:" +
                                prefix(domain) + "-<32 hex digits>, as new and open answer",
                            {list_hint(domain)});
  }
  std::lock_guard lock(mutex_);
  if (auto it = documents_.find(handle); it != documents_.end() && it->second->owner() == owner) {
    if (&it->second->domain() == &domain) return it->second;
    const std::string other(it->second->domain().name());
    return core::make_error(std::string(handle) + " is a " + other + " document, not a " + name +
                                " one: use it with the " + other + " tools",
                            {other + "_session list"});
  }
  if (auto it = closed_.find(handle); it != closed_.end() && it->second.owner == owner) {
    std::vector<std::string> hints{list_hint(domain)};
    if (it->second.file && it->second.domain == name) {
      hints.push_back(name + "_session open \"" + it->second.file->string() + "\"");
    }
    return core::make_error("the " + it->second.domain + " document " + std::string(handle) +
                                " (\"" + it->second.title +
                                "\") was closed; its handle no longer "
                                "works",
                            std::move(hints));
  }
  if (journals()) {
    std::error_code ec;
    if (std::filesystem::exists(journal_path(handle), ec)) {
      return core::make_error(
          std::string(handle) +
              " is not open since fcpd restarted; its journal can restore it with its history",
          {"recover " + std::string(handle), list_hint(domain)});
    }
  }
  if (prefix_of(handle) != prefix(domain)) {
    return core::make_error(std::string(handle) + " is not a " + name + " handle (" + name +
                                " handles start with doc:" + prefix(domain) + "-)",
                            {list_hint(domain)});
  }
  return core::make_error("no open " + name + " document has the handle " + std::string(handle) +
                              " (fcpd keeps documents until they are closed or it restarts)",
                          {list_hint(domain)});
}

void DocumentStore::remove(const StoredDocument& document) {
  if (!remove_locked(document)) return;
  if (close_observer_) close_observer_(document);
  if (list_observer_) list_observer_(document.owner());
}

bool DocumentStore::remove_locked(const StoredDocument& document) {
  const auto summary = document.summary();
  std::lock_guard lock(mutex_);
  auto it = documents_.find(document.handle());
  if (it == documents_.end()) return false;
  it->second->closed_ = true;
  if (journals()) {
    std::lock_guard journal_lock(it->second->journal_mutex_);
    charge_locked(*it->second, 0);
    it->second->journal_.reset();
    std::error_code ec;
    std::filesystem::remove(journal_path(document.handle()), ec);
  }
  leases_.release(document.handle());
  documents_.erase(it);
  closed_[document.handle()] =
      Closed{std::string(document.domain().name()), document.owner(), summary.title, summary.file};
  closed_order_.push_back(document.handle());
  if (closed_order_.size() > kClosedKept) {
    closed_.erase(closed_order_.front());
    closed_order_.erase(closed_order_.begin());
  }
  return true;
}

std::vector<std::shared_ptr<StoredDocument>> DocumentStore::list(const std::string& owner,
                                                                 const core::Domain& domain) const {
  std::vector<std::shared_ptr<StoredDocument>> out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& entry : documents_) {
      if (entry.second->owner() == owner && &entry.second->domain() == &domain)
        out.push_back(entry.second);
    }
  }
  std::vector<std::pair<StoredDocument::Clock::time_point, std::shared_ptr<StoredDocument>>> keyed;
  keyed.reserve(out.size());
  for (auto& document : out)
    keyed.emplace_back(document->last_use(), std::move(document));
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  out.clear();
  for (auto& entry : keyed)
    out.push_back(std::move(entry.second));
  return out;
}

std::vector<std::shared_ptr<StoredDocument>> DocumentStore::every_document() const {
  std::vector<std::shared_ptr<StoredDocument>> out;
  std::lock_guard lock(mutex_);
  out.reserve(documents_.size());
  for (const auto& entry : documents_)
    out.push_back(entry.second);
  return out;
}

std::vector<std::shared_ptr<StoredDocument>> DocumentStore::idle_since(
    StoredDocument::Clock::time_point cutoff) const {
  std::vector<std::shared_ptr<StoredDocument>> out;
  std::lock_guard lock(mutex_);
  for (const auto& entry : documents_) {
    if (entry.second->last_use() < cutoff) out.push_back(entry.second);
  }
  return out;
}

}  // namespace fcp::mcp

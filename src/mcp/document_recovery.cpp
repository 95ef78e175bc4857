// DocumentStore and journals: what every changing call appends, recovery after a crash or
// restart, compaction into snapshots, and idle eviction to the journal.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/session_command.hpp"
#include "mcp/document_store.hpp"

namespace fcp::mcp {
namespace {

constexpr std::string_view kFormat = "fcp-journal/1";

std::string list_hint(const core::Domain& domain) {
  return std::string(domain.name()) + "_session list";
}

JournalRecord header(const StoredDocument& document) {
  return JournalRecord{JournalRecord::Kind::header,
                       {std::string(kFormat), std::string(document.domain().name()),
                        document.owner(), document.handle()}};
}

// The engine's first word of a session action ("save as:x" → "save").
std::string action_word(std::string_view action) {
  auto command = core::parse_session_command(action, {});
  return command ? command->command : std::string();
}

// The command word of a session action (its keys may be any the domain declares).
std::string_view first_word(std::string_view action) {
  const auto start = action.find_first_not_of(" \t");
  if (start == std::string_view::npos) return {};
  action.remove_prefix(start);
  return action.substr(0, action.find_first_of(" \t"));
}

bool is_session_extension(const core::Domain& domain, std::string_view word) {
  const auto extensions = domain.session_extensions();
  return std::any_of(extensions.begin(), extensions.end(),
                     [word](const core::VerbSpec& spec) { return spec.name == word; });
}

std::string bytes_or_empty(core::Result<std::string> bytes) {
  return bytes ? std::move(*bytes) : std::string();
}

std::string describe(const JournalRecord& record, std::size_t index) {
  std::string text = "journal record " + std::to_string(index);
  switch (record.kind) {
    case JournalRecord::Kind::ops:
      return text + " (ops: " + (record.fields.empty() ? "" : record.fields.front()) + "…)";
    case JournalRecord::Kind::action:
      return text + " (" + (record.fields.empty() ? "" : record.fields.front()) + ")";
    case JournalRecord::Kind::open:
      return text + " (open)";
    case JournalRecord::Kind::saved:
      return text + " (save)";
    case JournalRecord::Kind::base:
      return text + " (snapshot)";
    case JournalRecord::Kind::header:
      break;
  }
  return text;
}

}  // namespace

std::filesystem::path DocumentStore::journal_path(std::string_view handle) const {
  return *journal_.state_dir / journal_file_name(handle);
}

core::Result<std::unique_ptr<core::Session>> DocumentStore::replay(const core::Domain& domain,
                                                                   const JournalContents& contents,
                                                                   std::size_t& calls) const {
  auto session = std::make_unique<core::Session>(domain, paths_, limits_);
  // No external system during the replay: the caller relinks the rebuilt document.
  session->set_replaying(true);
  calls = 0;
  for (std::size_t i = 1; i < contents.records.size(); ++i) {
    const auto& record = contents.records[i];
    const auto& fields = record.fields;
    std::optional<core::Error> failed;
    switch (record.kind) {
      case JournalRecord::Kind::ops: {
        auto reply = session->replay_ops(fields);
        if (reply.is_error) failed = core::make_error(reply.text);
        break;
      }
      case JournalRecord::Kind::action: {
        if (fields.size() != 1) {
          failed = core::make_error("malformed");
          break;
        }
        auto reply = session->replay_session(fields[0]);
        if (reply.is_error) failed = core::make_error(reply.text);
        break;
      }
      case JournalRecord::Kind::open:
      case JournalRecord::Kind::base: {
        if (fields.size() != (record.kind == JournalRecord::Kind::open ? 2u : 5u)) {
          failed = core::make_error("malformed");
          break;
        }
        if (auto opened = session->restore_open(fields[0], fields[1]); !opened) {
          failed = opened.error();
          break;
        }
        if (record.kind == JournalRecord::Kind::base) {
          session->restore_base(
              fields[2].empty() ? std::nullopt : std::optional<std::filesystem::path>(fields[2]),
              fields[3] == "1", std::stoul(fields[4]));
        }
        break;
      }
      case JournalRecord::Kind::saved:
        if (fields.size() != 1) {
          failed = core::make_error("malformed");
          break;
        }
        session->restore_saved(fields[0]);
        break;
      case JournalRecord::Kind::header:
        failed = core::make_error("a second header");
        break;
    }
    if (failed) {
      return core::make_error(describe(record, i) + " does not replay: " + failed->message);
    }
    ++calls;
  }
  session->set_replaying(false);
  return session;
}

std::optional<std::string> DocumentStore::append(StoredDocument& document,
                                                 const JournalRecord& record) {
  std::lock_guard lock(document.journal_mutex_);
  core::Result<void> written;
  if (!document.journal_) {
    auto created =
        JournalFile::create(journal_path(document.handle()), {header(document), record}, journal_);
    if (created) {
      document.journal_ = std::move(*created);
    } else {
      written = created.error();
    }
  } else {
    written = document.journal_->append(record);
  }
  if (!written) {
    spdlog::error("journal of {}: {}", document.handle(), written.error().message);
    // The next change starts a fresh journal from a snapshot of the whole document.
    document.journal_.reset();
    document.journaled_ = {};
    return core::warning_line("not journaled (" + written.error().message +
                              "): this change is in memory only until saved");
  }
  return std::nullopt;
}

std::optional<std::string> DocumentStore::journal(StoredDocument& document,
                                                  const std::vector<std::string>* ops,
                                                  std::string_view action) {
  if (!document.session_) return std::nullopt;
  auto& session = *document.session_;
  auto opened = session.take_opened_bytes();
  if (!journals()) return std::nullopt;
  auto now = session.fingerprint();
  if (now == document.journaled_) return std::nullopt;
  JournalRecord record;
  const std::string word = ops ? std::string() : action_word(action);
  if (!ops && is_session_extension(document.domain(), first_word(action))) {
    // The domain's session commands (lofi: connect) change what the session chose (its link,
    // in the digest), never the document: nothing to journal, and nothing for a replay to run.
    document.journaled_ = std::move(now);
    return std::nullopt;
  }
  if (ops) {
    record = JournalRecord{JournalRecord::Kind::ops, *ops};
  } else if (word == "open" && opened && session.file_path()) {
    record =
        JournalRecord{JournalRecord::Kind::open, {session.file_path()->string(), opened->str()}};
  } else if (word == "save" && session.file_path()) {
    record = JournalRecord{JournalRecord::Kind::saved, {session.file_path()->string()}};
  } else {
    record = JournalRecord{JournalRecord::Kind::action, {std::string(action)}};
  }
  bool fresh = false;
  {
    std::lock_guard lock(document.journal_mutex_);
    fresh = !document.journal_;
  }
  if (fresh && record.kind != JournalRecord::Kind::open &&
      !(record.kind == JournalRecord::Kind::action && word == "new")) {
    // No journal yet past its first call (it could not be written before): a snapshot of the
    // document as it is now starts one.
    compact(document);
    std::lock_guard lock(document.journal_mutex_);
    if (document.journal_) {
      document.journaled_ = std::move(now);
      return std::nullopt;
    }
    return core::warning_line("not journaled: this change is in memory only until saved");
  }
  if (auto warning = append(document, record)) return warning;
  document.journaled_ = std::move(now);
  std::size_t records = 0;
  {
    std::lock_guard lock(document.journal_mutex_);
    if (document.journal_) records = document.journal_->records();
  }
  if (journal_.compact_after > 0 && records > journal_.compact_after + 1 &&
      records >= document.compact_at_ && !compact(document)) {
    // Not compactable now (no snapshot gives the document back exactly): try again only after
    // as many records more, so a journal that cannot be compacted costs no replay per call.
    document.compact_at_ = records + journal_.compact_after;
  }
  return std::nullopt;
}

bool DocumentStore::compact(StoredDocument& document) {
  auto& session = *document.session_;
  const auto path = journal_path(document.handle());
  // The calls kept after the snapshot: the last journal.history of the journal (all of it when
  // the journal cannot be read, e.g. none yet).
  JournalContents contents;
  {
    std::lock_guard lock(document.journal_mutex_);
    if (document.journal_) {
      if (auto read = read_journal_file(path)) contents = std::move(*read);
    }
  }
  const std::size_t total = contents.records.empty() ? 0 : contents.records.size() - 1;
  const auto target = session.fingerprint();
  // Horizons to try: keep `history` calls; if that does not replay to the same state (an undo
  // reaching before the horizon), keep none, i.e. a snapshot of the document as it is.
  std::vector<std::size_t> keeps;
  if (total > 0) keeps.push_back(std::min(journal_.history, total));
  keeps.push_back(0);
  for (const std::size_t keep : keeps) {
    std::vector<JournalRecord> records{header(document)};
    std::unique_ptr<core::Session> base_session;
    if (keep == 0) {
      base_session = nullptr;
    } else {
      JournalContents prefix;
      prefix.records.assign(contents.records.begin(),
                            contents.records.begin() + static_cast<long>(total - keep + 1));
      std::size_t calls = 0;
      auto replayed = replay(document.domain(), prefix, calls);
      if (!replayed) continue;
      base_session = std::move(*replayed);
    }
    const core::Session& base = base_session ? *base_session : session;
    if (!base.has_document()) continue;
    const auto file = base.file_path();
    // Written as if to TITLE.EXT (the domain's own format): a domain that takes the title from
    // the file name (a deck) reads it back the same; the snapshot keeps the real file apart.
    std::string stem = document.summary().title;
    std::replace(stem.begin(), stem.end(), '/', '_');
    if (stem.empty() || stem == "." || stem == "..") stem = "snapshot";
    const std::filesystem::path format(stem + "." + document.domain().file_extensions().front());
    auto bytes = base.serialize(format);
    if (!bytes) continue;
    records.push_back(JournalRecord{
        JournalRecord::Kind::base,
        {format.string(), std::move(*bytes), file ? file->string() : std::string(),
         base.has_unsaved_changes() ? "0" : "1", std::to_string(base.changes_since_save())}});
    for (std::size_t i = total - keep + 1; keep > 0 && i < contents.records.size(); ++i)
      records.push_back(contents.records[i]);
    // Only when the compacted journal gives back exactly this document (digest, title, file,
    // saved state, the file bytes); its history is the kept calls'.
    JournalContents candidate;
    candidate.records = records;
    std::size_t calls = 0;
    auto check = replay(document.domain(), candidate, calls);
    if (!check) continue;
    const auto got = (*check)->fingerprint();
    const bool same =
        got.digest == target.digest && got.file == target.file &&
        (*check)->has_unsaved_changes() == session.has_unsaved_changes() &&
        (*check)->resource_text() == session.resource_text() &&
        bytes_or_empty((*check)->serialize(format)) == bytes_or_empty(session.serialize(format));
    if (!same) continue;
    std::lock_guard lock(document.journal_mutex_);
    auto created = JournalFile::create(path, records, journal_);
    if (!created) {
      spdlog::error("journal of {}: compaction: {}", document.handle(), created.error().message);
      return false;
    }
    document.journal_ = std::move(*created);
    return true;
  }
  spdlog::warn("journal of {}: no snapshot restores the document exactly; the journal stays",
               document.handle());
  return false;
}

void DocumentStore::charge_locked(StoredDocument& document, std::size_t bytes) {
  if (budget_ != nullptr) {
    budget_->release_journal_bytes(document.owner(), document.journal_reserved_);
    if (bytes > document.journal_charged_) {
      budget_->charge_journal_bytes(document.owner(), bytes - document.journal_charged_);
    } else {
      budget_->release_journal_bytes(document.owner(), document.journal_charged_ - bytes);
    }
  }
  document.journal_reserved_ = 0;
  document.journal_charged_ = bytes;
}

core::Result<void> DocumentStore::reserve_journal(StoredDocument& document,
                                                  const std::vector<std::string>* ops,
                                                  std::string_view action) {
  if (!journals() || budget_ == nullptr || !document.session_) return {};
  std::size_t bytes = 0;
  if (ops != nullptr) {
    bytes = encode_record(JournalRecord{JournalRecord::Kind::ops, *ops}).size();
  } else {
    const auto word = action_word(action);
    // These leave no unsaved work behind: they only ever give budget back.
    if (word == "save" || word == "close" || word == "open") return {};
    bytes = encode_record(JournalRecord{JournalRecord::Kind::action, {std::string(action)}}).size();
  }
  std::lock_guard lock(document.journal_mutex_);
  if (!document.journal_) bytes += encode_record(header(document)).size();
  if (auto reserved = budget_->reserve_journal_bytes(document.owner(), bytes); !reserved) {
    return core::make_error("not run, nothing changed: " + reserved.error().message,
                            {list_hint(document.domain())});
  }
  document.journal_reserved_ += bytes;
  return {};
}

void DocumentStore::settle_journal(StoredDocument& document) {
  std::lock_guard lock(document.journal_mutex_);
  if (!document.session_) return charge_locked(document, document.journal_charged_);
  if (!document.journal_) return charge_locked(document, 0);
  // Saved (or back at the saved state): what the journal holds so far is no one's unsaved work.
  if (!document.session_->has_unsaved_changes()) document.journal_->mark_saved();
  charge_locked(document, document.journal_->unsaved_bytes());
}

void DocumentStore::flush_journals() {
  const auto documents = every_document();
  for (const auto& document : documents) {
    std::lock_guard lock(document->journal_mutex_);
    if (!document->journal_) continue;
    if (auto synced = document->journal_->sync(); !synced) {
      spdlog::error("journal of {}: {}", document->handle(), synced.error().message);
    }
  }
}

std::size_t DocumentStore::close_journals_at_exit() {
  const auto documents = every_document();
  std::size_t kept = 0;
  for (const auto& document : documents) {
    std::lock_guard lock(document->journal_mutex_);
    if (!document->journal_) continue;
    if (document->summary().unsaved) {
      if (auto synced = document->journal_->sync(); !synced) {
        spdlog::error("journal of {}: {}", document->handle(), synced.error().message);
      }
      ++kept;
      continue;
    }
    document->journal_.reset();
    std::error_code ec;
    std::filesystem::remove(journal_path(document->handle()), ec);
  }
  // Another replica may take the documents over from their journals at once.
  for (const auto& handle : leases_.held())
    leases_.release(handle);
  return kept;
}

std::vector<DocumentStore::Recoverable> DocumentStore::recoverable(
    const std::string& owner, const core::Domain& domain) const {
  std::vector<Recoverable> out;
  if (!journals()) return out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(*journal_.state_dir, ec)) {
    if (entry.path().extension() != ".fcpj" || journal_in_use(entry.path())) continue;
    auto contents = read_journal_file(entry.path());
    if (!contents || contents->records.empty()) continue;
    const auto& head = contents->records.front();
    if (head.kind != JournalRecord::Kind::header || head.fields.size() != 4 ||
        head.fields[0] != kFormat || head.fields[1] != domain.name() || head.fields[2] != owner) {
      continue;
    }
    Recoverable item;
    item.handle = head.fields[3];
    {
      std::lock_guard lock(mutex_);
      if (documents_.contains(item.handle)) continue;
    }
    item.damage = contents->damage;
    auto session = replay(domain, *contents, item.calls);
    if (!session) {
      item.error = session.error().message;
    } else if ((*session)->has_document()) {
      const auto summary = summarize(**session);
      item.title = summary.title;
      item.file = summary.file;
      item.unsaved = summary.unsaved;
    }
    out.push_back(std::move(item));
  }
  std::sort(out.begin(), out.end(),
            [](const Recoverable& a, const Recoverable& b) { return a.handle < b.handle; });
  return out;
}

core::Result<std::shared_ptr<StoredDocument>> DocumentStore::recover(
    std::string_view handle, const std::string& owner, const core::Domain& domain,
    Recoverable& report, std::unique_ptr<core::SessionState> state) {
  const std::string name(domain.name());
  if (!journals()) {
    return core::make_error("fcpd keeps no journals (no state directory): nothing to recover",
                            {list_hint(domain)});
  }
  if (!looks_like_handle(handle)) {
    return core::make_error("\"" + std::string(handle) + "\" is not a document handle",
                            {name + "_session recover"});
  }
  {
    std::lock_guard lock(mutex_);
    if (documents_.contains(handle)) {
      return core::make_error(std::string(handle) + " is open already: use it as doc",
                              {list_hint(domain)});
    }
  }
  const auto path = journal_path(handle);
  // Replicas: the document's lease first, so no other replica writes it meanwhile; given back
  // when the recovery fails.
  struct LeaseGuard {
    LeaseTable* leases = nullptr;
    std::string handle;
    ~LeaseGuard() {
      if (leases != nullptr) leases->release(handle);
    }
  } guard;
  if (leases_.enabled()) {
    if (journal_in_use(path)) {
      const auto holder = leases_.live_holder(handle);
      return core::make_error(std::string(handle) + " is open in another fcpd on this host" +
                              (holder ? " (" + holder->describe() + ")" : std::string()) +
                              ": send calls for it there");
    }
    auto lease = leases_.acquire(handle);
    if (!lease) return lease.error();
    if (!lease->taken) {
      return core::make_error(std::string(handle) + " is written by " + lease->holder->describe() +
                              ": send calls for it to that replica");
    }
    guard.leases = &leases_;
    guard.handle = std::string(handle);
  }
  auto contents = read_journal_file(path);
  const auto unknown = core::make_error(
      "no journal of a " + name + " document has the handle " + std::string(handle),
      {name + "_session recover"});
  if (!contents || contents->records.empty()) return unknown;
  const auto& head = contents->records.front();
  if (head.kind != JournalRecord::Kind::header || head.fields.size() != 4 ||
      head.fields[1] != domain.name() || head.fields[2] != owner || head.fields[3] != handle) {
    return unknown;
  }
  report = Recoverable{};
  report.handle = std::string(handle);
  report.damage = contents->damage;
  auto session = replay(domain, *contents, report.calls);
  if (!session) {
    return core::make_error(
        "cannot recover " + std::string(handle) + ": " + session.error().message,
        {name + "_session recover"});
  }
  if (!(*session)->has_document()) return unknown;
  if (auto room = can_add(owner, domain); !room) return room.error();
  auto document =
      std::make_shared<StoredDocument>(std::string(handle), owner, domain, calls_, paths_, limits_);
  document->session_ = std::move(*session);
  auto reopened =
      JournalFile::reopen(path, contents->valid_bytes, contents->records.size(), journal_);
  if (!reopened) return reopened.error();
  document->journal_ = std::move(*reopened);
  // Linked like a new or opened document of the client (lofi: to its Max), before the digest.
  report.lines = document->session_->relink(std::move(state));
  document->journaled_ = document->session_->fingerprint();
  document->refresh(true);
  const auto summary = document->summary();
  {
    // The recovered journal counts against the owner's budget as it is (written before).
    std::lock_guard lock(document->journal_mutex_);
    if (!summary.unsaved) document->journal_->mark_saved();
    charge_locked(*document, document->journal_->unsaved_bytes());
  }
  report.title = summary.title;
  report.file = summary.file;
  report.unsaved = summary.unsaved;
  if (auto added = add(document); !added) {
    std::lock_guard lock(document->journal_mutex_);
    charge_locked(*document, 0);
    return added.error();
  }
  guard.leases = nullptr;  // held from now on
  return document;
}

core::Result<DocumentStore::TakeOver> DocumentStore::take_over(std::string_view handle,
                                                               const std::string& owner,
                                                               const core::Domain& domain) {
  TakeOver out;
  if (!leases_.enabled() || !looks_like_handle(handle)) return out;
  const auto path = journal_path(handle);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  out.journaled = true;
  // Its journal locked by a live fcpd on this host: held, whatever its lease's age says.
  if (journal_in_use(path)) {
    out.holder = leases_.live_holder(handle);
    if (!out.holder) out.holder = LeaseHolder{};  // pid 0: describe() says what is known
    return out;
  }
  auto lease = leases_.acquire(handle);
  if (!lease) return lease.error();
  if (!lease->taken) {
    out.holder = lease->holder;
    return out;
  }
  out.taken_from = lease->taken_from;
  auto recovered = recover(handle, owner, domain, out.report, nullptr);
  if (!recovered) {
    leases_.release(handle);
    return recovered.error();
  }
  out.document = *recovered;
  spdlog::info("took {} over{}: recovered from its journal ({} calls replayed)", handle,
               out.taken_from ? " from " + out.taken_from->describe() : std::string(),
               out.report.calls);
  return out;
}

bool DocumentStore::hand_off(StoredDocument& document) {
  if (document.closed()) return false;
  if (document.session_ && document.session_->fingerprint() != document.journaled_) return false;
  {
    std::lock_guard lock(document.journal_mutex_);
    if (!document.journal_ || !document.journal_->sync()) return false;
    charge_locked(document, 0);
    document.journal_.reset();  // closing it lets the journal's lock go
  }
  document.moved_ = true;
  document.closed_ = true;
  {
    std::lock_guard lock(mutex_);
    documents_.erase(document.handle());
  }
  leases_.release(document.handle());
  spdlog::info("handed {} over to the replica that asked for it", document.handle());
  return true;
}

void DocumentStore::tend_leases() {
  const auto now = std::chrono::steady_clock::now();
  std::vector<std::string> lost;
  if (now - renewed_ >= leases_.options().lease_ttl / 3) {
    renewed_ = now;
    lost = leases_.renew_all();
  }
  auto asked = leases_.handoff_requests();
  const auto let_go = [this](const std::string& handle, bool ours) {
    std::shared_ptr<StoredDocument> document;
    {
      std::lock_guard lock(mutex_);
      auto it = documents_.find(handle);
      if (it == documents_.end()) return;
      document = it->second;
    }
    document->queue()->submit([this, document, ours](const SerialQueue::Done& done) {
      if (!hand_off(*document) && !ours) {
        // Another replica took its lease: this one must not write it any more.
        spdlog::error(
            "{}: its lease was taken over by another replica while it had changes not "
            "in its journal; they are dropped here",
            document->handle());
        document->moved_ = true;
        document->closed_ = true;
        std::lock_guard lock(mutex_);
        documents_.erase(document->handle());
      }
      done();
    });
  };
  for (const auto& handle : lost) {
    spdlog::warn("{}: another replica took its lease over; letting it go", handle);
    let_go(handle, false);
  }
  for (const auto& handle : asked) {
    if (leases_.holds(handle)) let_go(handle, true);
  }
}

void DocumentStore::schedule_leases(const std::shared_ptr<boost::asio::steady_timer>& timer) {
  timer->expires_after(std::chrono::milliseconds(50));
  timer->async_wait([this, weak = std::weak_ptr(timer)](const boost::system::error_code& ec) {
    auto live = weak.lock();
    if (ec || !live) return;
    tend_leases();
    schedule_leases(live);
  });
}

core::Result<void> DocumentStore::load(StoredDocument& document) {
  if (document.session_) return {};
  auto contents = read_journal_file(journal_path(document.handle()));
  if (!contents) return contents.error();
  std::size_t calls = 0;
  auto session = replay(document.domain(), *contents, calls);
  if (!session) return session.error();
  {
    // Held while relinking, so successor_state() meanwhile waits for the relinked session.
    std::lock_guard lock(document.session_mutex_);
    // Back in what its session chose before the eviction (lofi: linked to its Max again).
    (void)(*session)->relink(std::move(document.evicted_state_));
    document.session_ = std::move(*session);
  }
  document.journaled_ = document.session_->fingerprint();
  document.evicted_ = false;
  return {};
}

bool DocumentStore::evict(StoredDocument& document) {
  if (!journals() || !document.session_ || document.closed()) return false;
  auto& session = *document.session_;
  if (session.fingerprint() != document.journaled_) return false;  // not all in the journal
  {
    std::lock_guard lock(document.journal_mutex_);
    if (!document.journal_ || !document.journal_->sync()) return false;
  }
  {
    std::lock_guard lock(document.session_mutex_);
    document.evicted_state_ = session.successor_state();
    document.session_.reset();
  }
  document.evicted_ = true;
  return true;
}

void DocumentStore::start_timers() {
  if (!journals()) return;
  if (leases_.enabled()) {
    lease_timer_ = std::make_shared<boost::asio::steady_timer>(calls_);
    schedule_leases(lease_timer_);
  }
  if (journal_.idle_evict.count() > 0) {
    evict_timer_ = std::make_shared<boost::asio::steady_timer>(calls_);
    schedule_eviction(evict_timer_);
  }
  if (journal_.fsync == FsyncPolicy::interval) {
    sync_timer_ = std::make_shared<boost::asio::steady_timer>(calls_);
    schedule_sync(sync_timer_);
  }
}

void DocumentStore::stop_timers() {
  // The waits' handlers hold their timers only weakly (and while they run): the last reference
  // going cancels the wait.
  evict_timer_.reset();
  sync_timer_.reset();
  lease_timer_.reset();
}

void DocumentStore::schedule_sync(const std::shared_ptr<boost::asio::steady_timer>& timer) {
  // An append waits at most one interval for its sync, whether or not another call comes.
  timer->expires_after(std::max(journal_.fsync_interval, std::chrono::milliseconds(10)));
  timer->async_wait([this, weak = std::weak_ptr(timer)](const boost::system::error_code& ec) {
    auto live = weak.lock();
    if (ec || !live) return;
    flush_journals();
    schedule_sync(live);
  });
}

std::size_t DocumentStore::unsynced_journals() const {
  const auto documents = every_document();
  std::size_t count = 0;
  for (const auto& document : documents) {
    std::lock_guard lock(document->journal_mutex_);
    count += document->journal_ && document->journal_->dirty() ? 1 : 0;
  }
  return count;
}

void DocumentStore::schedule_eviction(const std::shared_ptr<boost::asio::steady_timer>& timer) {
  // Checks a few times per idle period; the timer is cancelled when the store goes.
  const auto period = std::max<std::chrono::milliseconds>(
      std::chrono::duration_cast<std::chrono::milliseconds>(journal_.idle_evict) / 4,
      std::chrono::milliseconds(250));
  timer->expires_after(period);
  timer->async_wait([this, weak = std::weak_ptr(timer)](const boost::system::error_code& ec) {
    auto live = weak.lock();
    if (ec || !live) return;
    evict_idle();
    schedule_eviction(live);
  });
}

std::size_t DocumentStore::evict_idle(StoredDocument::Clock::time_point now) {
  if (!journals() || journal_.idle_evict.count() <= 0) return 0;
  const auto cutoff = now - journal_.idle_evict;
  std::size_t asked = 0;
  for (const auto& document : idle_since(cutoff)) {
    if (document->evicted()) continue;
    ++asked;
    document->queue()->submit([this, document, cutoff](const SerialQueue::Done& done) {
      if (document->last_use() < cutoff) evict(*document);
      done();
    });
  }
  return asked;
}

}  // namespace fcp::mcp

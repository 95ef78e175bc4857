// Per-document journals in the state directory: every committed call that changed a document
// (ops, undo, redo, checkpoint, new, open with the bytes it read, save) is appended before the
// reply is sent, so `recover` can rebuild the document, its history and checkpoints after a
// crash by replaying the calls through the engine.
//
// File format: records of [u32 length][u32 CRC-32 of the payload][payload], little-endian. A
// payload is a kind byte and fields, each [u32 length][bytes]. The first record is the header
// (format, domain, owner, handle). A record whose length runs past the end or whose CRC does
// not match ends the journal: everything before it is kept and the damage is reported.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "mcp/document_lease.hpp"

namespace fcp::mcp {

enum class FsyncPolicy { batch, interval, never };

struct JournalOptions {
  std::optional<std::filesystem::path> state_dir;  // none: no journals (and no eviction)
  FsyncPolicy fsync = FsyncPolicy::batch;
  std::chrono::milliseconds fsync_interval{1000};  // with FsyncPolicy::interval
  // Records after which a journal is compacted into a snapshot (the document's own file bytes)
  // followed by the last `history` calls, which stay undoable after a recovery.
  std::size_t compact_after = 1000;
  std::size_t history = 100;
  // A document unused this long, with its journal up to date, leaves memory and is reloaded
  // from its journal on use (zero: never).
  std::chrono::seconds idle_evict{0};
  // Replicas sharing the state directory (a lease per document); off without a replica id.
  ReplicaOptions replica;
};

struct JournalRecord {
  enum class Kind : char {
    header = 'H',  // "fcp-journal/1", domain, owner, handle
    ops = 'P',     // the ops of one call
    action = 'A',  // a session action replayed as written (new, undo, redo, checkpoint, …)
    open = 'O',    // path, the bytes it read
    saved = 'S',   // the path saved to
    base = 'B',    // snapshot: format path, file bytes, file path or "", "1" when saved, changes
  };
  Kind kind = Kind::header;
  std::vector<std::string> fields;
};

std::string encode_record(const JournalRecord& record);

struct JournalContents {
  std::vector<JournalRecord> records;
  std::size_t valid_bytes = 0;        // the bytes the records span
  std::optional<std::string> damage;  // what ends the journal early, when something does
};
JournalContents read_journal(std::string_view bytes);
core::Result<JournalContents> read_journal_file(const std::filesystem::path& path);

// An open journal file. Thread: one document's queue at a time.
class JournalFile {
 public:
  // Writes `records` to a new file atomically (temporary file, fsync, rename, fsync of the
  // directory) and keeps it open for appending.
  static core::Result<std::unique_ptr<JournalFile>> create(
      const std::filesystem::path& path, const std::vector<JournalRecord>& records,
      const JournalOptions& options);
  // Opens an existing journal for appending after its first `valid_bytes` (a damaged tail is
  // cut off).
  static core::Result<std::unique_ptr<JournalFile>> reopen(const std::filesystem::path& path,
                                                           std::size_t valid_bytes,
                                                           std::size_t records,
                                                           const JournalOptions& options);
  ~JournalFile();
  JournalFile(const JournalFile&) = delete;
  JournalFile& operator=(const JournalFile&) = delete;

  // Appends and, per the fsync policy, syncs before returning.
  core::Result<void> append(const JournalRecord& record);
  // Syncs what was appended (for the interval policy and shutdown).
  core::Result<void> sync();
  std::size_t records() const { return records_; }
  // The file's size: the records written (what the principal's journal budget counts).
  std::size_t bytes() const { return bytes_; }
  // The bytes appended since mark_saved() (all of them in a new or reopened file): the
  // document's unsaved work, as the principal's journal budget counts it.
  std::size_t unsaved_bytes() const { return bytes_ - saved_bytes_; }
  void mark_saved() { saved_bytes_ = bytes_; }
  // True when appends wait for a sync (the interval or never policy).
  bool dirty() const { return dirty_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  JournalFile(std::filesystem::path path, int fd, std::size_t records, std::size_t bytes,
              FsyncPolicy fsync, std::chrono::milliseconds interval);

  std::filesystem::path path_;
  int fd_ = -1;
  std::size_t records_ = 0;
  std::size_t bytes_ = 0;
  std::size_t saved_bytes_ = 0;
  FsyncPolicy fsync_;
  std::chrono::milliseconds interval_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point last_sync_;
};

// True when an fcpd holds the journal open (its document is open there).
bool journal_in_use(const std::filesystem::path& path);
// "doc:dw-0123…" → "dw-0123….fcpj"
std::string journal_file_name(std::string_view handle);
// The state directory fcpd uses when none is configured: $XDG_STATE_HOME/fcpd or
// ~/.local/state/fcpd.
std::filesystem::path default_state_dir();

}  // namespace fcp::mcp

// File access for sessions and domains: the allowed-roots policy and atomic writes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace fcp::core {

// Decides which paths tools may read and write. Implemented by the daemon (--root DIR).
// Thread: implementations must be safe to call from several threads at once.
class PathPolicy {
 public:
  virtual ~PathPolicy() = default;
  // The absolute, canonical path to read, or an error naming the allowed roots. Relative paths
  // are taken relative to the first root. Symlinks are resolved before the check.
  virtual Result<std::filesystem::path> for_reading(std::string_view path) const = 0;
  // As above for a file that may not exist yet (its parent directory must exist and be inside).
  virtual Result<std::filesystem::path> for_writing(std::string_view path) const = 0;
};

// The bytes of a file `open` read, immutable and shared: the document that keeps them (to save
// an unedited file as it was read) and the session that hands them to its journal hold one copy,
// not one each (131 MB for a 1 M-cell draw.io file). Made from a string it takes (moved) or
// copies (a view).
class FileBytes {
 public:
  // Implicit: wherever a file's bytes are passed, a string of them will do.
  FileBytes() : FileBytes(std::string()) {}
  FileBytes(std::string bytes) : bytes_(std::make_shared<const std::string>(std::move(bytes))) {}
  FileBytes(std::string_view bytes) : FileBytes(std::string(bytes)) {}
  FileBytes(const char* bytes) : FileBytes(std::string(bytes)) {}

  std::string_view view() const { return *bytes_; }
  const std::string& str() const { return *bytes_; }
  std::size_t size() const { return bytes_->size(); }
  bool empty() const { return bytes_->empty(); }

 private:
  std::shared_ptr<const std::string> bytes_;
};

// Reads a whole file; refuses files larger than `max_bytes`.
Result<std::string> read_file(const std::filesystem::path& path, std::size_t max_bytes);
// Writes via a temporary file in the same directory, fsync and rename: the target is either
// the old file or the complete new one, never a half-written file. A file that exists keeps its
// owner's promises: its permission bits, owner and group carry over to the new file; a file its
// owner made read-only, one whose owner cannot be kept, and one with other hard links (a rename
// would separate them) are refused with the reason, unchanged. A new file gets 0666 less the
// umask. Temporary files a killed save left beside the target (older than a minute) are removed.
struct WriteOptions {
  bool replace_read_only = false;  // the user said so (save force:true); the mode stays read-only
};
Result<void> write_file_atomically(const std::filesystem::path& path, std::string_view bytes,
                                   WriteOptions options = {});
// The same, with the bytes made while they are written: `produce` hands them to its `write` in
// pieces, in order (`write` returns false once the file cannot take more: produce may stop).
// An error from `produce`, a failed write or a call that must stop leaves the target as it was.
using ByteWriter = std::function<bool(std::string_view)>;
Result<void> write_file_atomically(const std::filesystem::path& path,
                                   const std::function<Result<void>(const ByteWriter&)>& produce,
                                   WriteOptions options = {});

}  // namespace fcp::core

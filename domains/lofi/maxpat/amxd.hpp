// The Max for Live device container (.amxd) around a patcher.
//
// Layout (little-endian lengths): chunks of a 4-byte tag, a 32-bit length and the data —
//   "ampf" 4 <device type>   "meta" 4 <flags>   "ptch" N <patcher JSON, then a NUL>
// A frozen device (Max 9.1+) puts "mx@c" inside ptch: a big-endian header (16, 0, offset of
// the directory), the files (the patcher JSON first, NUL-terminated) and a "dlst" directory of
// "dire" entries (type, fnam, sz32, of32, vers, flag, mdat). An encrypted device has a "ciph"
// chunk instead of ptch and cannot be read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "domains/lofi/maxpat/patcher.hpp"

namespace fcp::lofi::maxpat {

struct AmxdFile {
  std::string device_type;  // "aaaa" audio effect, "mmmm" MIDI effect, "iiii" instrument
  Patcher patcher;
  std::string raw_header;     // the bytes before the patcher JSON, kept (chunks, mx@c header)
  std::string raw_trailer;    // the bytes after it (the NUL; a frozen device's directory), kept
  std::size_t json_size = 0;  // length of the JSON text between them as read (0 for a new file);
                              // write_amxd uses it to fix the lengths in header and trailer

  friend bool operator==(const AmxdFile&, const AmxdFile&) = default;
};

// "audio effect" for "aaaa", "MIDI effect", "instrument"; "" for other codes.
std::string_view device_type_name(std::string_view device_type);

// Reads a device. Errors say why: not an .amxd, truncated (which chunk, how many bytes are
// missing), encrypted, an unknown device type, a patcher that is not JSON, or the patcher's
// own error.
core::Result<AmxdFile> read_amxd(std::string_view bytes);

// The device bytes: raw_header and raw_trailer with their lengths (ptch size, frozen directory
// offsets and sizes) fixed for the new JSON, the device type written into the "ampf" chunk.
// Without a usable raw_header, a plain ampf/meta/ptch container is built.
std::string write_amxd(const AmxdFile& file);

// A new device around `patcher`: adds the keys Max for Live saves with a device (the "project"
// block with amxdtype, latency, is_mpe, minimum versions) where they are missing, and a plain
// container header. `device_type` is "aaaa", "mmmm" or "iiii".
AmxdFile make_amxd(Patcher patcher, std::string device_type = "aaaa");

}  // namespace fcp::lofi::maxpat

// Golden transcripts, shared by every domain: fixtures/DOMAIN/transcripts/*.txt replay tool
// calls against a domain through the engine's Session and compare every reply.
//
// Format: `> TOOL ARGUMENT` starts a call (TOOL is DOMAIN, DOMAIN_query, DOMAIN_session or
// DOMAIN_help); `>> OP` adds another op to the same batch; the lines up to the next call are the
// expected reply. Lines starting with `#: ` are comments. Each file runs in a fresh temporary
// directory holding a copy of the regular files of fixtures/DOMAIN/ (so transcripts can open
// samples); resolved paths in replies are shown relative to it.
// FCP_UPDATE_GOLDEN=1 rewrites the files with the actual replies (review the diff!).
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/domain.hpp"

namespace fcp::testing {

// The transcript files of a domain, sorted.
std::vector<std::filesystem::path> transcript_files(const std::filesystem::path& root,
                                                    std::string_view domain);

// A test name for a transcript file: its stem with everything but letters and digits as '_'.
std::string transcript_test_name(const std::filesystem::path& file);

// Runs one transcript; returns "" when every reply matched (or the file was rewritten in update
// mode), else a report of the differences. Whatever the mode, every line of a reply to an op call
// or a session action must also be a reply line of core/response.hpp (prefix and space, or a
// detail line under one) or the closing state digest; a line that is not is reported.
std::string run_transcript(const std::filesystem::path& file, const core::Domain& domain,
                           const std::filesystem::path& fixtures_dir);

}  // namespace fcp::testing

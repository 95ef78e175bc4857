// The lofi verbs (add wire unwire remove ui inject map unmap move modify set copy repeat
// checkpoint) and queries (map stats describe list wires find ping).
#pragma once

#include <string>
#include <vector>

#include "core/domain.hpp"
#include "domains/lofi/edit.hpp"

namespace fcp::lofi {

class MaxLink;

struct LofiOp {
  const Device& device;
  DeviceTransaction& edit;
  core::CallContext& call;
  const core::ParsedOp& op;
  std::vector<std::string> lines;
  std::string checkpoint;
};

core::Result<void> run_lofi_verb(LofiOp& op);
core::VerbRegistry lofi_verbs();

// `log` backs @recent in `list` selectors.
std::optional<core::Result<std::string>> run_lofi_query(const Device& device, const MaxLink& link,
                                                        std::string_view verb,
                                                        std::string_view args,
                                                        const core::EventLog& log);
std::vector<core::VerbSpec> lofi_queries();

}  // namespace fcp::lofi

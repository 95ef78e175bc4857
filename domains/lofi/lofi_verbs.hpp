// The lofi verbs (add remove move modify copy repeat wire unwire ui inject map unmap resize) and
// queries (map stats describe list wires find ping).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "domains/lofi/edit.hpp"

namespace fcp::lofi {

class MaxLink;
namespace bridge {
class Bridge;
}  // namespace bridge

struct LofiOp {
  const Device& device;
  DeviceTransaction& edit;
  core::CallContext& call;
  const core::ParsedOp& op;
  std::vector<std::string> lines;
};

// Every lofi verb with its positionals, keys, help, examples and handler, and the words agents
// use for them (verb_table.cpp).
const core::VerbTable<LofiOp>& lofi_verb_table();

// The handlers (lofi_verbs.cpp).
core::Result<void> verb_add(LofiOp& ctx);
core::Result<void> verb_remove(LofiOp& ctx);
core::Result<void> verb_move(LofiOp& ctx);
core::Result<void> verb_modify(LofiOp& ctx);
core::Result<void> verb_copy(LofiOp& ctx);
core::Result<void> verb_repeat(LofiOp& ctx);
core::Result<void> verb_wire(LofiOp& ctx);
core::Result<void> verb_unwire(LofiOp& ctx);
core::Result<void> verb_ui(LofiOp& ctx);
core::Result<void> verb_inject(LofiOp& ctx);
core::Result<void> verb_map(LofiOp& ctx);
core::Result<void> verb_unmap(LofiOp& ctx);
core::Result<void> verb_resize(LofiOp& ctx);

// `log` backs @recent in `list` selectors. map, stats, describe and list carry their structured
// data (the objects, wires and mappings their text shows).
std::optional<core::Result<core::QueryAnswer>> run_lofi_query(const Device& device,
                                                              const MaxLink& link,
                                                              std::string_view verb,
                                                              std::string_view args,
                                                              const core::EventLog& log);
std::vector<core::VerbSpec> lofi_queries();
// `ping`: pings Max through `bridge` (null: offline, an error) and says what Max holds, and
// whether that is `device` (null: no document open).
core::Result<std::string> ping_max(const std::shared_ptr<bridge::Bridge>& bridge,
                                   const Device* device);

}  // namespace fcp::lofi

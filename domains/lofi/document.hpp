// The lofi document: the device model plus its link to Max (a shared Bridge when connected,
// none when editing offline).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/domain.hpp"
#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/edit.hpp"

namespace fcp::lofi {

// Delivers a document's Max messages: through the bridge when connected (consecutive /lofi/ui
// layers merged into one z-sorted message), or nowhere when offline (the device then differs
// from Max until `sync`). Thread: deliver() may run on any thread; the bridge pointer is
// guarded because `connect` replaces it from the session strand.
class MaxLink final : public core::EffectExecutor {
 public:
  void deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
               std::function<void(core::Result<void>)> done) override;
  void set_bridge(std::shared_ptr<bridge::Bridge> bridge);
  std::shared_ptr<bridge::Bridge> bridge() const;
  bool online() const { return bridge() != nullptr; }
  // Offline edits since the last sync (for status).
  std::size_t unsynced() const;
  void mark_synced();

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<bridge::Bridge> bridge_;
  std::size_t unsynced_ = 0;
};

// Merges runs of /lofi/ui messages (one layer each) into single messages with the layers sorted
// by their numeric name prefix (no prefix = 50; stable), split so no payload exceeds Max's
// symbol limit.
std::vector<core::Effect> merge_ui_layers(std::vector<core::Effect> effects);

// Thread: owned by one session and only touched from that session's strand.
class LofiDocument final : public core::Document {
 public:
  explicit LofiDocument(Device device);

  core::Result<core::OpOutcome> execute(const core::ParsedOp& op, core::CallContext& ctx) override;
  void revert(const core::Event& event, core::EffectSink& effects) override;
  void replay(const core::Event& event, core::EffectSink& effects) override;
  void opened(core::EffectSink& effects) override;
  std::optional<core::Result<std::string>> query(std::string_view verb, std::string_view args,
                                                 const core::CallContext& ctx) const override;
  std::vector<std::string> status_lines() const override;
  std::string digest() const override;
  std::size_t entity_count() const override;
  std::vector<std::string> warnings(std::span<const core::EventPtr> batch) const override;
  core::Result<std::string> serialize(const std::filesystem::path& path) const override;
  std::string title() const override { return device_.info().name; }
  std::string summary() const override;

  const Device& device() const { return device_; }
  MaxLink& link() { return link_; }
  const MaxLink& link() const { return link_; }

 private:
  Device device_;
  MaxLink link_;
};

}  // namespace fcp::lofi

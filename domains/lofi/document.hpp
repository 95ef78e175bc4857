// The lofi document: the device model plus its session's link to Max (see MaxLink).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "core/domain.hpp"
#include "domains/lofi/edit.hpp"
#include "domains/lofi/max_link.hpp"

namespace fcp::lofi {

// Thread: owned by one session and only touched from that session's strand.
// Memory estimates for limits.max_document_bytes, from bench_big's peak RSS (bench/README.md,
// `bench_big` open of the generated 300 k-box .maxpat: 2.06 GB peak for 300 k boxes, 300 k
// lines and 68 MB of file, the bytes read and the model together): about 3 450 bytes an
// object or wire, 30 per file byte.
inline constexpr std::size_t kBytesPerEntity = 3450;
inline constexpr std::size_t kBytesPerFileByte = 30;

class LofiDocument final : public core::Document {
 public:
  explicit LofiDocument(Device device);

  core::Result<core::OpOutcome> execute(const core::ParsedOp& op, core::CallContext& ctx) override;
  void revert(const core::Event& event, core::EffectSink& effects) override;
  void replay(const core::Event& event, core::EffectSink& effects) override;
  void opened(core::EffectSink& effects) override;
  std::optional<core::Result<core::QueryAnswer>> query(std::string_view verb, std::string_view args,
                                                       const core::CallContext& ctx) const override;
  std::vector<std::string> status_lines() const override;
  std::string digest() const override;
  std::size_t entity_count() const override;
  std::size_t estimated_bytes() const override { return entity_count() * kBytesPerEntity; }
  std::vector<std::string> warnings(std::span<const core::EventPtr> batch,
                                    core::Applied applied) const override;
  core::Result<std::string> serialize(const std::filesystem::path& path) const override;
  std::string title() const override { return device_.info().name; }
  std::string summary() const override;

  const Device& device() const { return device_; }
  MaxLink& link() { return *link_; }
  const MaxLink& link() const { return *link_; }
  // The session's link (a new document has its own, offline, until the domain adopts it).
  void set_link(std::shared_ptr<MaxLink> link) { link_ = std::move(link); }
  // How long status waits for Max's answer to its ping.
  void set_status_wait(std::chrono::milliseconds wait) { status_wait_ = wait; }

 private:
  Device device_;
  std::shared_ptr<MaxLink> link_ = std::make_shared<MaxLink>();
  std::chrono::milliseconds status_wait_{300};
};

}  // namespace fcp::lofi

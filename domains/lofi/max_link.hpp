// The Max link of one client session: which Max it talks to (remembered across documents),
// whether it is online, whether it drives Max's device, and delivery of its documents' messages.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "domains/lofi/bridge/bridge.hpp"
#include "domains/lofi/device.hpp"

namespace fcp::lofi {

// What the Max daemon's /lofi/ping reports of its current device, and what the model says it
// should: the device name, the object count, and an FNV-1a hash (32 bits, 8 hex digits) of the
// object ids (bridge::ids_hash).
struct Fingerprint {
  std::string device;
  std::size_t objects = 0;
  std::string hash;
  bool operator==(const Fingerprint&) const = default;
};
Fingerprint device_fingerprint(const Device& device);
// The fingerprint a ping reply carries; nullopt when it carries none (an older daemon).
std::optional<Fingerprint> pong_fingerprint(const boost::json::object& reply);

// Merges runs of /lofi/ui messages (one layer each) into single messages with the layers sorted
// by their numeric name prefix (no prefix = 50; stable), split so no payload exceeds Max's
// symbol limit.
std::vector<core::Effect> merge_ui_layers(std::vector<core::Effect> effects);

// Requests of a sync in flight at once.
constexpr std::size_t kSyncWindow = 32;

// Online = linked to a bridge AND driving Max's device (the daemon has one current device; a
// session that another one took it from edits offline). Offline edits are counted for status and
// pushed by `sync`.
// Thread: deliver() and the delivery callbacks may run on any thread; the rest runs on the
// session's strand. State is guarded by a mutex.
class MaxLink final : public core::EffectExecutor, public std::enable_shared_from_this<MaxLink> {
 public:
  // Through the bridge when online (consecutive /lofi/ui layers merged into one z-sorted
  // message; a sync windowed, see expect_sync), else nowhere (counted as unsynced). A timeout
  // takes the session offline; the failure says so.
  void deliver(std::vector<core::Effect> effects, core::DeliveryProgress progress,
               std::function<void(core::Result<void>)> done) override;

  // Links to `bridge` (which answered a ping) and remembers its options.
  void link(const std::shared_ptr<bridge::Bridge>& bridge);
  // Unlinks, keeping the options for the next `connect` or document; `reason` shows in status.
  void unlink(std::string reason);
  // Makes this session drive Max's device `device` (see Bridge::claim).
  core::Result<void> drive(const std::string& device, bool takeover);

  std::shared_ptr<bridge::Bridge> bridge() const;
  bool online() const;
  std::optional<bridge::BridgeOptions> remembered() const;
  void remember(const bridge::BridgeOptions& options, std::string reason);

  // When another session took Max over since the last check: goes offline and returns the one
  // line saying so (once).
  std::optional<std::string> check_driver();

  std::size_t unsynced() const;
  void mark_synced();
  // The next deliver() is a sync: up to kSyncWindow requests in flight.
  void expect_sync();

  // The status lines of the link for `device` (pings Max, at most `wait`; no answer takes the
  // session offline). With no device (none open): the link and what Max holds.
  std::vector<std::string> status_lines(const Device* device, std::chrono::milliseconds wait);

 private:
  void count_unsynced();

  mutable std::mutex mutex_;
  std::shared_ptr<bridge::Bridge> bridge_;
  std::optional<bridge::BridgeOptions> options_;
  std::string offline_reason_;
  bool was_driving_ = false;
  bool sync_next_ = false;
  std::size_t unsynced_ = 0;
};

// A round trip as status and ping print it: "<0.1 ms", "1.2 ms", "25 ms".
std::string round_trip_text(double milliseconds);

// A line for a fingerprint mismatch ("Max holds …, the model …"), nullopt when they agree.
std::optional<std::string> mismatch(const Fingerprint& model, const Fingerprint& max);

// Thread: the session's strand, but successor() and `adopted` any.
struct LofiSessionState final : core::SessionState {
  std::shared_ptr<MaxLink> link = std::make_shared<MaxLink>();
  // Set once a document adopted this state (Domain::adopt): the link is that document's.
  std::atomic<bool> adopted{false};
  // The link of the session this state succeeds (see successor): its document hands Max's device
  // to this one; a session without a document hands over its place on the bridge too.
  std::weak_ptr<MaxLink> predecessor;
  bool predecessor_adopted = false;

  // A state for the client's next document: a link of its own that remembers the same Max
  // (its adopt links and drives it when Max answers, as `connect` did for this one).
  std::unique_ptr<core::SessionState> successor() const override;
};

}  // namespace fcp::lofi

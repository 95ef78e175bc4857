#include "domains/lofi/bridge/correlator.hpp"

namespace fcp::lofi::bridge {

void RecentIds::remember(std::string id) {
  if (capacity_ == 0 || ids_.contains(id)) return;
  if (order_.size() == capacity_) {
    ids_.erase(order_.front());
    order_.pop_front();
  }
  ids_.insert(id);
  order_.push_back(std::move(id));
}

bool RecentIds::contains(std::string_view id) const {
  return ids_.contains(std::string(id));
}

void Correlator::add(std::string request_id) {
  pending_.insert(std::move(request_id));
}

Correlator::Outcome Correlator::match(std::string_view reply_id) {
  if (reply_id.empty()) {
    if (pending_.size() == 1) {
      std::string id = *pending_.begin();
      pending_.clear();
      answered_.remember(id);
      return {Match::matched, std::move(id)};
    }
    return {pending_.empty() ? Match::unmatched : Match::ambiguous, ""};
  }
  std::string id(reply_id);
  if (auto it = pending_.find(id); it != pending_.end()) {
    pending_.erase(it);
    answered_.remember(id);
    return {Match::matched, std::move(id)};
  }
  if (timed_out_.contains(id)) return {Match::late, std::move(id)};
  if (answered_.contains(id)) return {Match::duplicate, std::move(id)};
  return {Match::unmatched, ""};
}

bool Correlator::time_out(const std::string& request_id) {
  if (pending_.erase(request_id) == 0) return false;
  timed_out_.remember(request_id);
  return true;
}

void Correlator::abandon(const std::string& request_id) {
  pending_.erase(request_id);
}

std::vector<std::string> Correlator::pending_ids() const {
  return {pending_.begin(), pending_.end()};
}

}  // namespace fcp::lofi::bridge

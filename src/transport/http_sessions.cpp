#include "transport/http_sessions.hpp"

#include <spdlog/spdlog.h>

#include <utility>

#include "mcp/random_id.hpp"

namespace fcp::transport {
namespace {

// The Connection owns its Outbound while the session owns the Connection, hence the weak link.
class SessionOutbound final : public mcp::Outbound {
 public:
  void bind(std::weak_ptr<HttpSession> session) { session_ = std::move(session); }
  void send(std::string message) override {
    if (auto session = session_.lock()) session->send(std::move(message));
  }

 private:
  std::weak_ptr<HttpSession> session_;
};

}  // namespace

std::shared_ptr<HttpSession> HttpSession::create(mcp::ConnectionFactory& factory,
                                                 mcp::ConnectionInfo info) {
  auto session = std::make_shared<HttpSession>();
  auto outbound = std::make_shared<SessionOutbound>();
  outbound->bind(session);
  session->principal_ = info.principal;
  session->connection_ = factory.connect(std::move(info), std::move(outbound));
  return session;
}

void HttpSession::begin_use() {
  std::lock_guard lock(mutex_);
  ++users_;
  last_used_ = Clock::now();
}

void HttpSession::end_use() {
  std::lock_guard lock(mutex_);
  if (users_ > 0) --users_;
  last_used_ = Clock::now();
}

bool HttpSession::expired(Clock::time_point cutoff) const {
  std::lock_guard lock(mutex_);
  return users_ == 0 && last_used_ < cutoff;
}

void HttpSession::attach_stream(const std::shared_ptr<EventSink>& sink) {
  std::shared_ptr<EventSink> previous;
  {
    std::lock_guard lock(mutex_);
    if (closed_) {
      previous = sink;
    } else {
      previous = stream_.lock();
      stream_ = sink;
    }
  }
  if (previous) previous->post_end();
}

void HttpSession::detach_stream(const EventSink* sink) {
  std::lock_guard lock(mutex_);
  if (stream_.lock().get() == sink) stream_.reset();
}

void HttpSession::send(std::string message) {
  std::shared_ptr<EventSink> sink;
  {
    std::lock_guard lock(mutex_);
    sink = stream_.lock();
  }
  if (sink) {
    sink->post_event(std::move(message));
  } else {
    spdlog::debug("http: a session without an open stream dropped a message");
  }
}

void HttpSession::close() {
  std::shared_ptr<EventSink> sink;
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    closed_ = true;
    sink = stream_.lock();
    stream_.reset();
  }
  connection_->close();
  if (sink) sink->post_end();
}

bool SessionTable::add(const std::shared_ptr<HttpSession>& session) {
  std::shared_ptr<HttpSession> evicted;
  {
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= max_sessions_) {
      evicted = evict_locked();
      if (!evicted) return false;
    }
    auto id = id_prefix_ + make_session_id();
    while (sessions_.contains(id))
      id = id_prefix_ + make_session_id();
    session->id_ = id;
    sessions_.emplace(std::move(id), session);
  }
  if (evicted) {
    spdlog::info("http: session limit reached, closed the idle session {}", evicted->id());
    evicted->close();
  }
  return true;
}

std::shared_ptr<HttpSession> SessionTable::evict_locked() {
  auto oldest = sessions_.end();
  HttpSession::Clock::time_point oldest_use{};
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it) {
    std::lock_guard session_lock(it->second->mutex_);
    if (it->second->users_ > 0) continue;
    if (oldest == sessions_.end() || it->second->last_used_ < oldest_use) {
      oldest = it;
      oldest_use = it->second->last_used_;
    }
  }
  if (oldest == sessions_.end()) return nullptr;
  auto session = std::move(oldest->second);
  sessions_.erase(oldest);
  return session;
}

std::shared_ptr<HttpSession> SessionTable::find(std::string_view id) const {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(std::string(id));
  return it == sessions_.end() ? nullptr : it->second;
}

std::shared_ptr<HttpSession> SessionTable::remove(std::string_view id) {
  std::lock_guard lock(mutex_);
  const auto it = sessions_.find(std::string(id));
  if (it == sessions_.end()) return nullptr;
  auto session = std::move(it->second);
  sessions_.erase(it);
  return session;
}

std::vector<std::shared_ptr<HttpSession>> SessionTable::remove_expired(
    HttpSession::Clock::time_point cutoff) {
  std::vector<std::shared_ptr<HttpSession>> expired;
  std::lock_guard lock(mutex_);
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    if (it->second->expired(cutoff)) {
      expired.push_back(std::move(it->second));
      it = sessions_.erase(it);
    } else {
      ++it;
    }
  }
  return expired;
}

std::vector<std::shared_ptr<HttpSession>> SessionTable::remove_all() {
  std::vector<std::shared_ptr<HttpSession>> all;
  std::lock_guard lock(mutex_);
  for (auto& [id, session] : sessions_)
    all.push_back(std::move(session));
  sessions_.clear();
  return all;
}

std::size_t SessionTable::size() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

std::string make_session_id() {
  return mcp::random_hex(16);
}

}  // namespace fcp::transport

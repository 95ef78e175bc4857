// MCP sessions of the Streamable HTTP transport: one Connection per Mcp-Session-Id.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "mcp/connection.hpp"

namespace fcp::transport {

// Where a session's unsolicited messages go: the GET SSE stream currently attached to it.
// Thread: any; implementations post to their own strand.
class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void post_event(std::string message) = 0;
  virtual void post_end() = 0;  // the session ended or another stream replaced this one
};

// One MCP session: its Connection, its id once issued, and at most one GET stream.
// Thread: any (a mutex guards the stream and the usage clock). Ownership: the SessionTable and
// the requests in flight hold it; the Connection's Outbound holds it weakly.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  using Clock = std::chrono::steady_clock;

  // Creates the session and its Connection (whose Outbound feeds the attached stream).
  static std::shared_ptr<HttpSession> create(mcp::ConnectionFactory& factory,
                                             mcp::ConnectionInfo info);
  HttpSession() = default;
  HttpSession(const HttpSession&) = delete;
  HttpSession& operator=(const HttpSession&) = delete;

  mcp::Connection& connection() const { return *connection_; }
  // Empty until SessionTable::add issues one; fixed afterwards.
  const std::string& id() const { return id_; }
  // The principal whose bearer token created the session (nullopt: the daemon has no tokens).
  // Only requests with a token of the same principal reach it.
  const std::optional<std::string>& principal() const { return principal_; }

  // Requests in flight and open streams keep a session from expiring.
  void begin_use();
  void end_use();
  bool expired(Clock::time_point cutoff) const;

  // Attaches a GET stream; the one it replaces is ended.
  void attach_stream(const std::shared_ptr<EventSink>& sink);
  void detach_stream(const EventSink* sink);
  // The Outbound: forwards to the stream, or drops the message when none is open.
  void send(std::string message);
  // Closes the Connection and ends the stream. Idempotent.
  void close();

 private:
  friend class SessionTable;

  std::shared_ptr<mcp::Connection> connection_;
  std::string id_;
  std::optional<std::string> principal_;
  mutable std::mutex mutex_;
  std::weak_ptr<EventSink> stream_;
  std::size_t users_ = 0;
  Clock::time_point last_used_ = Clock::now();
  bool closed_ = false;
};

// The sessions that have an id. Thread: any (one mutex; session callbacks run outside it).
class SessionTable {
 public:
  explicit SessionTable(std::size_t max_sessions, std::string id_prefix = {})
      : max_sessions_(max_sessions), id_prefix_(std::move(id_prefix)) {}

  // Issues a fresh random id to `session` and keeps it. A full table first evicts (closes) its
  // least recently used idle session; returns false when nothing can be evicted.
  bool add(const std::shared_ptr<HttpSession>& session);
  std::shared_ptr<HttpSession> find(std::string_view id) const;
  std::shared_ptr<HttpSession> remove(std::string_view id);
  // Removes and returns the sessions unused since `cutoff`.
  std::vector<std::shared_ptr<HttpSession>> remove_expired(HttpSession::Clock::time_point cutoff);
  std::vector<std::shared_ptr<HttpSession>> remove_all();
  std::size_t size() const;

 private:
  std::shared_ptr<HttpSession> evict_locked();

  std::size_t max_sessions_;
  const std::string id_prefix_;  // before every id (a replica's name and '-')
  mutable std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<HttpSession>> sessions_;
};

// 128 random bits from the kernel CSPRNG (getrandom), as 32 lowercase hex digits.
std::string make_session_id();

}  // namespace fcp::transport

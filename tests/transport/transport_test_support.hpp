// Test doubles for the transport tests: a scripted Connection, io threads, and helpers that
// turn async client operations into futures with a timeout (a hung server fails, never hangs).
#pragma once

#include <fmt/format.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <istream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "mcp/connection.hpp"

namespace fcp::transport::testing {

inline constexpr std::chrono::seconds kTimeout{5};

template <class T>
T await(std::future<T>& future) {
  if (future.wait_for(kTimeout) != std::future_status::ready)
    throw std::runtime_error("timed out waiting for the server");
  return future.get();
}
template <class T>
T await(std::future<T>&& future) {
  return await(future);
}

// What the fake Connection does is decided by words in the message:
//   "init"     → initialized() becomes true, then the default reply
//   "notify"   → a notification before the reply
//   "outbound" → an Outbound message before the reply
//   "hold"     → keep the Responder (see FakeConnection::held) and answer nothing
//   "noreply"  → no_reply()
//   "big"      → a 100 000-byte reply
//   "status404" → the message itself as a reply with HTTP status 404 (Responder::reply_with_status)
//   "echoheaders" → a reply listing the Responder's headers as "name=value;" (none: "no headers")
//   otherwise  → reply with the message itself
inline constexpr std::string_view kNote = R"({"jsonrpc":"2.0","method":"notifications/progress"})";
inline constexpr std::string_view kOutboundNote = R"({"jsonrpc":"2.0","method":"note"})";

class FakeConnection final : public mcp::Connection {
 public:
  FakeConnection(mcp::ConnectionInfo i, std::shared_ptr<mcp::Outbound> o)
      : info(std::move(i)), outbound(std::move(o)) {}

  void handle(std::string_view message, std::shared_ptr<mcp::Responder> responder) override {
    const std::string text(message);
    if (text.find("init") != std::string::npos) initialized_ = true;
    if (text.find("notify") != std::string::npos) responder->notify(std::string(kNote));
    if (text.find("outbound") != std::string::npos) outbound->send(std::string(kOutboundNote));
    {
      std::lock_guard lock(mutex_);
      messages_.push_back(text);
      if (text.find("hold") != std::string::npos) held_.push_back(responder);
    }
    cv_.notify_all();
    if (text.find("hold") != std::string::npos) return;
    if (text.find("noreply") != std::string::npos) return responder->no_reply();
    if (text.find("big") != std::string::npos) return responder->reply(std::string(100000, 'b'));
    if (text.find("status404") != std::string::npos) return responder->reply_with_status(text, 404);
    if (text.find("echoheaders") != std::string::npos) {
      const auto* headers = responder->headers();
      std::string listed = headers == nullptr ? "no headers" : "";
      if (headers != nullptr) {
        for (const auto& field : headers->fields)
          listed += field.first + "=" + field.second + ";";
      }
      return responder->reply(listed);
    }
    responder->reply(text);
  }
  void handle_oversized(std::size_t size, std::shared_ptr<mcp::Responder> responder) override {
    {
      std::lock_guard lock(mutex_);
      oversized_.push_back(size);
    }
    cv_.notify_all();
    responder->reply(fmt::format("oversized:{}", size));
  }
  bool initialized() const override { return initialized_; }
  void close() override {
    {
      std::lock_guard lock(mutex_);
      ++closes_;
    }
    cv_.notify_all();
  }

  // Waits (up to kTimeout) until `ready()` holds under the lock; false on timeout.
  bool wait(const std::function<bool()>& ready) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, kTimeout, ready);
  }
  bool wait_closed() {
    return wait([this] { return closes_ > 0; });
  }
  std::shared_ptr<mcp::Responder> wait_held() {
    if (!wait([this] { return !held_.empty(); })) throw std::runtime_error("nothing held");
    std::lock_guard lock(mutex_);
    auto responder = held_.front();
    held_.erase(held_.begin());
    return responder;
  }
  int closes() {
    std::lock_guard lock(mutex_);
    return closes_;
  }
  std::vector<std::string> messages() {
    std::lock_guard lock(mutex_);
    return messages_;
  }
  std::vector<std::size_t> oversized() {
    std::lock_guard lock(mutex_);
    return oversized_;
  }

  const mcp::ConnectionInfo info;
  const std::shared_ptr<mcp::Outbound> outbound;

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> messages_;
  std::vector<std::size_t> oversized_;
  std::vector<std::shared_ptr<mcp::Responder>> held_;
  int closes_ = 0;
  std::atomic<bool> initialized_{false};
};

class FakeFactory final : public mcp::ConnectionFactory {
 public:
  std::shared_ptr<mcp::Connection> connect(mcp::ConnectionInfo info,
                                           std::shared_ptr<mcp::Outbound> outbound) override {
    auto connection = std::make_shared<FakeConnection>(std::move(info), std::move(outbound));
    {
      std::lock_guard lock(mutex_);
      connections_.push_back(connection);
    }
    cv_.notify_all();
    return connection;
  }
  // The index-th connection created (waits for it).
  std::shared_ptr<FakeConnection> connection(std::size_t index = 0) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, kTimeout, [&] { return connections_.size() > index; }))
      throw std::runtime_error("no connection was created");
    return connections_[index];
  }
  std::size_t count() {
    std::lock_guard lock(mutex_);
    return connections_.size();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::shared_ptr<FakeConnection>> connections_;
};

// A client of a line transport (TCP): whole lines out and in; a read or write that takes longer
// than kTimeout fails the test.
class LineClient {
 public:
  LineClient(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint)
      : socket_(io) {
    socket_.connect(endpoint);
  }
  void send(const std::string& data) {
    finish(boost::asio::async_write(socket_, boost::asio::buffer(data), boost::asio::use_future));
  }
  std::string read_line() {
    finish(boost::asio::async_read_until(socket_, buffer_, '\n', boost::asio::use_future));
    std::istream in(&buffer_);
    std::string line;
    std::getline(in, line);
    return line;
  }
  // True when the server closed the connection (EOF or reset) instead of sending a line.
  bool closed_by_server() {
    try {
      read_line();
      return false;
    } catch (const boost::system::system_error&) {
      return true;
    }
  }
  void close() { socket_.close(); }

 private:
  // The operation's result; on a timeout the operation is cancelled and waited for before the
  // test fails, so it never completes into a client that is gone.
  template <class T>
  T finish(std::future<T>&& future) {
    if (future.wait_for(kTimeout) != std::future_status::ready) {
      boost::system::error_code ignored;
      socket_.cancel(ignored);
      future.wait();
      throw std::runtime_error("timed out waiting for the server");
    }
    return future.get();
  }

  boost::asio::ip::tcp::socket socket_;
  boost::asio::streambuf buffer_;
};

// An io_context run by two threads (so that strand mistakes show), stopped on destruction.
class IoThreads {
 public:
  IoThreads() : work_(io.get_executor()) {
    for (int i = 0; i < 2; ++i)
      threads_.emplace_back([this] { io.run(); });
  }
  ~IoThreads() { stop(); }
  // Lets what is already queued run (connections a server's stop() is closing), then stops the
  // threads. A fixture whose server dies before this member calls it first, so that no handler
  // runs against the dead server.
  void stop() {
    if (threads_.empty()) return;
    std::promise<void> drained;
    auto done = drained.get_future();
    boost::asio::post(io, [&drained] { drained.set_value(); });
    done.wait_for(std::chrono::seconds(2));
    work_.reset();
    io.stop();
    for (auto& thread : threads_)
      thread.join();
    threads_.clear();
    // Completions that became ready meanwhile (a write on a socket the server just closed) run
    // here, while the server is still alive, rather than being destroyed with the io_context
    // after it (their handlers own connections that reach the server).
    io.restart();
    while (io.poll() > 0) {
    }
  }
  boost::asio::io_context io;

 private:
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

}  // namespace fcp::transport::testing

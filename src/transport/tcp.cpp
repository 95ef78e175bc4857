#include "transport/tcp.hpp"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <utility>
#include <vector>

#include "transport/line_channel.hpp"
#include "transport/listener.hpp"
#include "transport/live_set.hpp"

namespace fcp::transport {

// One accepted socket. Beast-examples shape: every handler runs on the socket's strand, a
// pending read or write holds a shared_ptr to the peer, and the peer dies with its last one.
class TcpPeer final : public LineChannel {
 public:
  TcpPeer(boost::asio::ip::tcp::socket socket, boost::asio::io_context::executor_type loop,
          const Limits& limits, std::shared_ptr<LiveSet<TcpPeer>> peers)
      : LineChannel(socket.get_executor(), std::move(loop), limits),
        socket_(std::move(socket)),
        peers_(std::move(peers)),
        read_buffer_(64 * 1024) {
    boost::system::error_code ec;
    const auto remote = socket_.remote_endpoint(ec);
    name_ = ec ? "unknown" : format_endpoint(remote);
  }

  // Any thread.
  void start(mcp::ConnectionFactory& factory) {
    boost::asio::post(strand(), [self = self(), &factory] {
      boost::system::error_code ignored;
      self->socket_.set_option(boost::asio::ip::tcp::no_delay(true), ignored);
      self->open(factory, mcp::ConnectionInfo{"tcp", self->name_, std::nullopt});
      spdlog::debug("tcp: {} connected", self->name_);
      self->do_read();
    });
  }

  // Any thread.
  void shutdown() {
    boost::asio::post(strand(), [self = self()] { self->close_now(); });
  }

 private:
  std::shared_ptr<TcpPeer> self() { return std::static_pointer_cast<TcpPeer>(shared_from_this()); }

  void do_read() {
    reading_ = true;
    socket_.async_read_some(boost::asio::buffer(read_buffer_),
                            [self = self()](const boost::system::error_code& ec, std::size_t n) {
                              self->on_read(ec, n);
                            });
  }

  void on_read(const boost::system::error_code& ec, std::size_t n) {
    reading_ = false;
    if (closed_) return;
    if (ec) {
      if (ec != boost::asio::error::eof) spdlog::debug("tcp: {} read: {}", name_, ec.message());
      return close_now();
    }
    deliver(std::string_view(read_buffer_.data(), n));
    if (!closed_) read_on_after_calls();
  }

  void close_now() {
    if (closed_) return;
    closed_ = true;
    spdlog::debug("tcp: {} disconnected", name_);
    close_connection();
    stop_writing();
    boost::system::error_code ignored;
    socket_.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    peers_->remove(this);
  }

  void write_batch(const std::vector<std::string>& lines) override {
    write_buffers_.clear();
    for (const auto& line : lines)
      write_buffers_.emplace_back(boost::asio::buffer(line));
    boost::asio::async_write(socket_, write_buffers_,
                             [self = self()](const boost::system::error_code& ec, std::size_t) {
                               self->on_write_done(ec);
                             });
  }
  void resume_reading() override {
    if (!closed_ && !reading_) do_read();
  }
  void on_write_error(const boost::system::error_code& ec) override {
    if (!closed_) spdlog::debug("tcp: {} write: {}", name_, ec.message());
    close_now();
  }

  boost::asio::ip::tcp::socket socket_;
  std::shared_ptr<LiveSet<TcpPeer>> peers_;
  std::vector<char> read_buffer_;
  std::vector<boost::asio::const_buffer> write_buffers_;
  std::string name_;
  bool reading_ = false;
  bool closed_ = false;
};

TcpServer::TcpServer(boost::asio::io_context& io, mcp::ConnectionFactory& factory,
                     boost::asio::ip::tcp::endpoint endpoint, Limits limits)
    : io_(io),
      factory_(factory),
      endpoint_(std::move(endpoint)),
      limits_(limits),
      peers_(std::make_shared<LiveSet<TcpPeer>>()) {}

TcpServer::~TcpServer() {
  stop();
}

core::Result<void> TcpServer::start() {
  if (listener_) return core::make_error("tcp: already started");
  // The listener may outlive the server (pending accept), so it captures only what it owns.
  listener_ = std::make_shared<Listener>(
      io_, "tcp",
      [&factory = factory_, loop = io_.get_executor(), limits = limits_,
       peers = peers_](auto socket) {
        if (peers->size() >= limits.max_connections) {
          spdlog::warn("tcp: connection limit ({}) reached, refusing a client",
                       limits.max_connections);
          return;  // the socket closes as it goes out of scope
        }
        auto peer = std::make_shared<TcpPeer>(std::move(socket), loop, limits, peers);
        peers->add(peer);
        peer->start(factory);
      });
  auto bound = listener_->listen(endpoint_);
  if (!bound) return bound.error();
  endpoint_ = *bound;
  return {};
}

void TcpServer::stop() {
  if (listener_) listener_->stop();
  for (const auto& peer : peers_->snapshot())
    peer->shutdown();
}

}  // namespace fcp::transport

#include "transport/line_channel.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "transport_test_support.hpp"

namespace fcp::transport {
namespace {
using testing::FakeFactory;

// A channel whose writes complete only when the test says so; the io_context is polled by the
// test thread, so every step is deterministic.
class ManualChannel final : public LineChannel {
 public:
  ManualChannel(boost::asio::io_context& io, const Limits& limits)
      : LineChannel(boost::asio::make_strand(io), io.get_executor(), limits) {}

  void open_with(FakeFactory& factory) {
    open(factory, {"test", "manual", std::nullopt, std::nullopt});
  }
  void feed(std::string_view bytes) { deliver(bytes); }
  void end() { deliver_eof(); }
  void read_on() { read_on_after_calls(); }
  void complete_write() { on_write_done({}); }
  void fail_write() { on_write_done(boost::asio::error::broken_pipe); }
  bool paused() const { return reading_paused(); }
  std::size_t queued() const { return queued_bytes(); }

  std::vector<std::vector<std::string>> batches;
  int resumes = 0;
  std::vector<std::string> events;
  int write_errors = 0;

 private:
  void write_batch(const std::vector<std::string>& lines) override { batches.push_back(lines); }
  void resume_reading() override {
    ++resumes;
    events.emplace_back("read");
  }
  void on_write_error(const boost::system::error_code&) override { ++write_errors; }
  void on_input_done() override { events.emplace_back("input done"); }
};

class LineChannelTest : public ::testing::Test {
 protected:
  std::shared_ptr<ManualChannel> open(const Limits& limits = {}) {
    auto channel = std::make_shared<ManualChannel>(io, limits);
    channel->open_with(factory);
    return channel;
  }
  // Reading pauses past 100 queued bytes; two 59-byte lines (60 with the newline) go past it.
  static Limits small_output_queue() {
    Limits limits;
    limits.max_queued_bytes = 100;
    return limits;
  }

 public:
  // Runs what is ready; restarts the io_context first, which stops whenever it runs out of work.
  void poll() {
    io.restart();
    io.poll();
  }

  boost::asio::io_context io;
  FakeFactory factory;
};

TEST_F(LineChannelTest, PausesReadingWhileTooMuchOutputIsQueued) {
  auto channel = open(small_output_queue());

  const std::string line(59, 'm');  // each echo is 60 bytes with its newline
  channel->feed(line + "\n" + line + "\n");
  io.poll();
  ASSERT_EQ(channel->batches.size(), 1u);  // one write in flight, the second reply queued
  EXPECT_EQ(channel->batches[0], std::vector<std::string>{line + "\n"});
  EXPECT_EQ(channel->queued(), 120u);
  EXPECT_TRUE(channel->paused());

  channel->complete_write();  // 60 left: still above half the limit
  ASSERT_EQ(channel->batches.size(), 2u);
  EXPECT_TRUE(channel->paused());
  EXPECT_EQ(channel->resumes, 0);

  channel->complete_write();
  EXPECT_FALSE(channel->paused());
  EXPECT_EQ(channel->resumes, 1);
  EXPECT_EQ(channel->queued(), 0u);
}

// Pipelined requests cost the daemon work, not just reply bytes: 100 000 cheap requests in a few
// reads once became 100 000 calls queued at once (1.5 GiB). Only max_calls_in_flight run.
TEST_F(LineChannelTest, RunsAtMostTheCallLimitAndKeepsTheRestUnread) {
  Limits limits;
  limits.max_calls_in_flight = 3;
  auto channel = open(limits);
  channel->feed("hold 1\nhold 2\nhold 3\nhold 4\nhold 5\npartial");
  poll();
  auto connection = factory.connection();
  EXPECT_EQ(connection->messages().size(), 3u);
  EXPECT_TRUE(channel->paused());
  channel->read_on();
  poll();
  EXPECT_EQ(channel->resumes, 0);  // a full connection is not read

  connection->wait_held()->reply("r1");
  poll();
  EXPECT_EQ(connection->messages().size(), 4u);  // the next waiting request, and no more
  EXPECT_TRUE(channel->paused());
  EXPECT_EQ(channel->resumes, 0);

  connection->wait_held()->reply("r2");
  poll();
  ASSERT_EQ(connection->messages().size(), 5u);
  EXPECT_EQ(connection->messages()[4], "hold 5");
  EXPECT_TRUE(channel->paused());  // three running again

  connection->wait_held()->reply("r3");
  poll();
  EXPECT_FALSE(channel->paused());  // all read input framed ("partial" waits for its newline)
  EXPECT_EQ(channel->resumes, 1);
  channel->feed(" line\n");
  poll();
  EXPECT_EQ(connection->messages().back(), "partial line");
}

// 256 connections each allowed its own queue would still be gigabytes: the daemon-wide total
// pauses a connection whose replies wait, until its own have been written.
TEST_F(LineChannelTest, PausesOnTheDaemonWideTotalOfQueuedReplies) {
  Limits limits;
  limits.max_total_queued_bytes = 100;
  auto first = open(limits);
  auto second = open(limits);  // copies of one Limits share the total
  const std::string line(59, 'm');
  first->feed(line + "\n");
  poll();
  EXPECT_FALSE(first->paused());  // 60 bytes in all
  second->feed(line + "\n");
  poll();
  EXPECT_TRUE(second->paused());  // 120 in all, past 100
  EXPECT_EQ(limits.total_queued->bytes.load(), 120u);

  second->complete_write();
  EXPECT_FALSE(second->paused());
  EXPECT_EQ(second->resumes, 1);
  EXPECT_EQ(limits.total_queued->bytes.load(), 60u);
  first.reset();  // a channel that goes away gives its share back
  EXPECT_EQ(limits.total_queued->bytes.load(), 0u);
}

TEST_F(LineChannelTest, EndOfInputWaitsForTheRequestsBeforeIt) {
  Limits limits;
  limits.max_calls_in_flight = 1;
  auto channel = open(limits);
  channel->feed("hold 1\nhold 2\nlast");
  channel->end();
  poll();
  auto connection = factory.connection();
  EXPECT_EQ(connection->messages().size(), 1u);
  EXPECT_TRUE(channel->events.empty());  // not done: two requests still wait

  connection->wait_held()->reply("r1");
  poll();
  EXPECT_EQ(connection->messages().size(), 2u);
  EXPECT_TRUE(channel->events.empty());

  connection->wait_held()->reply("r2");
  poll();
  ASSERT_EQ(connection->messages().size(), 3u);
  EXPECT_EQ(connection->messages()[2], "last");  // the unterminated last line, then the end
  EXPECT_EQ(channel->events, std::vector<std::string>{"input done"});
}

TEST_F(LineChannelTest, CoalescesRepliesQueuedDuringAWrite) {
  auto channel = open();
  channel->feed("a\nb\nc\n");
  io.poll();
  channel->complete_write();
  ASSERT_EQ(channel->batches.size(), 2u);
  EXPECT_EQ(channel->batches[1], (std::vector<std::string>{"b\n", "c\n"}));
}

TEST_F(LineChannelTest, AFailedWriteDropsLaterOutput) {
  auto channel = open();
  channel->feed("a\nb\n");
  io.poll();
  channel->fail_write();
  EXPECT_EQ(channel->write_errors, 1);
  channel->feed("c\n");
  io.poll();
  EXPECT_EQ(channel->batches.size(), 1u);
  EXPECT_EQ(channel->queued(), 0u);
}

TEST_F(LineChannelTest, AReplyFinishedOnTheLoopIsWrittenAtOnce) {
  auto channel = open();
  std::size_t batches_right_after = 0;
  boost::asio::post(io, [&] {
    channel->feed("a\n");  // the fake connection answers inside handle()
    batches_right_after = channel->batches.size();
  });
  io.poll();
  EXPECT_EQ(batches_right_after, 1u);  // no trip through the io_context's queue
}

TEST_F(LineChannelTest, AReplyFinishedOffTheLoopWaitsForIt) {
  auto channel = open();
  channel->feed("a\n");  // this thread is not running the io_context
  EXPECT_TRUE(channel->batches.empty());
  io.poll();
  EXPECT_EQ(channel->batches.size(), 1u);
}

TEST_F(LineChannelTest, ReadsOnAfterTheWorkItsInputQueued) {
  auto channel = open();
  boost::asio::post(io, [&] {
    channel->feed("a\n");
    // What a tools/call does: queue its work on the loop.
    boost::asio::post(io, [&] { channel->events.emplace_back("call"); });
    channel->read_on();
  });
  io.poll();
  EXPECT_EQ(channel->events, (std::vector<std::string>{"call", "read"}));
}

TEST_F(LineChannelTest, DoesNotReadOnWhileOutputIsBackedUp) {
  auto channel = open(small_output_queue());
  const std::string line(59, 'm');
  channel->feed(line + "\n" + line + "\n");
  channel->read_on();
  io.poll();
  EXPECT_TRUE(channel->paused());
  EXPECT_EQ(channel->resumes, 0);
  channel->complete_write();
  channel->complete_write();
  EXPECT_EQ(channel->resumes, 1);  // once, when the queue drained
}

TEST_F(LineChannelTest, AResponderThatOutlivesItsChannelIsHarmless) {
  auto channel = open();
  channel->feed("hold\n");
  io.poll();
  auto responder = factory.connection()->wait_held();
  std::weak_ptr<ManualChannel> weak = channel;
  channel.reset();
  io.poll();
  EXPECT_TRUE(weak.expired());  // a pending Responder does not keep the channel alive
  responder->notify("late note");
  responder->reply("late reply");
  EXPECT_EQ(io.poll(), 0u);  // and posts nothing once it is gone
}

}  // namespace
}  // namespace fcp::transport

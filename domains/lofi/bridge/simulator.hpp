// A Max stand-in speaking the lofi daemon protocol over real UDP, with fault switches.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "domains/lofi/bridge/simulator_model.hpp"

namespace fcp::lofi::bridge {

enum class Fault {
  none,
  silent,     // no reply (and nothing done)
  slow,       // done at once, replied after `delay`
  error,      // every reply is an error (and nothing done)
  garbage,    // a datagram of non-OSC bytes, then the real reply
  duplicate,  // every reply sent twice
  no_id,      // reply as LOFI's daemon does: the JSON as the OSC address, no requestId
};

struct SimulatorOptions {
  std::uint16_t port = 7400;  // 0: any free port (see Simulator::port)
  std::string reply_host = "127.0.0.1";
  std::uint16_t reply_port = 7401;  // 0: reply to whoever sent the request
  Fault fault = Fault::none;
  // How long replies wait: for slow, and (beyond the brief) with any other fault too, e.g.
  // no_id replies that arrive while several requests are pending.
  std::chrono::milliseconds delay{0};
  std::string fail_on;  // address that answers with an error, e.g. "/lofi/wire"
  // Observes the wire: every received message, before it is handled. Runs on an io thread.
  std::function<void(const std::string& address, const std::string& json)> on_message;
  std::string listen_host = "127.0.0.1";
  // Beyond the brief: a random extra delay in [0, jitter] per reply, so replies overtake each
  // other (for correlation tests).
  std::chrono::milliseconds jitter{0};
};

// Keeps a model (SimulatorModel: device, objects by id, wires, mappings) and answers every
// address the project's daemon handles with {"status":"ok","requestId":…} or
// {"status":"error","requestId":…,"message":…}, on address /lofi/reply with one JSON string
// argument (Fault::no_id: the JSON as the address).
// Thread: every method may be called from any thread; the socket and timers live on a strand.
// Lifetime: stop() (also run by the destructor) closes the socket on the io_context's threads;
// replies still delayed by Fault::slow are not sent after that.
class Simulator {
 public:
  static core::Result<std::unique_ptr<Simulator>> start(boost::asio::io_context& io,
                                                        SimulatorOptions options);
  ~Simulator();
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  // The bound port (the real one when options.port was 0).
  std::uint16_t port() const;
  // "address json" per received message, in arrival order (including malformed ones' text).
  std::vector<std::string> log() const;
  void clear_log();
  void set_fault(Fault fault, std::chrono::milliseconds delay = {});
  void set_fail_on(std::string address);
  // A snapshot of what the simulated Max holds.
  SimulatorModel model() const;
  void stop();

  struct Impl;

 private:
  explicit Simulator(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<Impl> impl_;
};

std::string_view to_string(Fault fault);
// "none", "silent", "slow:MS" (sets the delay), "error", "garbage", "duplicate", "no-id".
core::Result<void> parse_fault(std::string_view text, SimulatorOptions& options);
// Arguments of `fcpd simulate-max` (without the subcommand): --port N --reply N --reply-host H
// --listen H --fault F --fail-on ADDRESS --latency-ms MS (sets `delay`: every reply waits MS).
// Errors name the bad argument.
core::Result<SimulatorOptions> parse_simulator_args(const std::vector<std::string>& args);

// Runs a simulator until SIGINT/SIGTERM, logging each message to stderr (spdlog; a stderr logger
// is installed when the default one is still spdlog's stdout logger). argv[0] is the program or
// subcommand name and is skipped. Returns 0, or 2 for bad arguments, 1 when the port is taken.
int run_simulator_command(int argc, char** argv);

}  // namespace fcp::lofi::bridge

// fcpd configuration: JSON file, flags overriding it, and usage errors.
#include "daemon/config.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/worker_process.hpp"
#include "daemon/daemon.hpp"

namespace fcp::daemon {
namespace {

core::Result<Invocation> parse(std::vector<const char*> args) {
  args.insert(args.begin(), "fcpd");
  return parse_invocation(static_cast<int>(args.size()), args.data());
}

TEST(Config, FlagsSelectTransportsAndRoots) {
  auto invocation = parse({"--stdio", "--tcp", "127.0.0.1:7300", "--http", "[::1]:0", "--root",
                           "/tmp", "--root", "/var", "--workers", "8", "--log-level", "debug"});
  ASSERT_TRUE(invocation) << invocation.error().message;
  const auto& config = invocation->config;
  EXPECT_TRUE(config.stdio);
  ASSERT_EQ(config.tcp.size(), 1u);
  EXPECT_EQ(config.tcp[0].host, "127.0.0.1");
  EXPECT_EQ(config.tcp[0].port, 7300);
  EXPECT_EQ(config.http[0].host, "::1");
  EXPECT_EQ(config.roots, (std::vector<std::string>{"/tmp", "/var"}));
  EXPECT_EQ(config.workers, 8u);
  EXPECT_EQ(config.log_level, "debug");
}

TEST(Config, UsageErrors) {
  EXPECT_NE(parse({}).error().message.find("choose at least one transport"), std::string::npos);
  EXPECT_NE(parse({"--tcp", "7300"}).error().message.find("HOST:PORT"), std::string::npos);
  EXPECT_NE(parse({"--tcp", "h:99999"}).error().message.find("bad port"), std::string::npos);
  EXPECT_NE(parse({"--stdio", "--bogus", "x"}).error().message.find("unknown flag"),
            std::string::npos);
  EXPECT_NE(parse({"--stdio", "--workers", "0"}).error().message.find("positive"),
            std::string::npos);
  EXPECT_NE(parse({"--stdio", "--root"}).error().message.find("needs a value"), std::string::npos);
  EXPECT_EQ(parse({"--help"})->mode, Invocation::Mode::help);
  EXPECT_EQ(parse({"conformance", "a.json"})->files, std::vector<std::string>{"a.json"});
}

TEST(Config, JsonFileAndFlagsOverrideIt) {
  Config config;
  ASSERT_TRUE(apply_config_json(R"({"transports":{"tcp":["0.0.0.0:7300"],"stdio":false},
      "roots":["/srv/docs"],"log":{"level":"warn","file":null},"workers":2,
      "limits":{"max_message_bytes":1024},"http":{"allowed_hosts":["fcp.internal"]},
      "lofi":{"port":7400},"_comment":"ignored"})",
                                config));
  EXPECT_EQ(config.tcp[0].host, "0.0.0.0");
  EXPECT_EQ(config.roots, std::vector<std::string>{"/srv/docs"});
  EXPECT_EQ(config.max_message_bytes, 1024u);
  EXPECT_EQ(config.allowed_hosts, std::vector<std::string>{"fcp.internal"});
  EXPECT_NE(apply_config_json(R"({"limits":{"max_mesage_bytes":1}})", config)
                .error()
                .message.find("unknown setting \"limits.max_mesage_bytes\""),
            std::string::npos);
  EXPECT_FALSE(apply_config_json("[1]", config));
  EXPECT_FALSE(apply_config_json(R"({"workers":-1})", config));

  const std::string path = ::testing::TempDir() + "fcpd-test.json";
  std::ofstream(path) << R"({"transports":{"tcp":["127.0.0.1:1"]},"roots":["/a"],"workers":3})";
  auto invocation = parse({"--config", path.c_str(), "--root", "/b"});
  ASSERT_TRUE(invocation) << invocation.error().message;
  EXPECT_EQ(invocation->config.tcp.size(), 1u);
  EXPECT_EQ(invocation->config.roots, std::vector<std::string>{"/b"});
  EXPECT_EQ(invocation->config.workers, 3u);
}

TEST(Config, TheShippedConfigFileIsValid) {
  const char* source = std::getenv("FCP_SOURCE_DIR");
  ASSERT_NE(source, nullptr);
  std::ifstream in(std::string(source) + "/config/fcpd.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Config config;
  auto applied = apply_config_json(text, config);
  EXPECT_TRUE(applied) << applied.error().message;
  Config defaults;
  EXPECT_EQ(config.max_message_bytes, defaults.max_message_bytes);
  EXPECT_EQ(config.workers, defaults.workers);
  EXPECT_EQ(config.busy_poll_us, defaults.busy_poll_us);
  EXPECT_EQ(config.max_created_per_call, defaults.max_created_per_call);
  EXPECT_EQ(config.max_reply_bytes, defaults.max_reply_bytes);
  EXPECT_EQ(config.max_document_bytes, defaults.max_document_bytes);
  // What it says is fcpd's default.
  EXPECT_EQ(config.domain_settings.at("drawio").at("worker_memory_bytes").to_number<std::size_t>(),
            core::kWorkerMemory);
  EXPECT_EQ(config.domain_settings.at("drawio").at("spare_workers").as_string(), "on_first_use");
}

// What one call may cost: the entities it adds and the bytes of its reply.
TEST(Config, CallCostLimits) {
  Config config;
  EXPECT_EQ(config.max_created_per_call, 50'000u);
  EXPECT_EQ(config.max_reply_bytes, 16u << 20);
  ASSERT_TRUE(apply_config_json(R"({"limits":{"max_created_per_call":10,"max_reply_bytes":4096}})",
                                config));
  EXPECT_EQ(config.max_created_per_call, 10u);
  EXPECT_EQ(config.max_reply_bytes, 4096u);
  EXPECT_FALSE(apply_config_json(R"({"limits":{"max_created_per_call":-1}})", config));
  EXPECT_EQ(config.max_document_bytes, std::size_t{8} << 30);
  ASSERT_TRUE(apply_config_json(R"({"limits":{"max_document_bytes":1000000}})", config));
  EXPECT_EQ(config.max_document_bytes, 1'000'000u);
  EXPECT_FALSE(apply_config_json(R"({"limits":{"max_document_bytes":"big"}})", config));
}

// Journals: the state directory (null turns them off), fsync policy, compaction, idle eviction.
TEST(Config, ReplicaSettings) {
  Config config;
  EXPECT_TRUE(config.replica_id.empty());
  ASSERT_TRUE(
      apply_config_json(R"({"replica":{"id":"r1","lease_ms":800,"handoff_ms":0}})", config));
  EXPECT_EQ(config.replica_id, "r1");
  EXPECT_EQ(config.replica_lease_ms, 800u);
  EXPECT_EQ(config.replica_handoff_ms, 0u);
  EXPECT_FALSE(apply_config_json(R"({"replica":{"id":"r 1"}})", config));
  EXPECT_FALSE(apply_config_json(R"({"replica":{"lease_ms":0}})", config));
  ASSERT_TRUE(apply_config_json(R"({"replica":{"id":null}})", config));
  EXPECT_TRUE(config.replica_id.empty());
  auto flags = parse({"--http", "127.0.0.1:0", "--state-dir", "/tmp/s", "--replica-id", "r2"});
  ASSERT_TRUE(flags);
  EXPECT_EQ(flags->config.replica_id, "r2");
  // Documents move between replicas through their journals: no state directory, no replicas.
  flags = parse({"--http", "127.0.0.1:0", "--no-state-dir", "--replica-id", "r2"});
  ASSERT_FALSE(flags);
  EXPECT_NE(flags.error().message.find("needs a state directory"), std::string::npos);
  EXPECT_FALSE(parse({"--http", "127.0.0.1:0", "--replica-id", "r/2"}));
}

TEST(Config, TrustedProxies) {
  Config config;
  EXPECT_TRUE(config.trusted_proxies.empty());
  ASSERT_TRUE(apply_config_json(R"({"http":{"trusted_proxies":["127.0.0.1","10.0.0.0/8","::1"]}})",
                                config));
  EXPECT_EQ(config.trusted_proxies, (std::vector<std::string>{"127.0.0.1", "10.0.0.0/8", "::1"}));
  const auto bad = apply_config_json(R"({"http":{"trusted_proxies":["nginx"]}})", config);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("\"nginx\" is not an IP address or network"),
            std::string::npos)
      << bad.error().message;
  auto flags = parse({"--http", "127.0.0.1:0", "--trusted-proxy", "127.0.0.1"});
  ASSERT_TRUE(flags);
  EXPECT_EQ(flags->config.trusted_proxies, std::vector<std::string>{"127.0.0.1"});
  EXPECT_FALSE(parse({"--http", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/33"}));
}

TEST(Config, JournalSettings) {
  Config config;
  EXPECT_TRUE(config.journals);
  EXPECT_EQ(config.journal_fsync, "batch");
  ASSERT_TRUE(apply_config_json(
      R"({"state_dir":"/var/lib/fcpd","journal":{"fsync":"interval","compact_after":50,)"
      R"("history":10,"fsync_interval_ms":250},"documents":{"idle_evict_seconds":300}})",
      config));
  EXPECT_EQ(config.state_dir, "/var/lib/fcpd");
  EXPECT_EQ(config.journal_fsync, "interval");
  EXPECT_EQ(config.journal_fsync_interval_ms, 250u);
  EXPECT_FALSE(apply_config_json(R"({"journal":{"fsync_interval_ms":0}})", config));
  EXPECT_EQ(config.journal_compact_after, 50u);
  EXPECT_EQ(config.journal_history, 10u);
  EXPECT_EQ(config.idle_evict_seconds, 300u);
  EXPECT_FALSE(apply_config_json(R"({"journal":{"fsync":"sometimes"}})", config));
  ASSERT_TRUE(apply_config_json(R"({"state_dir":null})", config));
  EXPECT_FALSE(config.journals);
  auto flags = parse({"--stdio", "--state-dir", "/tmp/s"});
  ASSERT_TRUE(flags);
  EXPECT_TRUE(flags->config.journals);
  EXPECT_EQ(flags->config.state_dir, "/tmp/s");
  flags = parse({"--stdio", "--no-state-dir"});
  ASSERT_TRUE(flags);
  EXPECT_FALSE(flags->config.journals);
}

TEST(Config, BusyPollingCanBeTunedOrTurnedOff) {
  EXPECT_EQ(parse({"--stdio"})->config.busy_poll_us, 200u);
  EXPECT_EQ(parse({"--stdio", "--busy-poll-us", "0"})->config.busy_poll_us, 0u);
  EXPECT_EQ(parse({"--stdio", "--busy-poll-us", "50"})->config.busy_poll_us, 50u);
  for (const char* bad : {"-1", "x", "", "1000001", "99999999999999999999999"}) {
    auto parsed = parse({"--stdio", "--busy-poll-us", bad});
    ASSERT_FALSE(parsed) << bad;
    EXPECT_NE(parsed.error().message.find("0 (off) to 1000000"), std::string::npos);
  }
  Config config;
  ASSERT_TRUE(apply_config_json(R"({"busy_poll_us":0})", config));
  EXPECT_EQ(config.busy_poll_us, 0u);
  EXPECT_FALSE(apply_config_json(R"({"busy_poll_us":-5})", config));
  EXPECT_FALSE(apply_config_json(R"({"busy_poll_us":2000000})", config));
  EXPECT_FALSE(apply_config_json(R"({"busy_poll_us":"fast"})", config));
}

TEST(Config, AuthenticationAndPerPrincipalLimits) {
  Config config;
  ASSERT_TRUE(apply_config_json(
      R"({"auth":{"token":"0123456789abcdef0123","token_file":"/etc/fcpd/tokens","insecure":true},
          "limits":{"max_documents":3,"max_calls_per_principal":5,
                    "max_journal_bytes_per_principal":1000}})",
      config));
  EXPECT_EQ(config.token, std::optional<std::string>("0123456789abcdef0123"));
  EXPECT_EQ(config.token_file, std::optional<std::string>("/etc/fcpd/tokens"));
  EXPECT_TRUE(config.insecure);
  EXPECT_EQ(config.max_documents, 3u);
  EXPECT_EQ(config.max_calls_per_principal, 5u);
  EXPECT_EQ(config.max_journal_bytes_per_principal, 1000u);
  EXPECT_FALSE(apply_config_json(R"({"auth":{"insecure":"yes"}})", config));
  EXPECT_FALSE(apply_config_json(R"({"auth":{"token":7}})", config));
  auto flags = parse({"--tcp", "0.0.0.0:7300", "--token-file", "t.txt", "--insecure"});
  ASSERT_TRUE(flags) << flags.error().message;
  EXPECT_EQ(flags->config.token_file, std::optional<std::string>("t.txt"));
  EXPECT_TRUE(flags->config.insecure);
}

// fcpd with `args`; the daemon must refuse before it serves (else the test would hang).
int run_daemon(std::vector<const char*> args) {
  args.insert(args.begin(), "fcpd");
  return run(static_cast<int>(args.size()), args.data(),
             std::vector<std::unique_ptr<core::Domain>>{});
}

TEST(Daemon, RefusesANonLoopbackAddressWithoutATokenOrInsecure) {
  ::unsetenv("FCPD_TOKEN");
  ::unsetenv("FCPD_CONFIG");
  EXPECT_EQ(run_daemon({"--tcp", "0.0.0.0:0", "--log-level", "off"}), 2);
  EXPECT_EQ(run_daemon({"--http", "0.0.0.0:0", "--log-level", "off"}), 2);
}

TEST(Daemon, RefusesABadTokenFileOrTokenBeforeServing) {
  ::unsetenv("FCPD_CONFIG");
  const auto file =
      std::filesystem::temp_directory_path() / ("fcpd-tokens-" + std::to_string(::getpid()));
  std::ofstream(file) << "alice:short\n";
  EXPECT_EQ(
      run_daemon({"--tcp", "127.0.0.1:0", "--token-file", file.c_str(), "--log-level", "off"}), 2);
  EXPECT_EQ(run_daemon({"--tcp", "127.0.0.1:0", "--token-file", "/nonexistent/tokens",
                        "--log-level", "off"}),
            2);
  ::setenv("FCPD_TOKEN", "too-short", 1);
  EXPECT_EQ(run_daemon({"--tcp", "127.0.0.1:0", "--log-level", "off"}), 2);
  ::unsetenv("FCPD_TOKEN");
  std::filesystem::remove(file);
}

// Time limits per tool kind, each client's share of the call threads, the Graphviz workers.
TEST(Config, WorkLimits) {
  Config config;
  EXPECT_EQ(config.max_call_seconds, 120u);
  EXPECT_EQ(config.max_query_seconds, 60u);
  EXPECT_EQ(config.max_session_seconds, 120u);
  EXPECT_EQ(config.max_calls_per_client, 0u);  // max(1, workers / 2)
  ASSERT_TRUE(apply_config_json(
      R"({"limits":{"max_query_seconds":5,"max_session_seconds":7,"max_calls_per_client":3},)"
      R"("drawio":{"layout_workers":6}})",
      config));
  EXPECT_EQ(config.max_query_seconds, 5u);
  EXPECT_EQ(config.max_session_seconds, 7u);
  EXPECT_EQ(config.max_calls_per_client, 3u);
  EXPECT_EQ(config.domain_settings.at("drawio").at("layout_workers").to_number<int>(), 6);
  EXPECT_FALSE(apply_config_json(R"({"limits":{"max_query_seconds":0}})", config));
  EXPECT_FALSE(apply_config_json(R"({"drawio":{"layout_workers":-1}})", config));
  EXPECT_FALSE(apply_config_json(R"({"drawio":{"layout_threads":2}})", config));
}

// The workers' memory limit: bytes, 0 for none, nothing a worker could not start with.
TEST(Config, WorkerMemory) {
  Config config;
  EXPECT_FALSE(config.domain_settings.contains("drawio"));  // fcpd's main: core::kWorkerMemory
  ASSERT_TRUE(apply_config_json(R"({"drawio":{"worker_memory_bytes":4294967296}})", config));
  EXPECT_EQ(config.domain_settings.at("drawio").at("worker_memory_bytes").to_number<long long>(),
            4294967296LL);
  ASSERT_TRUE(apply_config_json(R"({"drawio":{"worker_memory_bytes":0}})", config));
  EXPECT_EQ(config.domain_settings.at("drawio").at("worker_memory_bytes").to_number<int>(), 0);
  ASSERT_TRUE(apply_config_json(R"({"drawio":{"worker_memory_bytes":536870912}})", config));
  for (const char* bad :
       {R"({"drawio":{"worker_memory_bytes":-1}})", R"({"drawio":{"worker_memory_bytes":"2G"}})",
        R"({"drawio":{"worker_memory_bytes":1.5e9}})",
        R"({"drawio":{"worker_memory_bytes":null}})"}) {
    auto refused = apply_config_json(bad, config);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().message,
              "config: \"drawio.worker_memory_bytes\" must be a whole number, 0 or more")
        << bad;
  }
  auto tiny = apply_config_json(R"({"drawio":{"worker_memory_bytes":1000}})", config);
  ASSERT_FALSE(tiny);
  EXPECT_EQ(tiny.error().message,
            "config: \"drawio.worker_memory_bytes\" must be 0 (no limit) or at least 536870912 "
            "(512 MiB: with less a worker fails at random as it renders text); the default is "
            "2147483648 (2 GiB)");
  // The last valid value stays.
  EXPECT_EQ(config.domain_settings.at("drawio").at("worker_memory_bytes").to_number<long long>(),
            536870912LL);
}

// When the spare workers start: on first use (the default, nothing in the settings) or at start.
TEST(Config, SpareWorkers) {
  Config config;
  EXPECT_FALSE(config.domain_settings.contains("drawio"));  // fcpd's main: on first use
  ASSERT_TRUE(apply_config_json(R"({"drawio":{"spare_workers":"at_start"}})", config));
  EXPECT_EQ(config.domain_settings.at("drawio").at("spare_workers").as_string(), "at_start");
  ASSERT_TRUE(apply_config_json(R"({"drawio":{"spare_workers":"on_first_use"}})", config));
  EXPECT_EQ(config.domain_settings.at("drawio").at("spare_workers").as_string(), "on_first_use");
  for (const char* bad :
       {R"({"drawio":{"spare_workers":"never"}})", R"({"drawio":{"spare_workers":true}})",
        R"({"drawio":{"spare_workers":1}})"}) {
    auto refused = apply_config_json(bad, config);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().message,
              "config: \"drawio.spare_workers\" must be \"on_first_use\" (the default: a spare "
              "raster and Graphviz worker are started by the first export or layout that needs "
              "one) or \"at_start\" (both wait from start-up, so the first export does not wait "
              "either)")
        << bad;
  }
}

}  // namespace
}  // namespace fcp::daemon

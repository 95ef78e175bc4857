#include "bench/roundtrip/report.hpp"

#include <algorithm>
#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <ostream>

namespace fcp::bench {
namespace {

double percentile_us(const std::vector<std::int64_t>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  const auto rank =
      static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
  const std::size_t index = std::clamp<std::size_t>(rank, 1, sorted.size()) - 1;
  return static_cast<double>(sorted[index]) / 1000.0;
}

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof text, pattern, value);
  return text;
}

std::string row(const std::string& name, std::size_t calls, const Latency& latency,
                double calls_per_second) {
  char text[160];
  std::snprintf(text, sizeof text, "%-14s %9zu %9.1f %9.1f %9.1f %10.1f %11.0f\n", name.c_str(),
                calls, latency.p50_us, latency.p90_us, latency.p99_us, latency.max_us,
                calls_per_second);
  return text;
}

json::object latency_json(const Latency& latency) {
  return json::object{{"p50_us", latency.p50_us},
                      {"p90_us", latency.p90_us},
                      {"p99_us", latency.p99_us},
                      {"max_us", latency.max_us}};
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

void write_pretty(const json::value& value, int indent, std::string& out);

template <typename Range, typename Write>
void write_members(const Range& range, char open, char close, int indent, std::string& out,
                   const Write& write_one) {
  out += open;
  bool first = true;
  for (const auto& member : range) {
    out += first ? "\n" : ",\n";
    out.append(static_cast<std::size_t>(indent) + 2, ' ');
    write_one(member);
    first = false;
  }
  if (!first) {
    out += '\n';
    out.append(static_cast<std::size_t>(indent), ' ');
  }
  out += close;
}

void write_pretty(const json::value& value, int indent, std::string& out) {
  if (value.is_object()) {
    write_members(value.get_object(), '{', '}', indent, out, [&](const auto& member) {
      out += json::serialize(json::string(member.key())) + ": ";
      write_pretty(member.value(), indent + 2, out);
    });
  } else if (value.is_array()) {
    write_members(value.get_array(), '[', ']', indent, out,
                  [&](const json::value& item) { write_pretty(item, indent + 2, out); });
  } else if (value.is_double()) {
    char number[32];
    std::snprintf(number, sizeof number, "%.10g", value.get_double());
    out += number;
  } else {
    out += json::serialize(value);
  }
}

}  // namespace

Latency summarize(std::vector<std::int64_t>& nanoseconds) {
  std::sort(nanoseconds.begin(), nanoseconds.end());
  return Latency{percentile_us(nanoseconds, 0.50), percentile_us(nanoseconds, 0.90),
                 percentile_us(nanoseconds, 0.99), percentile_us(nanoseconds, 1.0)};
}

void print_table(const Report& report, std::ostream& out) {
  out << "fcpd round trips: " << report.daemon << "\n"
      << report.cpus << " CPUs, load average " << report.load_average << " at the start\n"
      << "call: " << report.call << "\n\n";
  if (!report.round_trips.empty()) {
    out << "sequential calls, one client, after " << report.warmup << " warm-up calls\n"
        << "transport          calls   p50 us    p90 us    p99 us     max us     calls/s\n";
    for (const auto& r : report.round_trips) {
      out << row(r.transport, r.calls, r.latency, r.calls_per_second);
    }
    out << "\n";
  }
  if (report.throughput) {
    const auto& t = *report.throughput;
    out << "throughput: " << t.clients << " " << t.transport << " clients back to back for "
        << format("%.1f", t.seconds) << " s\n"
        << "transport          calls   p50 us    p90 us    p99 us     max us     calls/s\n"
        << row(t.transport + " x" + std::to_string(t.clients), t.calls, t.latency,
               t.calls_per_second)
        << "calls per client: fewest " << t.fewest_client_calls << ", most " << t.most_client_calls
        << "\n\n";
  }
  for (const auto& problem : report.problems)
    out << "problem: " << problem << "\n";
}

json::object to_json(const Report& report) {
  json::object round_trips;
  for (const auto& r : report.round_trips) {
    json::object figures = latency_json(r.latency);
    figures["calls"] = r.calls;
    figures["seconds"] = r.seconds;
    figures["calls_per_s"] = r.calls_per_second;
    round_trips[r.transport] = std::move(figures);
  }
  json::object result{{"date", utc_now()},
                      {"daemon", report.daemon},
                      {"cpus", report.cpus},
                      {"load_average", report.load_average},
                      {"call", report.call},
                      {"warmup", report.warmup},
                      {"round_trip", std::move(round_trips)}};
  if (report.throughput) {
    const auto& t = *report.throughput;
    json::object figures = latency_json(t.latency);
    figures["transport"] = t.transport;
    figures["clients"] = t.clients;
    figures["seconds"] = t.seconds;
    figures["calls"] = t.calls;
    figures["calls_per_s"] = t.calls_per_second;
    figures["fewest_client_calls"] = t.fewest_client_calls;
    figures["most_client_calls"] = t.most_client_calls;
    result["throughput"] = std::move(figures);
  }
  result["problems"] = json::array(report.problems.begin(), report.problems.end());
  result["failures"] = json::array(report.failures.begin(), report.failures.end());
  return result;
}

std::string to_json_text(const Report& report) {
  std::string text;
  write_pretty(to_json(report), 0, text);
  return text + "\n";
}

}  // namespace fcp::bench

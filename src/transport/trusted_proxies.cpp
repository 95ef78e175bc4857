#include "transport/trusted_proxies.hpp"

#include <algorithm>
#include <optional>

namespace fcp::transport {
namespace ip = boost::asio::ip;

namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  return text;
}

// An IPv4-mapped IPv6 address ("::ffff:10.0.0.1", as a dual-stack socket reports a v4 peer)
// compares as the IPv4 address.
ip::address plain(const ip::address& address) {
  if (address.is_v6() && address.to_v6().is_v4_mapped())
    return ip::make_address_v4(ip::v4_mapped, address.to_v6());
  return address;
}

// One X-Forwarded-For entry: an address, optionally with a port ("198.51.100.7:4711",
// "[2001:db8::1]:4711"), as some proxies write it.
std::optional<ip::address> forwarded_address(std::string_view entry) {
  entry = trim(entry);
  if (entry.starts_with('[')) {
    const auto close = entry.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    entry = entry.substr(1, close - 1);
  } else if (std::count(entry.begin(), entry.end(), ':') == 1) {
    entry = entry.substr(0, entry.find(':'));
  }
  boost::system::error_code ec;
  const auto address = ip::make_address(std::string(entry), ec);
  if (ec) return std::nullopt;
  return plain(address);
}

}  // namespace

core::Result<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& entries) {
  TrustedProxies proxies;
  for (const auto& entry : entries) {
    boost::system::error_code ec;
    const bool network = entry.find('/') != std::string::npos;
    if (entry.find(':') != std::string::npos) {
      const auto parsed = network ? ip::make_network_v6(entry, ec)
                                  : ip::network_v6(ip::make_address_v6(entry, ec), 128);
      if (!ec) proxies.networks_.emplace_back(parsed.canonical());
    } else {
      const auto parsed = network ? ip::make_network_v4(entry, ec)
                                  : ip::network_v4(ip::make_address_v4(entry, ec), 32);
      if (!ec) proxies.networks_.emplace_back(parsed.canonical());
    }
    if (ec) {
      return core::make_error("config: \"http.trusted_proxies\" entry \"" + entry +
                              "\" is not an IP address or network (e.g. \"127.0.0.1\", "
                              "\"10.0.0.0/8\", \"::1\")");
    }
  }
  return proxies;
}

bool TrustedProxies::trusts(const ip::address& address) const {
  const auto seen = plain(address);
  return std::any_of(networks_.begin(), networks_.end(), [&seen](const auto& network) {
    if (const auto* v4 = std::get_if<ip::network_v4>(&network)) {
      return seen.is_v4() && ip::network_v4(seen.to_v4(), v4->prefix_length()).canonical() == *v4;
    }
    const auto& v6 = std::get<ip::network_v6>(network);
    return seen.is_v6() && ip::network_v6(seen.to_v6(), v6.prefix_length()).canonical() == v6;
  });
}

ip::address TrustedProxies::client_address(
    const ip::address& peer, const std::vector<std::string_view>& forwarded_for) const {
  auto client = plain(peer);
  if (!trusts(client)) return client;
  // Right to left: each hop was added by the one after it; trust ends at the first address that
  // is not a trusted proxy, and everything left of it may be whatever the client wrote.
  for (auto field = forwarded_for.rbegin(); field != forwarded_for.rend(); ++field) {
    std::string_view list = *field;
    while (!list.empty()) {
      const auto comma = list.rfind(',');
      const auto entry = comma == std::string_view::npos ? list : list.substr(comma + 1);
      list = comma == std::string_view::npos ? std::string_view() : list.substr(0, comma);
      if (trim(entry).empty()) continue;
      const auto address = forwarded_address(entry);
      if (!address) return client;
      client = *address;
      if (!trusts(client)) return client;
    }
  }
  return client;
}

}  // namespace fcp::transport

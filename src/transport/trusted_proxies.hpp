// Which HTTP peers are reverse proxies whose X-Forwarded-For header is believed (config
// `http.trusted_proxies`), and the client address a request counts as: behind a trusted proxy,
// the right-most address in X-Forwarded-For that is not itself a trusted proxy; from any other
// peer, the peer itself (its header is ignored, so a client cannot pose as another one).
#pragma once

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/network_v4.hpp>
#include <boost/asio/ip/network_v6.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"

namespace fcp::transport {

// Thread: immutable after parse().
class TrustedProxies {
 public:
  // Entries are addresses ("127.0.0.1", "::1") or networks ("10.0.0.0/8", "fd00::/8"). The error
  // names the entry and the form expected.
  static core::Result<TrustedProxies> parse(const std::vector<std::string>& entries);

  bool empty() const { return networks_.empty(); }
  bool trusts(const boost::asio::ip::address& address) const;
  // The address the request from `peer` counts as. `forwarded_for`: the X-Forwarded-For values
  // in order (several header fields are one list). An entry that is not an address ends the walk
  // at the trusted hop before it.
  boost::asio::ip::address client_address(const boost::asio::ip::address& peer,
                                          const std::vector<std::string_view>& forwarded_for) const;

 private:
  std::vector<std::variant<boost::asio::ip::network_v4, boost::asio::ip::network_v6>> networks_;
};

}  // namespace fcp::transport

// The lofi domain: Max for Live devices through lofi, lofi_query, lofi_session and lofi_help,
// mirrored live into Max over the OSC bridge.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/json/object.hpp>
#include <memory>

#include "core/domain.hpp"

namespace fcp::lofi {

// `settings` is the "lofi" section of the config file: host, port, reply_port, timeout_ms,
// connect_on_new (default true), probe_ms (how long `new` waits for Max, default 300).
std::unique_ptr<core::Domain> make_lofi_domain(boost::asio::io_context& io,
                                               const boost::json::object& settings);

}  // namespace fcp::lofi

// The cisco pack: Cisco 2019 network icons, draw.io library mxgraph.cisco19. Devices are
// shape=mxgraph.cisco19.rect;prIcon=<device> (a light tile with a teal glyph); end points and
// clouds are glyph shapes (shape=mxgraph.cisco19.<glyph>). Sizes are draw.io's palette sizes.
//
// Names verified against jgraph/drawio src/main/webapp/js/diagramly/sidebar/Sidebar-Cisco19.js
// (commit 1812e82). draw.io has no Internet glyph: cisco-internet is the second cloud (cloud2),
// the usual way to draw the Internet in network diagrams. The reference's rect_router,
// rack_server, access_point, ... are not shapes of that library.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

#define FCP_CISCO_BASE                                                                        \
  "sketch=0;verticalLabelPosition=bottom;html=1;verticalAlign=top;aspect=fixed;align=center;" \
  "pointerEvents=1;"
#define FCP_CISCO_DEVICE(device)                             \
  FCP_CISCO_BASE "shape=mxgraph.cisco19.rect;prIcon=" device \
                 ";fillColor=#FAFAFA;strokeColor=#005073;"
#define FCP_CISCO_GLYPH(glyph, fill) \
  FCP_CISCO_BASE "shape=mxgraph.cisco19." glyph ";fillColor=" fill ";strokeColor=none;"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 28> entries{{
    // Network Devices
    {"router", "Router", "Network Devices", FCP_CISCO_DEVICE("router"), 50, 50},
    {"switch", "Switch", "Network Devices", FCP_CISCO_DEVICE("l2_switch"), 50, 50},
    {"firewall", "Firewall", "Network Devices", FCP_CISCO_DEVICE("firewall"), 64, 50},
    {"access-point", "Access Point", "Network Devices",
     FCP_CISCO_GLYPH("wireless_access_point", "#005073"), 50, 50},
    {"cisco-server", "Server", "Network Devices", FCP_CISCO_GLYPH("server", "#005073"), 28, 50},
    {"l3-switch", "L3 Switch", "Network Devices", FCP_CISCO_DEVICE("l3_switch"), 50, 50},
    {"cisco-load-balancer", "Load Balancer", "Network Devices", FCP_CISCO_DEVICE("load_balancer"),
     64, 50},
    // Wireless
    {"wireless-router", "Wireless Router", "Wireless", FCP_CISCO_DEVICE("wireless_router"), 50, 60},
    {"wlan-controller", "WLAN Controller", "Wireless", FCP_CISCO_DEVICE("wireless_lan_controller"),
     64, 50},
    {"mesh-access-point", "Mesh Access Point", "Wireless", FCP_CISCO_DEVICE("mesh_access_point"),
     64, 50},
    // Security
    {"cisco-vpn", "VPN Concentrator", "Security", FCP_CISCO_DEVICE("vpn_concentrator"), 64, 50},
    {"cisco-ips", "IPS/IDS", "Security", FCP_CISCO_DEVICE("ips_ids"), 64, 50},
    {"cisco-asa", "ASA 5500", "Security", FCP_CISCO_DEVICE("asa_5500"), 64, 50},
    {"cisco-ise", "ISE", "Security", FCP_CISCO_DEVICE("ise"), 50, 50},
    {"cisco-waf", "Web Application Firewall", "Security",
     FCP_CISCO_DEVICE("web_application_firewall"), 64, 50},
    // Infrastructure
    {"cisco-cloud", "Cloud", "Infrastructure", FCP_CISCO_GLYPH("cloud", "#186180"), 50, 30},
    {"cisco-internet", "Internet", "Infrastructure", FCP_CISCO_GLYPH("cloud2", "#FFE9AA"), 50, 30},
    {"cisco-storage", "Storage", "Infrastructure", FCP_CISCO_DEVICE("storage"), 64, 50},
    {"cisco-workstation", "Workstation", "Infrastructure",
     FCP_CISCO_GLYPH("workstation", "#005073"), 50, 40},
    {"cisco-phone", "IP Phone", "Infrastructure", FCP_CISCO_GLYPH("ip_phone", "#005073"), 58, 50},
    {"cisco-laptop", "Laptop", "Infrastructure", FCP_CISCO_GLYPH("laptop", "#005073"), 50, 35},
    {"cisco-user", "User", "Infrastructure", FCP_CISCO_GLYPH("user", "#005073"), 50, 50},
    {"cisco-dns-server", "DNS Server", "Infrastructure", FCP_CISCO_GLYPH("dns_server", "#005073"),
     28, 50},
    // Data Center
    {"cisco-data-center", "Data Center", "Data Center", FCP_CISCO_GLYPH("data_center", "#005073"),
     100, 70},
    {"cisco-branch", "Branch", "Data Center", FCP_CISCO_GLYPH("branch", "#005073"), 50, 50},
    {"cisco-nexus", "Nexus 9300", "Data Center", FCP_CISCO_DEVICE("nexus_9300"), 50, 50},
    {"cisco-ucs", "UCS C-Series Server", "Data Center", FCP_CISCO_DEVICE("ucs_c_series_server"), 60,
     25},
    {"cisco-hypervisor", "Hypervisor", "Data Center", FCP_CISCO_DEVICE("hypervisor"), 50, 65},
}};

}  // namespace

std::span<const StencilEntry> cisco_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_CISCO_GLYPH
#undef FCP_CISCO_DEVICE
#undef FCP_CISCO_BASE

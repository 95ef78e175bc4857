// The ibm pack: IBM Cloud icons, draw.io library mxgraph.ibm_cloud
// (shape=mxgraph.ibm_cloud.<icon>), each drawn in its IBM category colour at draw.io's 48 px node
// size.
//
// Icon names and category colours verified against jgraph/drawio
// src/main/webapp/js/diagramly/sidebar/Sidebar-IBMCloud.js (commit 4231dfb). The older IBM
// palette (Sidebar-IBM.js) draws services as images, not stencils, and the reference's
// mxgraph.ibm.virtual_server_classic, ... are not draw.io shapes. IBM Cloud Functions and Code
// Engine have no icon there, so those reference ids are not offered.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

#define FCP_IBM(fill, icon)                                                                 \
  "sketch=0;aspect=fixed;html=1;dashed=0;outlineConnect=0;strokeColor=none;fillColor=" fill \
  ";verticalLabelPosition=bottom;verticalAlign=top;align=center;shape=mxgraph.ibm_cloud." icon ";"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 35> entries{{
    // Compute
    {"ibm-vm", "Virtual Server", "Compute", FCP_IBM("#198038", "ibm-cloud--virtual-server-vpc"), 48,
     48},
    {"ibm-bare-metal", "Bare Metal Server", "Compute",
     FCP_IBM("#198038", "ibm-cloud--bare-metal-servers-vpc"), 48, 48},
    {"ibm-power-vs", "Power Virtual Server", "Compute", FCP_IBM("#198038", "ibm--power-vs"), 48,
     48},
    {"ibm-vm-classic", "Classic Virtual Server", "Compute",
     FCP_IBM("#198038", "ibm-cloud--virtual-server-classic"), 48, 48},
    {"ibm-dedicated-host", "Dedicated Host", "Compute",
     FCP_IBM("#198038", "ibm-cloud--dedicated-host"), 48, 48},
    {"ibm-satellite", "Satellite", "Compute", FCP_IBM("#198038", "cloud-satellite"), 48, 48},
    // Containers
    {"ibm-k8s", "Kubernetes Service", "Containers",
     FCP_IBM("#198038", "ibm-cloud--kubernetes-service"), 48, 48},
    {"ibm-openshift", "Red Hat OpenShift", "Containers", FCP_IBM("#198038", "logo--openshift"), 48,
     48},
    {"ibm-registry", "Container Registry", "Containers", FCP_IBM("#198038", "cloud-registry"), 48,
     48},
    // Networking
    {"ibm-vpc", "VPC", "Networking", FCP_IBM("#1192E8", "ibm-cloud--vpc"), 48, 48},
    {"ibm-lb", "Load Balancer", "Networking", FCP_IBM("#1192E8", "load-balancer--vpc"), 48, 48},
    {"ibm-dns", "DNS Services", "Networking", FCP_IBM("#1192E8", "dns-services"), 48, 48},
    {"ibm-transit-gateway", "Transit Gateway", "Networking",
     FCP_IBM("#1192E8", "ibm-cloud--transit-gateway"), 48, 48},
    {"ibm-direct-link", "Direct Link", "Networking",
     FCP_IBM("#1192E8", "ibm-cloud--direct-link-2--connect"), 48, 48},
    {"ibm-internet-services", "Internet Services", "Networking",
     FCP_IBM("#1192E8", "ibm-cloud--internet-services"), 48, 48},
    {"ibm-public-gateway", "Public Gateway", "Networking", FCP_IBM("#1192E8", "gateway--public"),
     48, 48},
    {"ibm-floating-ip", "Floating IP", "Networking", FCP_IBM("#1192E8", "floating-ip"), 48, 48},
    // Storage
    {"ibm-cos", "Object Storage", "Storage", FCP_IBM("#0F62FE", "object-storage"), 48, 48},
    {"ibm-block", "Block Storage", "Storage", FCP_IBM("#0F62FE", "block-storage"), 48, 48},
    // Database
    {"ibm-db2", "Db2", "Database", FCP_IBM("#0F62FE", "ibm--db2"), 48, 48},
    {"ibm-cloudant", "Cloudant", "Database", FCP_IBM("#0F62FE", "ibm--cloudant"), 48, 48},
    {"ibm-postgresql", "Databases for PostgreSQL", "Database",
     FCP_IBM("#0F62FE", "database--postgresql"), 48, 48},
    {"ibm-mongodb", "Databases for MongoDB", "Database", FCP_IBM("#0F62FE", "database--mongodb"),
     48, 48},
    {"ibm-redis", "Databases for Redis", "Database", FCP_IBM("#0F62FE", "database--redis"), 48, 48},
    // Integration
    {"ibm-event-streams", "Event Streams", "Integration",
     FCP_IBM("#EE5396", "ibm-cloud--event-streams"), 48, 48},
    {"ibm-mq", "MQ", "Integration", FCP_IBM("#EE5396", "ibm--mq"), 48, 48},
    // Security
    {"ibm-key-protect", "Key Protect", "Security", FCP_IBM("#FA4D56", "ibm-cloud--key-protect"), 48,
     48},
    {"ibm-secrets-manager", "Secrets Manager", "Security",
     FCP_IBM("#FA4D56", "ibm-cloud--secrets-manager"), 48, 48},
    {"ibm-app-id", "App ID", "Security", FCP_IBM("#FA4D56", "ibm-cloud--app-id"), 48, 48},
    {"ibm-vpn", "VPN Gateway", "Security", FCP_IBM("#FA4D56", "ibm--vpn-for-vpc"), 48, 48},
    // AI
    {"ibm-watson", "Watson Machine Learning", "AI",
     FCP_IBM("#A56EFF", "ibm-watson--machine-learning"), 48, 48},
    {"ibm-watsonx", "watsonx", "AI", FCP_IBM("#A56EFF", "watsonx"), 48, 48},
    {"ibm-watsonx-ai", "watsonx.ai", "AI", FCP_IBM("#A56EFF", "watsonx-ai"), 48, 48},
    // Observability
    {"ibm-logs", "Cloud Logs", "Observability", FCP_IBM("#009D9A", "ibm-cloud--logging"), 48, 48},
    {"ibm-monitoring", "Monitoring", "Observability", FCP_IBM("#009D9A", "cloud--monitoring"), 48,
     48},
}};

}  // namespace

std::span<const StencilEntry> ibm_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_IBM

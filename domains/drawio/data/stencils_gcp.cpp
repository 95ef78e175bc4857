// The gcp pack: Google Cloud product icons, draw.io library mxgraph.gcp2 in its hexagon-icon form
// (shape=mxgraph.gcp2.hexIcon;prIcon=<product>), 66x58 like draw.io's "GCP Icons" palettes.
//
// Product names (prIcon values) verified against jgraph/drawio
// src/main/webapp/js/diagramly/sidebar/Sidebar-GCP2.js (commit fb67f1f, addGCP2Icons*Palette).
// draw.io has no Vertex AI icon; vertex-ai uses cloud_machine_learning, which draw.io labels
// "AI Platform" (Vertex AI's predecessor). The reference's google_kubernetes_engine, filestore,
// cloud_firestore as a shape and vertexai do not exist as mxgraph.gcp2 shapes.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

#define FCP_GCP(product)                                                                       \
  "sketch=0;html=1;fillColor=#5184F3;strokeColor=none;verticalAlign=top;labelPosition=center;" \
  "verticalLabelPosition=bottom;align=center;spacingTop=-6;fontSize=11;fontStyle=1;"           \
  "fontColor=#999999;shape=mxgraph.gcp2.hexIcon;prIcon=" product ";"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 49> entries{{
    // Compute
    {"cloud-run", "Cloud Run", "Compute", FCP_GCP("cloud_run"), 66, 58},
    {"cloud-functions", "Cloud Functions", "Compute", FCP_GCP("cloud_functions"), 66, 58},
    {"compute-engine", "Compute Engine", "Compute", FCP_GCP("compute_engine"), 66, 58},
    {"app-engine", "App Engine", "Compute", FCP_GCP("app_engine"), 66, 58},
    {"gke", "GKE", "Compute", FCP_GCP("container_engine"), 66, 58},
    {"gpu", "Cloud GPU", "Compute", FCP_GCP("gpu"), 66, 58},
    // Storage
    {"cloud-storage", "Cloud Storage", "Storage", FCP_GCP("cloud_storage"), 66, 58},
    {"persistent-disk", "Persistent Disk", "Storage", FCP_GCP("persistent_disk"), 66, 58},
    {"filestore", "Filestore", "Storage", FCP_GCP("cloud_filestore"), 66, 58},
    // Database
    {"cloud-sql", "Cloud SQL", "Database", FCP_GCP("cloud_sql"), 66, 58},
    {"cloud-spanner", "Cloud Spanner", "Database", FCP_GCP("cloud_spanner"), 66, 58},
    {"bigtable", "Bigtable", "Database", FCP_GCP("cloud_bigtable"), 66, 58},
    {"firestore", "Firestore", "Database", FCP_GCP("cloud_firestore"), 66, 58},
    {"memorystore", "Memorystore", "Database", FCP_GCP("cloud_memorystore"), 66, 58},
    {"datastore", "Datastore", "Database", FCP_GCP("cloud_datastore"), 66, 58},
    // Networking
    {"cloud-load-balancing", "Cloud Load Balancing", "Networking", FCP_GCP("cloud_load_balancing"),
     66, 58},
    {"cloud-cdn", "Cloud CDN", "Networking", FCP_GCP("cloud_cdn"), 66, 58},
    {"cloud-dns", "Cloud DNS", "Networking", FCP_GCP("cloud_dns"), 66, 58},
    {"gcp-vpc", "VPC", "Networking", FCP_GCP("virtual_private_cloud"), 66, 58},
    {"cloud-nat", "Cloud NAT", "Networking", FCP_GCP("cloud_nat"), 66, 58},
    {"cloud-armor", "Cloud Armor", "Networking", FCP_GCP("cloud_armor"), 66, 58},
    {"cloud-vpn", "Cloud VPN", "Networking", FCP_GCP("cloud_vpn"), 66, 58},
    {"cloud-router", "Cloud Router", "Networking", FCP_GCP("cloud_router"), 66, 58},
    {"cloud-interconnect", "Dedicated Interconnect", "Networking",
     FCP_GCP("dedicated_interconnect"), 66, 58},
    // Integration
    {"pubsub", "Pub/Sub", "Integration", FCP_GCP("cloud_pubsub"), 66, 58},
    {"cloud-tasks", "Cloud Tasks", "Integration", FCP_GCP("cloud_tasks"), 66, 58},
    {"cloud-endpoints", "Cloud Endpoints", "Integration", FCP_GCP("cloud_endpoints"), 66, 58},
    {"apigee", "Apigee", "Integration", FCP_GCP("apigee_api_platform"), 66, 58},
    // Analytics
    {"bigquery", "BigQuery", "Analytics", FCP_GCP("bigquery"), 66, 58},
    {"dataflow", "Dataflow", "Analytics", FCP_GCP("cloud_dataflow"), 66, 58},
    {"dataproc", "Dataproc", "Analytics", FCP_GCP("cloud_dataproc"), 66, 58},
    {"composer", "Cloud Composer", "Analytics", FCP_GCP("cloud_composer"), 66, 58},
    {"data-fusion", "Data Fusion", "Analytics", FCP_GCP("cloud_data_fusion"), 66, 58},
    {"data-catalog", "Data Catalog", "Analytics", FCP_GCP("cloud_data_catalog"), 66, 58},
    // AI
    {"vertex-ai", "Vertex AI", "AI", FCP_GCP("cloud_machine_learning"), 66, 58},
    {"automl", "AutoML", "AI", FCP_GCP("cloud_automl"), 66, 58},
    {"cloud-tpu", "Cloud TPU", "AI", FCP_GCP("cloud_tpu"), 66, 58},
    {"vision-api", "Vision API", "AI", FCP_GCP("cloud_vision_api"), 66, 58},
    {"natural-language-api", "Natural Language API", "AI", FCP_GCP("cloud_natural_language_api"),
     66, 58},
    {"speech-to-text", "Speech-to-Text", "AI", FCP_GCP("cloud_speech_api"), 66, 58},
    {"translation-api", "Translation API", "AI", FCP_GCP("cloud_translation_api"), 66, 58},
    // Security
    {"cloud-iam", "Cloud IAM", "Security", FCP_GCP("cloud_iam"), 66, 58},
    {"cloud-kms", "Key Management Service", "Security", FCP_GCP("key_management_service"), 66, 58},
    {"security-command-center", "Security Command Center", "Security",
     FCP_GCP("cloud_security_command_center"), 66, 58},
    // Management
    {"cloud-logging", "Cloud Logging", "Management", FCP_GCP("logging"), 66, 58},
    {"cloud-trace", "Cloud Trace", "Management", FCP_GCP("trace"), 66, 58},
    {"error-reporting", "Error Reporting", "Management", FCP_GCP("error_reporting"), 66, 58},
    // DevOps
    {"cloud-build", "Cloud Build", "DevOps", FCP_GCP("container_builder"), 66, 58},
    {"gcr", "Container Registry", "DevOps", FCP_GCP("container_registry"), 66, 58},
}};

}  // namespace

std::span<const StencilEntry> gcp_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_GCP

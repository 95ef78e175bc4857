// The azure pack: Microsoft Azure services from two draw.io stencil libraries, both drawn in
// Azure blue: mxgraph.azure (the Azure set) and mxgraph.mscae.cloud (draw.io's "CAE / Cloud" set,
// which has the newer services: Functions, Cosmos DB, Key Vault, Event Grid, ...). draw.io's own
// CAE / Cloud palette mixes the two the same way. Sizes are draw.io's palette sizes.
//
// Stencil names verified against jgraph/drawio
// src/main/webapp/js/diagramly/sidebar/Sidebar-Azure.js (commit 661800e,
// shape=mxgraph.azure.<name>) and Sidebar-MSCAE.js (commit 0e91b84, addMSCAECloudPalette,
// shape=mxgraph.mscae.cloud.<name>). Most of the reference's mxgraph.azure names (function_apps,
// kubernetes_services, cosmos_db, key_vaults, ...) do not exist in draw.io. There is no icon for
// Container Instances or Front Door in either library, so those reference ids are not offered;
// Service Fabric and Traffic Manager fill their categories.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

#define FCP_AZURE(shape)                                                                       \
  "sketch=0;shadow=0;dashed=0;html=1;strokeColor=none;fillColor=#0079D6;labelPosition=center;" \
  "verticalLabelPosition=bottom;verticalAlign=top;align=center;outlineConnect=0;aspect=fixed;" \
  "shape=" shape ";"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 47> entries{{
    // Compute
    {"azure-vm", "Virtual Machine", "Compute", FCP_AZURE("mxgraph.azure.virtual_machine"), 50, 40},
    {"azure-functions", "Functions", "Compute", FCP_AZURE("mxgraph.mscae.cloud.functions"), 50, 46},
    {"azure-app-service", "App Service", "Compute", FCP_AZURE("mxgraph.mscae.cloud.app_service"),
     50, 50},
    {"azure-logic-apps", "Logic Apps", "Compute", FCP_AZURE("mxgraph.mscae.cloud.logic_apps"), 50,
     39},
    {"azure-vmss", "VM Scale Set", "Compute", FCP_AZURE("mxgraph.mscae.cloud.vm_scale_set"), 50,
     50},
    {"azure-batch", "Batch", "Compute", FCP_AZURE("mxgraph.mscae.cloud.batch"), 49, 46},
    {"azure-cloud-service", "Cloud Service", "Compute", FCP_AZURE("mxgraph.azure.cloud_service"),
     50, 40},
    // Containers
    {"azure-aks", "Kubernetes Service (AKS)", "Containers",
     FCP_AZURE("mxgraph.mscae.cloud.container_service"), 50, 36},
    {"azure-acr", "Container Registry", "Containers",
     FCP_AZURE("mxgraph.mscae.cloud.container_registry"), 50, 43},
    {"azure-service-fabric", "Service Fabric", "Containers",
     FCP_AZURE("mxgraph.mscae.cloud.service_fabric"), 50, 50},
    // Networking
    {"azure-vnet", "Virtual Network", "Networking", FCP_AZURE("mxgraph.azure.virtual_network"), 50,
     27},
    {"azure-lb", "Load Balancer", "Networking", FCP_AZURE("mxgraph.azure.azure_load_balancer"), 50,
     35},
    {"azure-appgw", "Application Gateway", "Networking",
     FCP_AZURE("mxgraph.mscae.cloud.application_gateway"), 50, 50},
    {"azure-dns", "DNS", "Networking", FCP_AZURE("mxgraph.mscae.cloud.azure_dns"), 50, 50},
    {"azure-cdn", "CDN", "Networking", FCP_AZURE("mxgraph.azure.content_delivery_network"), 50, 32},
    {"azure-traffic-manager", "Traffic Manager", "Networking",
     FCP_AZURE("mxgraph.azure.traffic_manager"), 50, 50},
    {"azure-expressroute", "ExpressRoute", "Networking", FCP_AZURE("mxgraph.azure.express_route"),
     50, 30},
    {"azure-vpn-gateway", "VPN Gateway", "Networking", FCP_AZURE("mxgraph.mscae.cloud.vpn_gateway"),
     32, 50},
    {"azure-nsg", "Network Security Group", "Networking", FCP_AZURE("mxgraph.mscae.cloud.nsg"), 36,
     50},
    // Storage
    {"azure-storage", "Storage Account", "Storage", FCP_AZURE("mxgraph.azure.storage"), 50, 40},
    {"azure-blob", "Blob Storage", "Storage", FCP_AZURE("mxgraph.azure.storage_blob"), 50, 45},
    {"azure-files", "Files", "Storage", FCP_AZURE("mxgraph.mscae.cloud.storage_files"), 50, 43},
    {"azure-queue-storage", "Queue Storage", "Storage", FCP_AZURE("mxgraph.azure.storage_queue"),
     50, 45},
    {"azure-table-storage", "Table Storage", "Storage", FCP_AZURE("mxgraph.azure.storage_table"),
     50, 45},
    // Database
    {"azure-sql", "SQL Database", "Database", FCP_AZURE("mxgraph.azure.sql_database"), 37, 50},
    {"azure-cosmos", "Cosmos DB", "Database", FCP_AZURE("mxgraph.mscae.cloud.cosmos_db"), 50, 50},
    {"azure-redis", "Cache for Redis", "Database", FCP_AZURE("mxgraph.azure.azure_cache"), 45, 50},
    {"azure-mysql", "MySQL Database", "Database", FCP_AZURE("mxgraph.azure.mysql_database"), 37,
     50},
    {"azure-sql-dw", "SQL Data Warehouse", "Database",
     FCP_AZURE("mxgraph.mscae.cloud.sql_datawarehouse"), 50, 49},
    // Integration
    {"azure-service-bus", "Service Bus", "Integration", FCP_AZURE("mxgraph.azure.service_bus"), 45,
     50},
    {"azure-event-hub", "Event Hubs", "Integration", FCP_AZURE("mxgraph.mscae.cloud.event_hubs"),
     49, 50},
    {"azure-event-grid", "Event Grid", "Integration", FCP_AZURE("mxgraph.mscae.cloud.event_grid"),
     50, 50},
    {"azure-api-mgmt", "API Management", "Integration",
     FCP_AZURE("mxgraph.mscae.cloud.api_management"), 50, 45},
    {"azure-notification-hub", "Notification Hub", "Integration",
     FCP_AZURE("mxgraph.azure.notification_hub"), 50, 50},
    // Security
    {"azure-ad", "Entra ID (Active Directory)", "Security",
     FCP_AZURE("mxgraph.azure.azure_active_directory"), 47, 50},
    {"azure-keyvault", "Key Vault", "Security", FCP_AZURE("mxgraph.mscae.cloud.key_vault"), 49, 50},
    {"azure-security-center", "Defender for Cloud", "Security",
     FCP_AZURE("mxgraph.mscae.cloud.security_center"), 37, 50},
    {"azure-mfa", "Multi-Factor Authentication", "Security",
     FCP_AZURE("mxgraph.azure.multi_factor_authentication"), 25, 50},
    // AI
    {"azure-openai", "Azure OpenAI (AI Services)", "AI",
     FCP_AZURE("mxgraph.mscae.cloud.cognitive_services"), 50, 30},
    {"azure-ml", "Machine Learning", "AI", FCP_AZURE("mxgraph.mscae.cloud.machine_learning2"), 47,
     50},
    {"azure-bot", "Bot Service", "AI", FCP_AZURE("mxgraph.mscae.cloud.bot_services"), 48, 48},
    // Analytics
    {"azure-databricks", "Databricks", "Analytics", FCP_AZURE("mxgraph.mscae.cloud.data_bricks"),
     49, 50},
    {"azure-data-factory", "Data Factory", "Analytics",
     FCP_AZURE("mxgraph.mscae.cloud.data_factory"), 50, 50},
    {"azure-stream-analytics", "Stream Analytics", "Analytics",
     FCP_AZURE("mxgraph.mscae.cloud.stream_analytics"), 50, 39},
    {"azure-hdinsight", "HDInsight", "Analytics", FCP_AZURE("mxgraph.azure.hdinsight"), 50, 50},
    // Management
    {"azure-monitor", "Monitor", "Management", FCP_AZURE("mxgraph.mscae.cloud.monitor"), 50, 50},
    {"azure-app-insights", "Application Insights", "Management",
     FCP_AZURE("mxgraph.mscae.cloud.application_insights"), 32, 50},
}};

}  // namespace

std::span<const StencilEntry> azure_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_AZURE

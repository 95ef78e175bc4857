// The aws pack: AWS architecture icons 2021+ (draw.io library mxgraph.aws4), resource-icon form.
//
// Stencil names (resIcon values) and category colours verified against draw.io's own palette,
// jgraph/drawio src/main/webapp/js/diagramly/sidebar/Sidebar-AWS4.js (commit 0031495), where each
// appears as resourceIcon;resIcon=mxgraph.aws4.<name> in the palette of its category. The
// reference's s3 (shape=mxgraph.aws4.s3) and iam (resIcon ...iam) do not exist there; s3 uses
// resIcon s3 and iam identity_and_access_management.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

// Category colours of draw.io's AWS palettes (fillColor of the resource-icon square).
#define FCP_AWS_COMPUTE "#ED7100"
#define FCP_AWS_STORAGE "#7AA116"
#define FCP_AWS_DATABASE "#C925D1"
#define FCP_AWS_NETWORKING "#8C4FFF"
#define FCP_AWS_SECURITY "#DD344C"
#define FCP_AWS_INTEGRATION "#E7157B"
#define FCP_AWS_ANALYTICS "#8C4FFF"
#define FCP_AWS_ML "#01A88D"
#define FCP_AWS_MANAGEMENT "#E7157B"
// String-literal concatenation keeps every style a compile-time constant.
#define FCP_AWS(fill, icon)                                                                    \
  "sketch=0;outlineConnect=0;fontColor=#232F3E;gradientColor=none;fillColor=" fill             \
  ";strokeColor=#ffffff;dashed=0;verticalLabelPosition=bottom;verticalAlign=top;align=center;" \
  "html=1;fontSize=12;fontStyle=0;aspect=fixed;shape=mxgraph.aws4.resourceIcon;"               \
  "resIcon=mxgraph.aws4." icon ";"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 94> entries{{
    // Compute
    {"lambda", "Lambda", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "lambda"), 60, 60},
    {"ec2", "EC2", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "ec2"), 60, 60},
    {"ecs", "ECS", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "ecs"), 60, 60},
    {"eks", "EKS", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "eks"), 60, 60},
    {"fargate", "Fargate", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "fargate"), 60, 60},
    {"batch", "Batch", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "batch"), 60, 60},
    {"lightsail", "Lightsail", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "lightsail"), 60, 60},
    {"elastic-beanstalk", "Elastic Beanstalk", "Compute",
     FCP_AWS(FCP_AWS_COMPUTE, "elastic_beanstalk"), 60, 60},
    {"app-runner", "App Runner", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "app_runner"), 60, 60},
    {"ecr", "ECR", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "ecr"), 60, 60},
    {"outposts", "Outposts", "Compute", FCP_AWS(FCP_AWS_COMPUTE, "outposts"), 60, 60},
    // Storage
    {"s3", "S3", "Storage", FCP_AWS(FCP_AWS_STORAGE, "s3"), 60, 60},
    {"ebs", "EBS", "Storage", FCP_AWS(FCP_AWS_STORAGE, "elastic_block_store"), 60, 60},
    {"efs", "EFS", "Storage", FCP_AWS(FCP_AWS_STORAGE, "elastic_file_system"), 60, 60},
    {"glacier", "S3 Glacier", "Storage", FCP_AWS(FCP_AWS_STORAGE, "glacier"), 60, 60},
    {"fsx", "FSx", "Storage", FCP_AWS(FCP_AWS_STORAGE, "fsx"), 60, 60},
    {"backup", "Backup", "Storage", FCP_AWS(FCP_AWS_STORAGE, "backup"), 60, 60},
    {"storage-gateway", "Storage Gateway", "Storage", FCP_AWS(FCP_AWS_STORAGE, "storage_gateway"),
     60, 60},
    {"snowball", "Snowball", "Storage", FCP_AWS(FCP_AWS_STORAGE, "snowball"), 60, 60},
    // Database
    {"dynamodb", "DynamoDB", "Database", FCP_AWS(FCP_AWS_DATABASE, "dynamodb"), 60, 60},
    {"rds", "RDS", "Database", FCP_AWS(FCP_AWS_DATABASE, "rds"), 60, 60},
    {"aurora", "Aurora", "Database", FCP_AWS(FCP_AWS_DATABASE, "aurora"), 60, 60},
    {"elasticache", "ElastiCache", "Database", FCP_AWS(FCP_AWS_DATABASE, "elasticache"), 60, 60},
    {"redshift", "Redshift", "Database", FCP_AWS(FCP_AWS_DATABASE, "redshift"), 60, 60},
    {"neptune", "Neptune", "Database", FCP_AWS(FCP_AWS_DATABASE, "neptune"), 60, 60},
    {"documentdb", "DocumentDB", "Database",
     FCP_AWS(FCP_AWS_DATABASE, "documentdb_with_mongodb_compatibility"), 60, 60},
    {"timestream", "Timestream", "Database", FCP_AWS(FCP_AWS_DATABASE, "timestream"), 60, 60},
    {"memorydb", "MemoryDB for Redis", "Database", FCP_AWS(FCP_AWS_DATABASE, "memorydb_for_redis"),
     60, 60},
    {"keyspaces", "Keyspaces", "Database", FCP_AWS(FCP_AWS_DATABASE, "keyspaces"), 60, 60},
    {"dms", "Database Migration Service", "Database",
     FCP_AWS(FCP_AWS_DATABASE, "database_migration_service"), 60, 60},
    // Networking
    {"vpc", "VPC", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "vpc"), 60, 60},
    {"cloudfront", "CloudFront", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "cloudfront"), 60, 60},
    {"route53", "Route 53", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "route_53"), 60, 60},
    {"elb", "ELB", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "elastic_load_balancing"), 60, 60},
    {"api-gateway", "API Gateway", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "api_gateway"), 60,
     60},
    {"transit-gateway", "Transit Gateway", "Networking",
     FCP_AWS(FCP_AWS_NETWORKING, "transit_gateway"), 60, 60},
    {"direct-connect", "Direct Connect", "Networking",
     FCP_AWS(FCP_AWS_NETWORKING, "direct_connect"), 60, 60},
    {"global-accelerator", "Global Accelerator", "Networking",
     FCP_AWS(FCP_AWS_NETWORKING, "global_accelerator"), 60, 60},
    {"privatelink", "PrivateLink", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "vpc_privatelink"), 60,
     60},
    {"app-mesh", "App Mesh", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "app_mesh"), 60, 60},
    {"cloud-map", "Cloud Map", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "cloud_map"), 60, 60},
    {"client-vpn", "Client VPN", "Networking", FCP_AWS(FCP_AWS_NETWORKING, "client_vpn"), 60, 60},
    {"site-to-site-vpn", "Site-to-Site VPN", "Networking",
     FCP_AWS(FCP_AWS_NETWORKING, "site_to_site_vpn"), 60, 60},
    // Security
    {"iam", "IAM", "Security", FCP_AWS(FCP_AWS_SECURITY, "identity_and_access_management"), 60, 60},
    {"cognito", "Cognito", "Security", FCP_AWS(FCP_AWS_SECURITY, "cognito"), 60, 60},
    {"kms", "KMS", "Security", FCP_AWS(FCP_AWS_SECURITY, "key_management_service"), 60, 60},
    {"secrets-manager", "Secrets Manager", "Security", FCP_AWS(FCP_AWS_SECURITY, "secrets_manager"),
     60, 60},
    {"waf", "WAF", "Security", FCP_AWS(FCP_AWS_SECURITY, "waf"), 60, 60},
    {"shield", "Shield", "Security", FCP_AWS(FCP_AWS_SECURITY, "shield"), 60, 60},
    {"guardduty", "GuardDuty", "Security", FCP_AWS(FCP_AWS_SECURITY, "guardduty"), 60, 60},
    {"inspector", "Inspector", "Security", FCP_AWS(FCP_AWS_SECURITY, "inspector"), 60, 60},
    {"certificate-manager", "Certificate Manager", "Security",
     FCP_AWS(FCP_AWS_SECURITY, "certificate_manager_3"), 60, 60},
    {"security-hub", "Security Hub", "Security", FCP_AWS(FCP_AWS_SECURITY, "security_hub"), 60, 60},
    {"cloudhsm", "CloudHSM", "Security", FCP_AWS(FCP_AWS_SECURITY, "cloudhsm"), 60, 60},
    {"network-firewall", "Network Firewall", "Security",
     FCP_AWS(FCP_AWS_SECURITY, "network_firewall"), 60, 60},
    {"sso", "IAM Identity Center (SSO)", "Security", FCP_AWS(FCP_AWS_SECURITY, "single_sign_on"),
     60, 60},
    // Integration
    {"sqs", "SQS", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "sqs"), 60, 60},
    {"sns", "SNS", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "sns"), 60, 60},
    {"eventbridge", "EventBridge", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "eventbridge"), 60,
     60},
    {"step-functions", "Step Functions", "Integration",
     FCP_AWS(FCP_AWS_INTEGRATION, "step_functions"), 60, 60},
    {"amazon-mq", "Amazon MQ", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "mq"), 60, 60},
    {"appsync", "AppSync", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "appsync"), 60, 60},
    {"appflow", "AppFlow", "Integration", FCP_AWS(FCP_AWS_INTEGRATION, "appflow"), 60, 60},
    {"mwaa", "Managed Workflows for Apache Airflow", "Integration",
     FCP_AWS(FCP_AWS_INTEGRATION, "managed_workflows_for_apache_airflow"), 60, 60},
    // Analytics
    {"kinesis", "Kinesis", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "kinesis"), 60, 60},
    {"athena", "Athena", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "athena"), 60, 60},
    {"emr", "EMR", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "emr"), 60, 60},
    {"glue", "Glue", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "glue"), 60, 60},
    {"quicksight", "QuickSight", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "quicksight"), 60, 60},
    {"msk", "Managed Streaming for Kafka", "Analytics",
     FCP_AWS(FCP_AWS_ANALYTICS, "managed_streaming_for_kafka"), 60, 60},
    {"opensearch", "OpenSearch Service", "Analytics",
     FCP_AWS(FCP_AWS_ANALYTICS, "elasticsearch_service"), 60, 60},
    {"lake-formation", "Lake Formation", "Analytics", FCP_AWS(FCP_AWS_ANALYTICS, "lake_formation"),
     60, 60},
    {"data-firehose", "Data Firehose", "Analytics",
     FCP_AWS(FCP_AWS_ANALYTICS, "kinesis_data_firehose"), 60, 60},
    {"kinesis-data-streams", "Kinesis Data Streams", "Analytics",
     FCP_AWS(FCP_AWS_ANALYTICS, "kinesis_data_streams"), 60, 60},
    // ML
    {"sagemaker", "SageMaker", "ML", FCP_AWS(FCP_AWS_ML, "sagemaker"), 60, 60},
    {"bedrock", "Bedrock", "ML", FCP_AWS(FCP_AWS_ML, "bedrock"), 60, 60},
    {"comprehend", "Comprehend", "ML", FCP_AWS(FCP_AWS_ML, "comprehend"), 60, 60},
    {"rekognition", "Rekognition", "ML", FCP_AWS(FCP_AWS_ML, "rekognition_2"), 60, 60},
    {"textract", "Textract", "ML", FCP_AWS(FCP_AWS_ML, "textract"), 60, 60},
    {"lex", "Lex", "ML", FCP_AWS(FCP_AWS_ML, "lex"), 60, 60},
    {"polly", "Polly", "ML", FCP_AWS(FCP_AWS_ML, "polly"), 60, 60},
    {"transcribe", "Transcribe", "ML", FCP_AWS(FCP_AWS_ML, "transcribe"), 60, 60},
    {"translate", "Translate", "ML", FCP_AWS(FCP_AWS_ML, "translate"), 60, 60},
    {"kendra", "Kendra", "ML", FCP_AWS(FCP_AWS_ML, "kendra"), 60, 60},
    // Management
    {"cloudwatch", "CloudWatch", "Management", FCP_AWS(FCP_AWS_MANAGEMENT, "cloudwatch_2"), 60, 60},
    {"cloudformation", "CloudFormation", "Management",
     FCP_AWS(FCP_AWS_MANAGEMENT, "cloudformation"), 60, 60},
    {"cloudtrail", "CloudTrail", "Management", FCP_AWS(FCP_AWS_MANAGEMENT, "cloudtrail"), 60, 60},
    {"systems-manager", "Systems Manager", "Management",
     FCP_AWS(FCP_AWS_MANAGEMENT, "systems_manager"), 60, 60},
    {"aws-config", "Config", "Management", FCP_AWS(FCP_AWS_MANAGEMENT, "config"), 60, 60},
    {"organizations", "Organizations", "Management", FCP_AWS(FCP_AWS_MANAGEMENT, "organizations"),
     60, 60},
    {"control-tower", "Control Tower", "Management", FCP_AWS(FCP_AWS_MANAGEMENT, "control_tower"),
     60, 60},
    {"trusted-advisor", "Trusted Advisor", "Management",
     FCP_AWS(FCP_AWS_MANAGEMENT, "trusted_advisor"), 60, 60},
    {"managed-grafana", "Managed Grafana", "Management",
     FCP_AWS(FCP_AWS_MANAGEMENT, "managed_service_for_grafana"), 60, 60},
    {"managed-prometheus", "Managed Prometheus", "Management",
     FCP_AWS(FCP_AWS_MANAGEMENT, "managed_service_for_prometheus"), 60, 60},
}};

}  // namespace

std::span<const StencilEntry> aws_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_AWS
#undef FCP_AWS_COMPUTE
#undef FCP_AWS_STORAGE
#undef FCP_AWS_DATABASE
#undef FCP_AWS_NETWORKING
#undef FCP_AWS_SECURITY
#undef FCP_AWS_INTEGRATION
#undef FCP_AWS_ANALYTICS
#undef FCP_AWS_ML
#undef FCP_AWS_MANAGEMENT

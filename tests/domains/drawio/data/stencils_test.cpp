#include "domains/drawio/data/stencils.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "domains/drawio/data/node_types.hpp"

namespace fcp::drawio::data {
namespace {

const StencilPack& pack(std::string_view id) {
  const StencilPack* found = find_stencil_pack(id);
  if (found == nullptr) throw std::runtime_error("no pack " + std::string(id));
  return *found;
}

std::map<std::string, int> category_counts(const StencilPack& p) {
  std::map<std::string, int> counts;
  for (const StencilEntry& e : p.entries)
    ++counts[std::string(e.category)];
  return counts;
}

TEST(StencilPacksTest, SixPacksInOrderWithReferenceNames) {
  std::vector<std::string> rows;
  for (const StencilPack& p : stencil_packs()) {
    rows.push_back(std::string(p.id) + "|" + std::string(p.name) + "|" + std::string(p.prefix));
  }
  EXPECT_THAT(rows,
              testing::ElementsAre(
                  "aws|Amazon Web Services|mxgraph.aws4", "azure|Microsoft Azure|mxgraph.azure",
                  "gcp|Google Cloud Platform|mxgraph.gcp2", "k8s|Kubernetes|mxgraph.kubernetes",
                  "cisco|Cisco Networking|mxgraph.cisco19", "ibm|IBM Cloud|mxgraph.ibm"));
}

TEST(StencilPacksTest, AtLeastTheReferenceEntryCounts) {
  EXPECT_GE(pack("aws").entries.size(), 35U);
  EXPECT_GE(pack("azure").entries.size(), 25U);
  EXPECT_GE(pack("gcp").entries.size(), 20U);
  EXPECT_GE(pack("k8s").entries.size(), 17U);
  EXPECT_GE(pack("cisco").entries.size(), 15U);
  EXPECT_GE(pack("ibm").entries.size(), 15U);
  std::size_t total = 0;
  for (const StencilPack& p : stencil_packs())
    total += p.entries.size();
  EXPECT_GE(total, 127U);
}

TEST(StencilPacksTest, AtLeastTheReferenceCountPerCategory) {
  using testing::Contains;
  using testing::Ge;
  using testing::Pair;
  const auto aws = category_counts(pack("aws"));
  for (const auto& [category, count] : std::map<std::string, int>{{"Compute", 7},
                                                                  {"Storage", 4},
                                                                  {"Database", 6},
                                                                  {"Networking", 5},
                                                                  {"Security", 3},
                                                                  {"Integration", 4},
                                                                  {"Analytics", 2},
                                                                  {"ML", 2},
                                                                  {"Management", 2}}) {
    EXPECT_THAT(aws, Contains(Pair(category, Ge(count)))) << "aws " << category;
  }
  const auto azure = category_counts(pack("azure"));
  for (const auto& [category, count] : std::map<std::string, int>{{"Compute", 4},
                                                                  {"Containers", 3},
                                                                  {"Networking", 6},
                                                                  {"Storage", 2},
                                                                  {"Database", 3},
                                                                  {"Integration", 4},
                                                                  {"Security", 2},
                                                                  {"AI", 1}}) {
    EXPECT_THAT(azure, Contains(Pair(category, Ge(count)))) << "azure " << category;
  }
  const auto gcp = category_counts(pack("gcp"));
  for (const auto& [category, count] : std::map<std::string, int>{{"Compute", 5},
                                                                  {"Storage", 3},
                                                                  {"Database", 5},
                                                                  {"Networking", 3},
                                                                  {"Integration", 1},
                                                                  {"Analytics", 2},
                                                                  {"AI", 1}}) {
    EXPECT_THAT(gcp, Contains(Pair(category, Ge(count)))) << "gcp " << category;
  }
  const auto k8s = category_counts(pack("k8s"));
  for (const auto& [category, count] : std::map<std::string, int>{
           {"Workloads", 7}, {"Networking", 4}, {"Config", 2}, {"Storage", 2}, {"Cluster", 2}}) {
    EXPECT_THAT(k8s, Contains(Pair(category, Ge(count)))) << "k8s " << category;
  }
  const auto cisco = category_counts(pack("cisco"));
  for (const auto& [category, count] : std::map<std::string, int>{
           {"Network Devices", 5}, {"Wireless", 2}, {"Security", 3}, {"Infrastructure", 5}}) {
    EXPECT_THAT(cisco, Contains(Pair(category, Ge(count)))) << "cisco " << category;
  }
  const auto ibm = category_counts(pack("ibm"));
  for (const auto& [category, count] : std::map<std::string, int>{{"Compute", 4},
                                                                  {"Containers", 3},
                                                                  {"Networking", 3},
                                                                  {"Storage", 2},
                                                                  {"Database", 2},
                                                                  {"AI", 1}}) {
    EXPECT_THAT(ibm, Contains(Pair(category, Ge(count)))) << "ibm " << category;
  }
}

TEST(StencilPacksTest, ReferenceIdsAreOffered) {
  // Every id reference inventory §1.6 names, plus the rest of its aws/gcp/k8s/cisco ids.
  const std::map<std::string_view, std::vector<std::string_view>> ids{
      {"aws",
       {"lambda",
        "ec2",
        "ecs",
        "eks",
        "fargate",
        "batch",
        "lightsail",
        "s3",
        "ebs",
        "efs",
        "glacier",
        "dynamodb",
        "rds",
        "aurora",
        "elasticache",
        "redshift",
        "neptune",
        "vpc",
        "cloudfront",
        "route53",
        "elb",
        "api-gateway",
        "iam",
        "cognito",
        "kms",
        "sqs",
        "sns",
        "eventbridge",
        "step-functions",
        "kinesis",
        "athena",
        "sagemaker",
        "bedrock",
        "cloudwatch",
        "cloudformation"}},
      {"azure", {"azure-vm", "azure-functions", "azure-aks", "azure-cosmos", "azure-openai"}},
      {"gcp",
       {"cloud-run",
        "cloud-functions",
        "compute-engine",
        "app-engine",
        "gke",
        "cloud-storage",
        "persistent-disk",
        "filestore",
        "cloud-sql",
        "cloud-spanner",
        "bigtable",
        "firestore",
        "memorystore",
        "cloud-load-balancing",
        "cloud-cdn",
        "cloud-dns",
        "pubsub",
        "bigquery",
        "dataflow",
        "vertex-ai"}},
      {"k8s",
       {"pod", "deployment", "statefulset", "daemonset", "job", "cronjob", "replicaset",
        "k8s-service", "ingress", "endpoint", "netpol", "configmap", "secret", "pv", "pvc", "node",
        "namespace"}},
      {"cisco",
       {"router", "switch", "firewall", "access-point", "cisco-server", "wireless-router",
        "wlan-controller", "cisco-vpn", "cisco-ips", "cisco-asa", "cisco-cloud", "cisco-internet",
        "cisco-storage", "cisco-workstation", "cisco-phone"}},
  };
  for (const auto& [pack_id, pack_ids] : ids) {
    for (const std::string_view id : pack_ids) {
      EXPECT_NE(find_stencil(pack(pack_id), id), nullptr) << pack_id << " " << id;
    }
  }
}

TEST(StencilPacksTest, IdsAreUniqueAcrossPacksAndNeverABuiltInType) {
  std::set<std::string_view> seen;
  for (const StencilPack& p : stencil_packs()) {
    for (const StencilEntry& e : p.entries) {
      EXPECT_TRUE(seen.insert(e.id).second) << "duplicate id " << e.id;
      EXPECT_EQ(find_node_type(e.id), nullptr) << e.id << " would be shadowed by a built-in type";
    }
  }
}

TEST(StencilPacksTest, AzureAndIbmIdsArePrefixed) {
  for (const StencilEntry& e : pack("azure").entries) {
    EXPECT_TRUE(e.id.starts_with("azure-")) << e.id;
  }
  for (const StencilEntry& e : pack("ibm").entries)
    EXPECT_TRUE(e.id.starts_with("ibm-")) << e.id;
}

// Every key=value token of a style, in order; bare tokens map to "".
std::vector<std::pair<std::string, std::string>> tokens(std::string_view style) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!style.empty()) {
    const std::size_t end = style.find(';');
    const std::string_view token = style.substr(0, end);
    const std::size_t eq = token.find('=');
    out.emplace_back(std::string(token.substr(0, eq)),
                     eq == std::string_view::npos ? "" : std::string(token.substr(eq + 1)));
    if (end == std::string_view::npos) break;
    style.remove_prefix(end + 1);
  }
  return out;
}

TEST(StencilPacksTest, EveryStyleNamesAStencilOfItsPack) {
  for (const StencilPack& p : stencil_packs()) {
    for (const StencilEntry& e : p.entries) {
      SCOPED_TRACE(std::string(p.id) + " " + std::string(e.id));
      const std::string style(e.style);
      EXPECT_THAT(style, testing::HasSubstr("shape="));
      EXPECT_TRUE(style.ends_with(";"));
      EXPECT_EQ(style.find(' '), std::string::npos);
      EXPECT_EQ(stencil_pack_for_style(e.style), &p);
      bool in_library = false;
      for (const std::string_view library : stencil_libraries(p)) {
        in_library =
            in_library || style.find("=" + std::string(library) + ".") != std::string::npos;
      }
      EXPECT_TRUE(in_library);
      if (p.id != "azure") {
        EXPECT_THAT(style, testing::HasSubstr(std::string(p.prefix)));
      }
      std::set<std::string> keys;
      for (const auto& [key, value] : tokens(e.style)) {
        EXPECT_FALSE(key.empty());
        EXPECT_FALSE(value.empty()) << key;
        EXPECT_TRUE(keys.insert(key).second) << "repeated key " << key;
      }
      EXPECT_FALSE(e.label.empty());
      EXPECT_FALSE(e.category.empty());
      EXPECT_GT(e.width, 0);
      EXPECT_GT(e.height, 0);
    }
  }
}

TEST(StencilPacksTest, AwsStylesAreResourceIconsInTheBriefsForm) {
  const StencilEntry* lambda = find_stencil(pack("aws"), "lambda");
  ASSERT_NE(lambda, nullptr);
  EXPECT_EQ(lambda->style,
            "sketch=0;outlineConnect=0;fontColor=#232F3E;gradientColor=none;fillColor=#ED7100;"
            "strokeColor=#ffffff;dashed=0;verticalLabelPosition=bottom;verticalAlign=top;"
            "align=center;html=1;fontSize=12;fontStyle=0;aspect=fixed;"
            "shape=mxgraph.aws4.resourceIcon;resIcon=mxgraph.aws4.lambda;");
  EXPECT_EQ(lambda->width, 60);
  EXPECT_EQ(lambda->height, 60);
  for (const StencilEntry& e : pack("aws").entries) {
    EXPECT_THAT(std::string(e.style),
                testing::HasSubstr("shape=mxgraph.aws4.resourceIcon;resIcon=mxgraph.aws4."))
        << e.id;
  }
}

struct StencilNameCase {
  std::string_view id, fragment;
};

// NOLINTNEXTLINE(readability-identifier-naming): GoogleTest looks this name up.
void PrintTo(const StencilNameCase& c, std::ostream* os) {
  *os << c.id;
}

class StencilNameTest : public testing::TestWithParam<StencilNameCase> {};

// The real draw.io names, where the reference used names draw.io does not have.
TEST_P(StencilNameTest, UsesTheDrawioName) {
  const StencilMatch match = find_stencil_anywhere(GetParam().id);
  ASSERT_NE(match.entry, nullptr) << GetParam().id;
  EXPECT_THAT(std::string(match.entry->style),
              testing::HasSubstr(std::string(GetParam().fragment)));
}

INSTANTIATE_TEST_SUITE_P(
    Drawio, StencilNameTest,
    testing::Values(StencilNameCase{"s3", "resIcon=mxgraph.aws4.s3;"},
                    StencilNameCase{"iam", "resIcon=mxgraph.aws4.identity_and_access_management;"},
                    StencilNameCase{"cloudwatch", "resIcon=mxgraph.aws4.cloudwatch_2;"},
                    StencilNameCase{"ebs", "resIcon=mxgraph.aws4.elastic_block_store;"},
                    StencilNameCase{"azure-vm", "shape=mxgraph.azure.virtual_machine;"},
                    StencilNameCase{"azure-functions", "shape=mxgraph.mscae.cloud.functions;"},
                    StencilNameCase{"azure-cosmos", "shape=mxgraph.mscae.cloud.cosmos_db;"},
                    StencilNameCase{"gke", "shape=mxgraph.gcp2.hexIcon;prIcon=container_engine;"},
                    StencilNameCase{"cloud-run", "shape=mxgraph.gcp2.hexIcon;prIcon=cloud_run;"},
                    StencilNameCase{"statefulset", "shape=mxgraph.kubernetes.icon;prIcon=sts;"},
                    StencilNameCase{"k8s-service", "shape=mxgraph.kubernetes.icon;prIcon=svc;"},
                    StencilNameCase{"router", "shape=mxgraph.cisco19.rect;prIcon=router;"},
                    StencilNameCase{"cisco-server", "shape=mxgraph.cisco19.server;"},
                    StencilNameCase{"ibm-vm",
                                    "shape=mxgraph.ibm_cloud.ibm-cloud--virtual-server-vpc;"}),
    [](const testing::TestParamInfo<StencilNameCase>& param) {
      std::string name(param.param.id);
      for (char& c : name) {
        if (c == '-') c = '_';
      }
      return name;
    });

TEST(StencilLookupTest, PacksByIdIgnoringCase) {
  ASSERT_NE(find_stencil_pack("AWS"), nullptr);
  EXPECT_EQ(find_stencil_pack("AWS")->id, "aws");
  EXPECT_EQ(find_stencil_pack("K8s")->id, "k8s");
  EXPECT_EQ(find_stencil_pack("foo"), nullptr);
  EXPECT_EQ(find_stencil_pack(""), nullptr);
}

TEST(StencilLookupTest, EntriesByIdWithinTheirPackOnly) {
  EXPECT_EQ(find_stencil(pack("aws"), "lambda")->label, "Lambda");
  EXPECT_EQ(find_stencil(pack("aws"), "azure-vm"), nullptr);
  EXPECT_EQ(find_stencil(pack("aws"), "Lambda"), nullptr);  // ids are case-sensitive
  EXPECT_EQ(find_stencil(pack("aws"), "nosuch"), nullptr);
  const StencilMatch vm = find_stencil_anywhere("azure-vm");
  ASSERT_NE(vm.pack, nullptr);
  EXPECT_EQ(vm.pack->id, "azure");
  EXPECT_EQ(vm.entry->category, "Compute");
  EXPECT_EQ(find_stencil_anywhere("nosuch").entry, nullptr);
}

TEST(StencilLookupTest, EveryEntryIsFoundByIdAndByItsStyle) {
  for (const StencilPack& p : stencil_packs()) {
    for (const StencilEntry& e : p.entries) {
      EXPECT_EQ(find_stencil(p, e.id), &e) << e.id;
      const StencilMatch match = stencil_for_style(e.style);
      EXPECT_EQ(match.entry, &e) << e.id << " shares its stencil with "
                                 << (match.entry ? match.entry->id : "nothing");
      EXPECT_EQ(match.pack, &p) << e.id;
    }
  }
}

TEST(StencilLookupTest, StyleMatchingIgnoresColoursAndOrder) {
  EXPECT_EQ(stencil_for_style("resIcon=mxgraph.aws4.lambda;fillColor=#000000;"
                              "shape=mxgraph.aws4.resourceIcon")
                .entry->id,
            "lambda");
  EXPECT_EQ(stencil_for_style("shape=mxgraph.kubernetes.icon2;prIcon=pod;").entry->id, "pod");
  EXPECT_EQ(
      stencil_for_style("fillColor=#FFFFFF;shape=mxgraph.ibm_cloud.object-storage;").entry->id,
      "ibm-cos");
  EXPECT_EQ(stencil_for_style("shape=mxgraph.cisco19.rect;prIcon=firewall;").entry->id, "firewall");
  EXPECT_EQ(stencil_for_style("rounded=1;whiteSpace=wrap;html=1;").entry, nullptr);
  EXPECT_EQ(stencil_for_style("shape=mxgraph.aws4.resourceIcon;resIcon=mxgraph.aws4.nosuch;").entry,
            nullptr);
  EXPECT_EQ(stencil_for_style("").entry, nullptr);
}

TEST(StencilLookupTest, PackOfAStyleByLibrary) {
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.mscae.cloud.functions;")->id, "azure");
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.azure.user;")->id, "azure");
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.aws4.group;grIcon=mxgraph.aws4.group_vpc2;")->id,
            "aws");
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.ibm.box;prType=vpc;")->id, "ibm");
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.basic.person;"), nullptr);
  EXPECT_EQ(stencil_pack_for_style("shape=mxgraph.aws3.lambda;"), nullptr);
  EXPECT_EQ(stencil_pack_for_style("ellipse;whiteSpace=wrap;"), nullptr);
}

}  // namespace
}  // namespace fcp::drawio::data

// The k8s pack: Kubernetes resource icons, draw.io library mxgraph.kubernetes
// (shape=mxgraph.kubernetes.icon;prIcon=<resource>), 50x48 with the connection points draw.io uses.
//
// prIcon names verified against jgraph/drawio src/main/webapp/js/diagramly/sidebar/
// Sidebar-Kubernetes.js (commits a084978 and c56eddf, addKubernetesPalette). The reference's
// stateful_set is sts there; its other names were shape names, which draw.io does not have.
#include <array>

#include "domains/drawio/data/stencil_tables.hpp"

#define FCP_K8S(resource)                                                                    \
  "sketch=0;aspect=fixed;html=1;dashed=0;fillColor=#2875E2;strokeColor=#ffffff;"             \
  "verticalLabelPosition=bottom;verticalAlign=top;align=center;points=[[0.005,0.63,0],"      \
  "[0.1,0.2,0],[0.9,0.2,0],[0.5,0,0],[0.995,0.63,0],[0.72,0.99,0],[0.5,1,0],[0.28,0.99,0]];" \
  "shape=mxgraph.kubernetes.icon;prIcon=" resource ";"

namespace fcp::drawio::data::detail {
namespace {

constexpr std::array<StencilEntry, 39> entries{{
    // Workloads
    {"pod", "Pod", "Workloads", FCP_K8S("pod"), 50, 48},
    {"deployment", "Deployment", "Workloads", FCP_K8S("deploy"), 50, 48},
    {"statefulset", "StatefulSet", "Workloads", FCP_K8S("sts"), 50, 48},
    {"daemonset", "DaemonSet", "Workloads", FCP_K8S("ds"), 50, 48},
    {"job", "Job", "Workloads", FCP_K8S("job"), 50, 48},
    {"cronjob", "CronJob", "Workloads", FCP_K8S("cronjob"), 50, 48},
    {"replicaset", "ReplicaSet", "Workloads", FCP_K8S("rs"), 50, 48},
    {"hpa", "HorizontalPodAutoscaler", "Workloads", FCP_K8S("hpa"), 50, 48},
    // Networking
    {"k8s-service", "Service", "Networking", FCP_K8S("svc"), 50, 48},
    {"ingress", "Ingress", "Networking", FCP_K8S("ing"), 50, 48},
    {"endpoint", "Endpoint", "Networking", FCP_K8S("ep"), 50, 48},
    {"netpol", "NetworkPolicy", "Networking", FCP_K8S("netpol"), 50, 48},
    // Config
    {"configmap", "ConfigMap", "Config", FCP_K8S("cm"), 50, 48},
    {"secret", "Secret", "Config", FCP_K8S("secret"), 50, 48},
    {"resourcequota", "ResourceQuota", "Config", FCP_K8S("quota"), 50, 48},
    {"limitrange", "LimitRange", "Config", FCP_K8S("limits"), 50, 48},
    // Storage
    {"pv", "PersistentVolume", "Storage", FCP_K8S("pv"), 50, 48},
    {"pvc", "PersistentVolumeClaim", "Storage", FCP_K8S("pvc"), 50, 48},
    {"storageclass", "StorageClass", "Storage", FCP_K8S("sc"), 50, 48},
    {"volume", "Volume", "Storage", FCP_K8S("vol"), 50, 48},
    // Cluster
    {"node", "Node", "Cluster", FCP_K8S("node"), 50, 48},
    {"namespace", "Namespace", "Cluster", FCP_K8S("ns"), 50, 48},
    {"control-plane", "Control Plane", "Cluster", FCP_K8S("master"), 50, 48},
    {"api-server", "API Server", "Cluster", FCP_K8S("api"), 50, 48},
    {"etcd", "etcd", "Cluster", FCP_K8S("etcd"), 50, 48},
    {"kubelet", "Kubelet", "Cluster", FCP_K8S("kubelet"), 50, 48},
    {"kube-proxy", "Kube Proxy", "Cluster", FCP_K8S("k_proxy"), 50, 48},
    {"kube-scheduler", "Scheduler", "Cluster", FCP_K8S("sched"), 50, 48},
    {"controller-manager", "Controller Manager", "Cluster", FCP_K8S("c_m"), 50, 48},
    {"cloud-controller-manager", "Cloud Controller Manager", "Cluster", FCP_K8S("c_c_m"), 50, 48},
    // Access
    {"serviceaccount", "ServiceAccount", "Access", FCP_K8S("sa"), 50, 48},
    {"role", "Role", "Access", FCP_K8S("role"), 50, 48},
    {"rolebinding", "RoleBinding", "Access", FCP_K8S("rb"), 50, 48},
    {"clusterrole", "ClusterRole", "Access", FCP_K8S("c_role"), 50, 48},
    {"clusterrolebinding", "ClusterRoleBinding", "Access", FCP_K8S("crb"), 50, 48},
    {"k8s-user", "User", "Access", FCP_K8S("user"), 50, 48},
    {"k8s-group", "Group", "Access", FCP_K8S("group"), 50, 48},
    {"crd", "CustomResourceDefinition", "Access", FCP_K8S("crd"), 50, 48},
    {"psp", "PodSecurityPolicy", "Access", FCP_K8S("psp"), 50, 48},
}};

}  // namespace

std::span<const StencilEntry> k8s_stencils() {
  return entries;
}

}  // namespace fcp::drawio::data::detail

#undef FCP_K8S

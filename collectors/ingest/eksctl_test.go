package ingest

import (
	"strings"
	"testing"
)

// TestEksctlClusterConfig: an eksctl ClusterConfig names the cluster (metadata.name) and its
// node group's overrideBootstrapCommand is the node's bootstrap, so a bootstrap.sh call with
// another cluster name is comparable with the cluster the config creates.
func TestEksctlClusterConfig(t *testing.T) {
	cfg := `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: prod-eu
  region: eu-west-1
managedNodeGroups:
  - name: plain
    instanceType: m5.large
  - name: custom
    ami: ami-0123456789abcdef0
    overrideBootstrapCommand: |
      #!/bin/bash
      /etc/eks/bootstrap.sh managed-cluster
  - name: custom2
    ami: ami-0123456789abcdef0
    overrideBootstrapCommand: |
      #!/bin/bash
      /etc/eks/bootstrap.sh prod-eu
`
	r := Read([]byte(cfg), "stdin", Options{})
	ev := r.Evidence
	if ev.Target.Cluster != "prod-eu" || ev.Target.ClusterSource != "eksctl ClusterConfig metadata.name" {
		t.Errorf("target cluster %q (%s)", ev.Target.Cluster, ev.Target.ClusterSource)
	}
	if ev.Bootstrap == nil || ev.Bootstrap.ClusterName != "managed-cluster" {
		t.Fatalf("bootstrap %+v", ev.Bootstrap)
	}
	if len(r.Segments) != 1 || r.Segments[0].Type != TypeEksctlConfig || !strings.Contains(r.Segments[0].Problem, "2 node groups override the bootstrap command; the first one (custom)") {
		t.Errorf("segments %+v", r.Segments)
	}
	// a ClusterConfig of another tool's apiVersion is not eksctl's
	if r := Read([]byte(strings.Replace(cfg, "eksctl.io/v1alpha5", "example.com/v1", 1)), "stdin", Options{}); r.Evidence.Bootstrap != nil {
		t.Errorf("a non-eksctl ClusterConfig was read as eksctl's")
	}
}

// TestEksctlNodeGroupsWithoutHeader: the node group part of a ClusterConfig pasted without
// apiVersion and kind is still an eksctl ClusterConfig, and a "---" inside a node group's block
// scalar (user data holding a NodeConfig) does not cut the document in two.
func TestEksctlNodeGroupsWithoutHeader(t *testing.T) {
	paste := "managedNodeGroups:\n  - name: custom\n    amiFamily: AmazonLinux2\n    overrideBootstrapCommand: |\n      #!/bin/bash\n      /etc/eks/bootstrap.sh prod --kubelet-extra-args '--node-labels=node-role.kubernetes.io/worker=true'\n      ---\n      echo done\n"
	r := Read([]byte(paste), "stdin", Options{})
	if got := types(r.Segments); len(got) != 1 || got[0] != TypeEksctlConfig {
		t.Fatalf("segments %v", got)
	}
	b := r.Evidence.Bootstrap
	if b == nil || b.ClusterName != "prod" || b.Labels["node-role.kubernetes.io/worker"] != "true" {
		t.Fatalf("bootstrap %+v", b)
	}
}

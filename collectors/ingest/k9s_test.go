package ingest

import (
	"testing"
	"time"
)

// TestK9sNodesView: a k9s Nodes view copied from the terminal (a " Nodes(all)[N]" title, the
// header with its sort arrow, every line indented by one space, an empty ROLE cell) is read as
// kubectl get nodes, by the header's column positions (numbers right-aligned, "3420" starting
// before its "CPU"): name, status, version and age.
func TestK9sNodesView(t *testing.T) {
	paste := "k9s  Context: arn:aws:eks:eu-west-3:111122223333:cluster/media   Cluster: arn:aws:eks:eu-west-3:111122223333:cluster/media   K9s Rev: v0.50.4\n" +
		" Nodes(all)[2]\n" +
		" NAME↑                                         STATUS    ROLE  TAINTS  VERSION               PODS  CPU  MEM  %CPU  %MEM  CPU/A  MEM/A  AGE\n" +
		" ip-10-33-101-64.eu-west-3.compute.internal    Ready           0       v1.35.0-eks-b8a4e5c   21    870  3911   22    26   3920   15122  12d\n" +
		" ip-10-33-140-27.eu-west-3.compute.internal    NotReady        1       v1.35.0-eks-b8a4e5c    3   3420   806    1     5   3920   15122  38m\n"
	r := Read([]byte(paste), "paste.txt", Options{})
	nodes := r.Evidence.Nodes
	if len(nodes) != 2 {
		t.Fatalf("nodes %+v (segments %+v)", nodes, r.Segments)
	}
	n := nodes[1]
	if n.Name != "ip-10-33-140-27.eu-west-3.compute.internal" || n.Ready || n.KubeletVersion != "v1.35.0-eks-b8a4e5c" || n.Age != 38*time.Minute {
		t.Errorf("node %+v", n)
	}
	if !nodes[0].Ready || nodes[0].Age != 12*24*time.Hour {
		t.Errorf("node %+v", nodes[0])
	}
}

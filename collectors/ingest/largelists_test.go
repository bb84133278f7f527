package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// TestGetNodesLinearInRows: reading a `kubectl get nodes` table looks up each row a bounded number
// of times, and a node listed again (kubectl get nodes run twice) takes the later readiness.
// Red team 8b #21: 100,000 rows took 20 s and 190,000 more than a minute; each row was searched
// for in the rows read before it.
func TestGetNodesLinearInRows(t *testing.T) {
	read := func(n int) int64 {
		var b strings.Builder
		b.WriteString("NAME                        STATUS     ROLES    AGE   VERSION\n")
		for i := range n {
			fmt.Fprintf(&b, "ip-10-0-%d-%d.ec2.internal   NotReady   <none>   12d   v1.31.2-eks-7f9249a\n", i/250, i%250)
		}
		b.WriteString("\nNAME                        STATUS     ROLES    AGE   VERSION\nip-10-0-0-1.ec2.internal   Ready   <none>   12d   v1.31.2-eks-7f9249a\n")
		before := nodeLookups.Load()
		r := Read([]byte(b.String()), "nodes.txt", Options{})
		steps := nodeLookups.Load() - before
		if len(r.Evidence.Nodes) != n {
			t.Fatalf("%d rows: %d nodes read", n, len(r.Evidence.Nodes))
		}
		if nd := r.Evidence.Nodes[1]; nd.Name != "ip-10-0-0-1.ec2.internal" || !nd.Ready {
			t.Fatalf("%d rows: node 2 is %+v, want ip-10-0-0-1.ec2.internal Ready from the second table", n, nd)
		}
		return steps
	}
	small, large := read(1000), read(4000)
	if large > 5*small {
		t.Errorf("node lookups: %d for 1,000 rows, %d for 4,000: more than linear", small, large)
	}
}

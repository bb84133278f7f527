package checks

import "testing"

// TestNodeOfAnInstanceKnownByItsAddress: an instance narrowed by a --query to its private IP
// (no PrivateDnsName) is the one whose EC2 host name a Node carries (ip-10-0-1-23.…): a node list
// showing that Node Ready says the node joined; a Node of another address is not its, nor one
// whose providerID names another instance.
func TestNodeOfAnInstanceKnownByItsAddress(t *testing.T) {
	ev := healthyEvidence()
	ev.Instance.PrivateDNSName = ""
	ev.Nodes[0].ProviderID = ""
	if st := JoinedNode(ev); st == nil || !st.Ready || st.Name != tNode {
		t.Fatalf("joined %+v", st)
	}
	if n := ev.TargetNode(); n == nil || n.Name != tNode {
		t.Fatalf("target node %+v", n)
	}
	ev.Instance.PrivateIP = "10.0.1.24"
	if st := JoinedNode(ev); st != nil {
		t.Errorf("another address's Node taken: %+v", st)
	}
	ev.Instance.PrivateIP = "10.0.1.23"
	ev.Nodes[0].ProviderID = "aws:///eu-west-1a/i-0ther"
	if st := JoinedNode(ev); st != nil {
		t.Errorf("another instance's Node taken: %+v", st)
	}
}

package userdata

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestBottlerocketTOMLBeyondUserDataNotParsed: the TOML reader's duplicate-key tracking is
// quadratic in a table's keys (60,000 keys took minutes), and EC2 holds at most 16 KB of user
// data, so Bottlerocket settings many times larger are named as too large, not parsed; settings
// of a real size still are.
func TestBottlerocketTOMLBeyondUserDataNotParsed(t *testing.T) {
	var b strings.Builder
	b.WriteString("[settings.kubernetes]\ncluster-name = \"prod\"\n")
	for i := 0; b.Len() < 900<<10; i++ {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	var inline strings.Builder
	inline.WriteString("[settings.kubernetes]\ncluster-name = \"prod\"\nx = {")
	for i := 0; inline.Len() < 900<<10; i++ {
		fmt.Fprintf(&inline, "a%d=1,", i)
	}
	inline.WriteString("b=1}\n")
	for _, in := range []string{b.String(), inline.String()} {
		t0 := time.Now()
		c := DecodePasted([]byte(in))
		if d := time.Since(t0); d > 2*time.Second {
			t.Errorf("%d bytes of TOML read in %v", len(in), d)
		}
		found := false
		for _, i := range c.Issues {
			found = found || i.Level == evidence.IssueError && strings.Contains(i.Message, "not parsed") && strings.Contains(i.Message, "16 KB")
		}
		if !found || c.ClusterName != "" {
			t.Errorf("%d bytes of TOML: issues %+v, cluster %q; want an error naming the size and no setting read", len(in), c.Issues, c.ClusterName)
		}
	}
	c := DecodePasted([]byte("[settings.kubernetes]\ncluster-name = \"prod\"\napi-server = \"https://x.eks.amazonaws.com\"\n"))
	if c.ClusterName != "prod" {
		t.Errorf("settings of a real size not read: %+v", c)
	}
}

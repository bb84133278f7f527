package userdata

// Adversarial user data generated at test time (issue 12): expansion bombs, huge tokens.
// Each test asserts time, memory and the issue that names the problem.

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// ampScript is the 236-byte script of issue 12: eight assignments that each repeat the
// previous value eight times (16 × 8⁸ bytes = 256 MiB if expanded).
func ampScript() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\nA=0123456789abcdef\n")
	for i := 0; i < 8; i++ {
		b.WriteString("A=$A$A$A$A$A$A$A$A\n")
	}
	b.WriteString("/etc/eks/bootstrap.sh prod --kubelet-extra-args \"$A\"\n")
	return b.String()
}

// measure runs f and returns its wall time and the bytes it allocated.
func measure(f func()) (time.Duration, uint64) {
	var before, after runtime.MemStats
	// no GC here: TotalAlloc counts allocations, not live bytes
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	f()
	d := time.Since(t0)
	runtime.ReadMemStats(&after)
	return d, after.TotalAlloc - before.TotalAlloc
}

func budgetIssue(c *evidence.BootstrapConfig) *evidence.ParseIssue {
	for i := range c.Issues {
		if strings.Contains(c.Issues[i].Message, "shell expansion budget hit") {
			return &c.Issues[i]
		}
	}
	return nil
}

func TestHostileExpansionBombIsBounded(t *testing.T) {
	s := ampScript()
	if len(s) != 236 {
		t.Fatalf("script is %d bytes, want the issue's 236", len(s))
	}
	var c *evidence.BootstrapConfig
	d, alloc := measure(func() { c = Decode([]byte(s)) })
	if d > 2*time.Second || alloc > 64<<20 {
		t.Fatalf("decode took %v and allocated %d MiB; want < 2s and < 64 MiB", d, alloc>>20)
	}
	is := budgetIssue(c)
	if is == nil {
		t.Fatalf("no issue says the expansion budget was hit: %+v", c.Issues)
	}
	if is.Level != evidence.IssueWarning || is.Line != 8 {
		t.Errorf("budget issue = %+v; want a warning at line 8 (the assignment that exceeds 1 MiB)", is)
	}
	if c.ClusterName != "prod" || !c.CallsBootstrap {
		t.Errorf("the bootstrap.sh call is still read: cluster=%q calls=%v", c.ClusterName, c.CallsBootstrap)
	}
	if why := c.Unresolved["kubeletExtraArgs"]; !strings.Contains(why, "expansion budget") {
		t.Errorf("kubeletExtraArgs unresolved reason = %q; want the budget named", why)
	}
}

func TestHostileExpansionStepBudget(t *testing.T) {
	// 5,000 one-byte substitutions: under the byte budget, over a 1,000-step budget.
	s := "#!/bin/bash\nA=x\nB=" + strings.Repeat("$A", 5000) + "\n/etc/eks/bootstrap.sh prod --dns-cluster-ip \"$B\"\n"
	lim := DefaultLimits
	lim.MaxExpansionSteps = 1000
	var c *evidence.BootstrapConfig
	d, alloc := measure(func() { c = DecodeWithLimits([]byte(s), lim) })
	if d > 2*time.Second || alloc > 64<<20 {
		t.Fatalf("decode took %v and allocated %d MiB", d, alloc>>20)
	}
	if budgetIssue(c) == nil {
		t.Fatalf("no budget issue: %+v", c.Issues)
	}
	if why := c.Unresolved["clusterDNS"]; !strings.Contains(why, "expansion budget") {
		t.Errorf("clusterDNS unresolved = %q", why)
	}
	if len(c.ClusterDNS) != 0 {
		t.Errorf("a value cut by the budget must not be used: %v", c.ClusterDNS)
	}
}

func TestHostileExpansionBudgetKeepsRealScripts(t *testing.T) {
	// A real script: the CA repeated a few times through variables stays resolved.
	ca := strings.Repeat("QUJD", 400)
	// (with the endpoint: bootstrap.sh ignores a lone --b64-cluster-ca)
	s := "#!/bin/bash\nCA=" + ca + "\nX=$CA$CA$CA$CA\n/etc/eks/bootstrap.sh prod --apiserver-endpoint https://x.eks.amazonaws.com --b64-cluster-ca \"$CA\"\n"
	c := Decode([]byte(s))
	if budgetIssue(c) != nil || c.CertificateAuthority != ca {
		t.Fatalf("real script hit the budget: issues=%+v ca=%d bytes", c.Issues, len(c.CertificateAuthority))
	}
}

func TestHostileHugeTokenIsQuotedShort(t *testing.T) {
	tok := strings.Repeat("Z", 300<<10) // three of them stay under the 1 MiB decode limit
	s := "#!/bin/bash\n/etc/eks/bootstrap.sh prod " + tok + " --kubelet-extra-args \"" + tok + "\" --nope=" + tok + "\n"
	c := Decode([]byte(s))
	if len(c.Issues) < 3 {
		t.Fatalf("want issues for the extra argument, the stray kubelet argument and the unknown option: %+v", len(c.Issues))
	}
	total := 0
	for _, i := range c.Issues {
		total += len(i.Message)
		if len(i.Message) > 1024+32 {
			t.Errorf("issue of %d bytes: %.120s…", len(i.Message), i.Message)
		}
	}
	if !strings.Contains(fmt.Sprint(c.Issues), fmt.Sprintf("[%d bytes]", len(tok))) {
		t.Errorf("a cut quote says how long the value was: %.300s", fmt.Sprint(c.Issues))
	}
	if total > 16<<10 {
		t.Errorf("issues total %d bytes for a 1 MB token", total)
	}
}

// FuzzShellExpand runs arbitrary scripts through the shell reader and asserts that time and
// memory stay bounded whatever the input (the expansion budget).
func FuzzShellExpand(f *testing.F) {
	f.Add(ampScript())
	f.Add("#!/bin/bash\nA=${B:-$C}\nB=${A:=x$A}\n/etc/eks/bootstrap.sh $A --kubelet-extra-args \"$B $A\"\n")
	f.Add("#!/bin/sh\nexport A='a b' B=\"$A$A\"; C=$(echo)$B`x`\nsudo bash /etc/eks/bootstrap.sh \"${C}\" $B <<EOF\n$A\nEOF\n")
	f.Fuzz(func(t *testing.T, script string) {
		if len(script) > 256<<10 {
			return
		}
		in := "#!/bin/bash\n" + script
		var c *evidence.BootstrapConfig
		d, alloc := measure(func() { c = Decode([]byte(in)) })
		if c == nil {
			t.Fatal("nil config")
		}
		if limit := uint64(32<<20) + 256*uint64(len(in)); alloc > limit {
			t.Fatalf("%d bytes of script allocated %d MiB (limit %d MiB)", len(in), alloc>>20, limit>>20)
		}
		if d > 2*time.Second {
			t.Fatalf("%d bytes of script took %v", len(in), d)
		}
		for _, i := range c.Issues {
			if len(i.Message) > 1024+32 {
				t.Fatalf("issue of %d bytes", len(i.Message))
			}
		}
	})
}

func TestHostileScriptShapesParseInLinearTime(t *testing.T) {
	// 800 KB of escaped characters or quoted pieces once took 20 s and 77 GB of allocations
	// (each piece was appended to the word's string).
	for _, body := range []string{
		strings.Repeat(`\a`, 400_000), strings.Repeat(`'a'`, 260_000), strings.Repeat(`$(`, 400_000),
		strings.Repeat("a=b ", 200_000), strings.Repeat("<<A\n", 200_000), strings.Repeat("${A:-", 160_000),
		strings.Repeat(`"$A"`, 200_000), strings.Repeat(`a""`, 260_000),
	} {
		in := "#!/bin/bash\n/etc/eks/bootstrap.sh x " + body
		d, alloc := measure(func() { Decode([]byte(in)) })
		if limit := uint64(32<<20) + 256*uint64(len(in)); d > 2*time.Second || alloc > limit {
			t.Errorf("%.12q… (%d bytes): %v, %d MiB allocated (limit 2s, %d MiB)", body, len(in), d, alloc>>20, limit>>20)
		}
	}
}

// FuzzNodeConfig feeds arbitrary YAML to the NodeConfig reader, alone and as a MIME part of
// type application/node.eks.aws (nodeadm's reading): no panic, bounded issues.
func FuzzNodeConfig(f *testing.F) {
	f.Add("spec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://x\n    certificateAuthority: Zm9v\n    cidr: 10.100.0.0/16\n  kubelet:\n    config:\n      maxPods: 29\n    flags: [--node-labels=a=b]\n")
	f.Add("spec: [1, 2]\n---\nspec: {cluster: {name: 3}}\n")
	f.Add("spec:\n  kubelet:\n    config: !!binary AAAA\n")
	f.Fuzz(func(t *testing.T, body string) {
		if len(body) > 64<<10 {
			return
		}
		doc := "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\n" + body
		for _, in := range []string{doc, "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=B\n\n--B\nContent-Type: application/node.eks.aws\n\n" + doc + "\n--B--\n"} {
			c := Decode([]byte(in))
			if c == nil {
				t.Fatal("nil config")
			}
			for _, i := range c.Issues {
				if len(i.Message) > 1024+32 {
					t.Fatalf("issue of %d bytes", len(i.Message))
				}
			}
		}
	})
}

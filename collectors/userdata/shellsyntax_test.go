package userdata

import (
	"runtime"
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

const bootLine = "/etc/eks/bootstrap.sh prod --apiserver-endpoint https://x.eks.amazonaws.com --b64-cluster-ca Q0E= --dns-cluster-ip 10.100.0.10"

// A script that bash stops reading before its bootstrap.sh call never bootstraps the node:
// a syntax error, an unclosed here-document or a top-level exit/exec cuts it off.
func TestScriptStopsBeforeBootstrap(t *testing.T) {
	cases := []struct {
		name, script string
		// wantErr is a fragment of the error issue expected; wantLine its line
		wantErr     string
		wantLine    int
		unreachable string // fragment of BootstrapUnreached
	}{
		{name: "unbalanced quote", script: "#!/bin/bash\nset -ex\n" + bootLine + " --kubelet-extra-args '--node-labels=a=b --max-pods=58\n",
			wantErr: "bash cannot parse the script (reached EOF without closing quote ')", wantLine: 3},
		{name: "indented heredoc terminator", script: "#!/bin/bash\ncat <<'EOF' > /etc/sysctl.d/99.conf\nvm.max_map_count=262144\n  EOF\nsysctl --system\n" + bootLine + "\n",
			wantErr: "the here-document 'EOF' opened here is never closed", wantLine: 2},
		{name: "heredoc dash with spaces", script: "#!/bin/sh\ncat <<-END >/tmp/x\n\tok\n    END\n" + bootLine + "\n",
			wantErr: "the here-document 'END' opened here is never closed", wantLine: 2},
		{name: "unclosed if", script: "#!/bin/bash\nif [ -f /x ]; then\n  echo y\n" + bootLine + "\n",
			wantErr: "bash cannot parse the script (if statement must end with \"fi\")", wantLine: 2},
		{name: "exit before", script: "#!/bin/bash\nset -ex\nyum install -y jq\nexit 0\n" + bootLine + "\n",
			unreachable: `line 4: "exit 0" ends the script, so the bootstrap.sh call on line 5 never runs`},
		{name: "exec of another program", script: "#!/usr/bin/env bash\nexec /usr/local/bin/setup.sh --all\n" + bootLine + "\n",
			unreachable: `line 2: "exec /usr/local/bin/setup.sh --all" ends the script, so the bootstrap.sh call on line 3 never runs`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Decode([]byte(tc.script))
			if c.CallsBootstrap {
				t.Fatalf("CallsBootstrap = true; bash never reaches the call")
			}
			if tc.wantErr != "" {
				var hit *evidence.ParseIssue
				for i := range c.Issues {
					if c.Issues[i].Level == evidence.IssueError && strings.Contains(c.Issues[i].Message, tc.wantErr) {
						hit = &c.Issues[i]
					}
				}
				if hit == nil {
					t.Fatalf("no error %q in %+v", tc.wantErr, c.Issues)
				}
				if hit.Line != tc.wantLine || !strings.Contains(hit.Message, "the bootstrap.sh call on line") {
					t.Errorf("issue at line %d (want %d): %s", hit.Line, tc.wantLine, hit.Message)
				}
			}
			if !strings.Contains(c.BootstrapUnreached, tc.unreachable) || (tc.unreachable == "") != (c.BootstrapUnreached == "") {
				t.Errorf("BootstrapUnreached = %q, want %q", c.BootstrapUnreached, tc.unreachable)
			}
		})
	}
}

// Forms that look like an early stop but are not: a conditional exit, exec that only redirects
// output, a top-level return (bash prints an error and goes on), a closed <<- heredoc with tabs,
// exit after the call, and a python script bash never reads.
func TestScriptRunsToBootstrap(t *testing.T) {
	for name, script := range map[string]string{
		"conditional exit":   "#!/bin/bash\n[ -f /done ] && exit 0\ntest -x /bin/true || exit 1\n" + bootLine + "\n",
		"exec redirect":      "#!/bin/bash\nexec > >(tee /var/log/user-data.log | logger -t user-data) 2>&1\n" + bootLine + "\n",
		"top-level return":   "#!/bin/bash\nreturn 0\n" + bootLine + "\n",
		"tab heredoc":        "#!/bin/bash\ncat <<-EOF >/tmp/x\n\tline\n\tEOF\n" + bootLine + "\n",
		"exit after":         "#!/bin/bash\n" + bootLine + "\nexit 0\n",
		"exec bootstrap":     "#!/bin/bash\nexec " + bootLine + "\necho never\n",
		"exit in function":   "#!/bin/bash\ndie() { echo \"$1\"; exit 1; }\n" + bootLine + "\n",
		"continuation lines": "#!/bin/bash\n/etc/eks/bootstrap.sh prod \\\n  --kubelet-extra-args '--node-labels=a=b' \\\n  --dns-cluster-ip 10.100.0.10\n",
		// a template's placeholders, replaced before the node runs it (blind pastes4/02)
		"terraform interpolation": "#!/bin/bash\nset -ex\n/etc/eks/bootstrap.sh orders-prod \\\n  --b64-cluster-ca ${aws_eks_cluster.this.certificate_authority[0].data} \\\n  --apiserver-endpoint ${aws_eks_cluster.this.endpoint} --kubelet-extra-args '${join(\",\", var.labels)}'\n",
		"cloudformation sub":      "#!/bin/bash\n/etc/eks/bootstrap.sh ${ClusterName} --apiserver-endpoint ${Cluster.Endpoint} --b64-cluster-ca ${AWS::NoValue}\n",
	} {
		t.Run(name, func(t *testing.T) {
			c := Decode([]byte(script))
			if !c.CallsBootstrap || c.BootstrapUnreached != "" || len(errorsOf(c)) > 0 {
				t.Fatalf("calls=%v unreached=%q issues=%+v", c.CallsBootstrap, c.BootstrapUnreached, c.Issues)
			}
		})
	}
	c := Decode([]byte("#!/usr/bin/env python3\nprint('it''s')\nx = '''\n"))
	if len(c.Issues) > 0 && len(errorsOf(c)) > 0 {
		t.Fatalf("a python script is not read as shell: %+v", c.Issues)
	}
}

// A syntax error that does not cut off the bootstrap call is a warning (the commands below it
// are lost), not the cause.
func TestScriptSyntaxErrorAfterBootstrapWarns(t *testing.T) {
	c := Decode([]byte("#!/bin/bash\n" + bootLine + "\necho 'unclosed\n"))
	if !c.CallsBootstrap || len(errorsOf(c)) > 0 {
		t.Fatalf("calls=%v errors=%v", c.CallsBootstrap, errorsOf(c))
	}
	if len(c.Issues) != 1 || c.Issues[0].Level != evidence.IssueWarning || c.Issues[0].Line != 3 || !strings.Contains(c.Issues[0].Message, "the commands below it never run") {
		t.Fatalf("issues = %+v", c.Issues)
	}
}

// Pasted text that only contains a script (an e-mail with the script in its body) is not parsed
// as shell from its first line: the prose around the script is not what bash runs.
func TestPastedProseAroundScriptIsNotJudged(t *testing.T) {
	c := DecodePasted([]byte("Hello,\nthe nodes >> do not join, user data:\n#!/bin/bash\n" + bootLine + "\n\nthanks (it's urgent\n"))
	if !c.CallsBootstrap || len(errorsOf(c)) > 0 {
		t.Fatalf("calls=%v issues=%+v", c.CallsBootstrap, c.Issues)
	}
	for _, i := range c.Issues {
		if strings.Contains(i.Message, "bash cannot parse") {
			t.Fatalf("prose judged as shell: %+v", i)
		}
	}
}

// The bash parser is given at most MaxReachBytes of script; hostile nesting within that bound
// stays fast.
func TestScriptReachBounded(t *testing.T) {
	for _, body := range []string{strings.Repeat(`$(`, MaxReachBytes/2-40), strings.Repeat("${A:-", MaxReachBytes/5-20), strings.Repeat("<<A\n", MaxReachBytes/4-20), strings.Repeat("(", MaxReachBytes-40)} {
		in := "#!/bin/bash\n" + body
		if len(in) > MaxReachBytes {
			in = in[:MaxReachBytes]
		}
		// bounded work, measured as the bytes it allocates (a wall-clock limit fails on a loaded
		// machine; BenchmarkScriptReachDeep times it)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, ok := scriptReach(in)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<20 {
			t.Errorf("%.12q…: %d MiB allocated", body, n>>20)
		}
		if !ok || r.kind != reachParse && r.kind != reachHeredoc {
			t.Errorf("%.12q…: ok=%v kind=%v, want a syntax error", body, ok, r.kind)
		}
	}
	if _, ok := scriptReach("#!/bin/bash\n" + strings.Repeat("x", MaxReachBytes)); ok {
		t.Error("a script over MaxReachBytes was judged")
	}
}

// Red team 10a #11: a script part that never runs (a #! line ending in CR) beside a NodeConfig
// part is not the cause on AL2023: nodeadm reads only the NodeConfig parts (configprovider
// mime.go ParseMultipart skips the others) and nodeadm-run is ordered only After=cloud-final.
// The same part is still the cause when it is the bootstrap (AL2 user data, or it calls
// bootstrap.sh).
func TestBrokenScriptPartBesideNodeConfig(t *testing.T) {
	const nodeConfig = "--B\nContent-Type: application/node.eks.aws\n\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: prod\n    apiServerEndpoint: https://x.eks.amazonaws.com\n    certificateAuthority: Q0E=\n    cidr: 10.100.0.0/16\n"
	mime := func(script string, withNodeConfig bool) []byte {
		s := "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/x-shellscript\n\n" + script + "\n"
		if withNodeConfig {
			s += nodeConfig
		}
		return []byte(s + "--B--\n")
	}
	crlf := "#!/bin/bash\r\nsysctl --system\r\n"
	for _, tc := range []struct {
		name  string
		in    []byte
		level evidence.IssueLevel
		msg   string
	}{
		{"crlf part beside NodeConfig", mime(crlf, true), evidence.IssueWarning, "nodeadm reads only the NodeConfig parts and joins the node regardless"},
		{"crlf part, no NodeConfig", mime(crlf, false), evidence.IssueError, "CRLF line ends"},
		{"crlf bootstrap.sh part beside NodeConfig", mime("#!/bin/bash\r\n"+bootLine+"\r\n", true), evidence.IssueError, "CRLF line ends"},
		{"unparseable part beside NodeConfig", mime("#!/bin/bash\nif true; then\n  echo x\n", true), evidence.IssueWarning, "the commands below it never run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Decode(tc.in)
			var found bool
			for _, i := range c.Issues {
				if i.Part == "part 1" && strings.Contains(i.Message, tc.msg) {
					found = true
					if i.Level != tc.level {
						t.Errorf("level %v, want %v: %s", i.Level, tc.level, i.Message)
					}
				}
			}
			if !found {
				t.Fatalf("no part 1 issue with %q: %+v", tc.msg, c.Issues)
			}
		})
	}
}

// BenchmarkScriptReachDeep times the parse of the deepest scripts TestScriptReachBounded feeds
// scriptReach (nested $(, ${A:-, heredocs, subshells up to MaxReachBytes).
func BenchmarkScriptReachDeep(b *testing.B) {
	var ins []string
	for _, body := range []string{strings.Repeat(`$(`, MaxReachBytes/2-40), strings.Repeat("${A:-", MaxReachBytes/5-20), strings.Repeat("<<A\n", MaxReachBytes/4-20), strings.Repeat("(", MaxReachBytes-40)} {
		in := "#!/bin/bash\n" + body
		ins = append(ins, in[:min(len(in), MaxReachBytes)])
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range ins {
			scriptReach(in)
		}
	}
}

package cli

import (
	"encoding/xml"
	"path/filepath"
	"strings"
	"testing"
)

type junitPropsDoc struct {
	Suites []struct {
		Name  string `xml:"name,attr"`
		Props []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
	} `xml:"testsuite"`
}

// TestJUnitVerdictProperty: every target's suite carries its verdict, and its most likely cause
// when there is one, as suite properties a CI can read without parsing test names; the cluster
// suite of --all-pending has none (it is no target).
func TestJUnitVerdictProperty(t *testing.T) {
	snap := func(name string) string { return filepath.Join(fixtures, "snapshots", name) }
	cases := []struct {
		args  []string
		want  map[string]string // suite name → verdict
		cause map[string]string // suite name → most likely cause
	}{
		{[]string{"why-not-joining", "i-0a1b2c3d4e5f60006", "--snapshot", snap("auth-role-path")},
			map[string]string{"instance i-0a1b2c3d4e5f60006": "cause-found"}, map[string]string{"instance i-0a1b2c3d4e5f60006": "auth.role-path"}},
		{[]string{"why-not-joining", "i-0a1b2c3d4e5f60001", "--snapshot", snap("healthy-al2023")},
			map[string]string{"instance i-0a1b2c3d4e5f60001": "joined"}, map[string]string{}},
		{[]string{"analyze", filepath.Join(fixtures, "bundles", "bottlerocket-unauthorized.tar.gz")}, nil, nil},
		{[]string{"why-not-joining", "--all-pending", "--snapshot", snap("subnet-ip-exhausted")}, nil, nil},
		{[]string{"scan", "--snapshot", snap("nodegroup-asg-launch-failures")}, nil, nil},
	}
	for _, tc := range cases {
		_, out, errOut := run(append(tc.args, "-o", "junit")...)
		var doc junitPropsDoc
		if err := xml.Unmarshal([]byte(out), &doc); err != nil || len(doc.Suites) == 0 {
			t.Fatalf("%v: %v (%s)\n%.500s", tc.args, err, errOut, out)
		}
		for _, s := range doc.Suites {
			props := map[string]string{}
			for _, p := range s.Props {
				props[p.Name] = p.Value
			}
			if strings.HasPrefix(s.Name, "cluster ") {
				if len(props) != 0 {
					t.Errorf("%v: cluster suite has properties %v", tc.args, props)
				}
				continue
			}
			if props["verdict"] == "" {
				t.Errorf("%v: suite %q has no verdict property", tc.args, s.Name)
			}
			if want, ok := tc.want[s.Name]; ok && props["verdict"] != want {
				t.Errorf("%v: suite %q verdict %q, want %q", tc.args, s.Name, props["verdict"], want)
			}
			if tc.cause != nil && props["mostLikelyCause"] != tc.cause[s.Name] {
				t.Errorf("%v: suite %q mostLikelyCause %q, want %q", tc.args, s.Name, props["mostLikelyCause"], tc.cause[s.Name])
			}
		}
	}
}

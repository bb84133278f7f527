package ingest

import "testing"

// TestOneHTMLEntity: a short paste copied out of a web form that stored it escaped holds one
// character reference when it holds one quote or apostrophe ("Couldn&#39;t proceed …"): it is
// decoded as two are. A single "&amp;" stays: a script's or a URL's own ampersand is written so.
func TestOneHTMLEntity(t *testing.T) {
	for in, want := range map[string]string{
		"Couldn&#39;t proceed with upgrade process as new nodes are not joining node group ng-1": "Couldn't proceed with upgrade process as new nodes are not joining node group ng-1",
		"kubelet_extra_args = &quot;--node-labels=kubernetes.io/lifecycle=spot":                  `kubelet_extra_args = "--node-labels=kubernetes.io/lifecycle=spot`,
		"Labels: &lt;none":                     "Labels: <none",
		"curl -s 'https://x/?a=1&amp;b=2'":     "curl -s 'https://x/?a=1&amp;b=2'",
		"no reference here, a & b; and &ampx;": "no reference here, a & b; and &ampx;",
	} {
		if got := unescapeHTML([]line{{n: 1, text: in}})[0].text; got != want {
			t.Errorf("unescapeHTML(%q) = %q, want %q", in, got, want)
		}
	}
}

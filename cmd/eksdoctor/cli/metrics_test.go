package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil/promlint"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

type pushed struct {
	method, path, auth string
	body               []byte
}

// fakePushgateway records pushes and answers status.
func fakePushgateway(t *testing.T, status int) (*httptest.Server, func() []pushed) {
	var mu sync.Mutex
	var got []pushed
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, pushed{r.Method, r.URL.Path, r.Header.Get("Authorization"), b})
		mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []pushed { mu.Lock(); defer mu.Unlock(); return append([]pushed{}, got...) }
}

func TestPushgatewayAuthAndLint(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "nodegroup-asg-launch-failures")
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	os.WriteFile(token, []byte("s3cr3t-token\n"), 0o600)
	password := filepath.Join(dir, "password")
	os.WriteFile(password, []byte("pa55"), 0o600)

	// bearer token from a file
	srv, got := fakePushgateway(t, http.StatusOK)
	code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--fail-on", "none", "--pushgateway", srv.URL, "--pushgateway-token-file", token)
	if code != ExitOK || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	p := got()
	if len(p) != 1 || p[0].method != http.MethodPut || p[0].path != "/metrics/job/eksdoctor/cluster/prod" || p[0].auth != "Bearer s3cr3t-token" {
		t.Fatalf("pushes = %+v", p)
	}
	problems, err := promlint.New(bytes.NewReader(p[0].body)).Lint()
	if err != nil || len(problems) > 0 {
		t.Errorf("promlint on the pushed body: %v %v", err, problems)
	}
	if !strings.Contains(string(p[0].body), "eksdoctor_last_success_timestamp_seconds") || !strings.Contains(string(p[0].body), `eksdoctor_build_info{goversion="`) {
		t.Errorf("pushed body:\n%s", p[0].body)
	}
	if strings.Contains(out+errOut, "s3cr3t") {
		t.Error("the token reached an output")
	}

	// basic auth: user from the environment, password from a file
	srv, got = fakePushgateway(t, http.StatusOK)
	t.Setenv(envPushUser, "eksdoctor")
	run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--pushgateway", srv.URL, "--pushgateway-password-file", password)
	if p := got(); len(p) != 1 || p[0].auth != "Basic ZWtzZG9jdG9yOnBhNTU=" {
		t.Errorf("basic auth pushes = %+v", p)
	}
	// both kinds: refused, named, exit 7, secret not printed
	t.Setenv(envPushToken, "other-secret")
	code, _, errOut = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--pushgateway", srv.URL)
	if code != ExitPublish || !strings.Contains(errOut, "both basic") || strings.Contains(errOut, "other-secret") {
		t.Errorf("both credentials: exit %d %q", code, errOut)
	}
	t.Setenv(envPushToken, "")
	t.Setenv(envPushUser, "")

	// a Pushgateway that refuses the push: exit 7, stderr names it
	srv, _ = fakePushgateway(t, http.StatusUnauthorized)
	code, _, errOut = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "table", "--pushgateway", srv.URL)
	if code != ExitPublish || !strings.Contains(errOut, "publishing the Pushgateway push failed") || !strings.Contains(errOut, "401") {
		t.Errorf("refused push: exit %d %q", code, errOut)
	}
}

// TestLastSuccessKeptOnFailure: a scan with an error does not advance
// eksdoctor_last_success_timestamp_seconds in the metrics file, and pushes with POST so the
// Pushgateway keeps the previous value.
func TestLastSuccessKeptOnFailure(t *testing.T) {
	snap := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	metrics := filepath.Join(t.TempDir(), "eksdoctor.prom")
	if code, _, errOut := run("scan", "--snapshot", snap, "-o", "json", "--metrics-file", metrics); code != ExitOK {
		t.Fatalf("exit %d %s", code, errOut)
	}
	first := previousLastSuccess(metrics)
	if first.IsZero() || time.Since(first) > time.Minute {
		t.Fatalf("last success after a good scan = %v", first)
	}
	lintMetrics(t, metrics)
	// same scan, but the Pushgateway is down: an error, so the file keeps the first timestamp
	srv, got := fakePushgateway(t, http.StatusOK)
	srv.Close()
	time.Sleep(20 * time.Millisecond)
	code, _, _ := run("scan", "--snapshot", snap, "-o", "json", "--metrics-file", metrics, "--pushgateway", srv.URL, "--policy-report", "--kubeconfig", filepath.Join(t.TempDir(), "none"))
	if code != ExitPublish {
		t.Fatalf("exit %d", code)
	}
	if again := previousLastSuccess(metrics); !again.Equal(first) {
		t.Errorf("last success moved from %v to %v after a failed scan", first, again)
	}
	f, _ := os.Open(metrics)
	defer f.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	mfs, err := parser.TextToMetricFamilies(f)
	if err != nil || mfs["eksdoctor_scan_errors"].Metric[0].GetGauge().GetValue() < 1 {
		t.Errorf("scan errors not counted: %v", err)
	}
	_ = got
	// with a live Pushgateway and a failed scan: POST, without the last-success metric
	srv2, got2 := fakePushgateway(t, http.StatusOK)
	run("scan", "--snapshot", snap, "-o", "json", "--pushgateway", srv2.URL, "--policy-report", "--kubeconfig", filepath.Join(t.TempDir(), "none"))
	if p := got2(); len(p) != 1 || p[0].method != http.MethodPost || strings.Contains(string(p[0].body), "eksdoctor_last_success") {
		t.Errorf("push after a failed scan = %+v", p)
	}
}

// TestPushgatewayURLKeepsPathAndQuery: a --pushgateway URL with a path prefix and a query string
// is pushed to the prefix joined with /metrics/job/eksdoctor/cluster/NAME, the query kept as the
// query (it was appended after it, so the job path ended up inside the query).
func TestPushgatewayURLKeepsPathAndQuery(t *testing.T) {
	snap := fixtures + "/snapshots/healthy-al2023"
	var mu sync.Mutex
	var paths, queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths, queries = append(paths, r.URL.Path), append(queries, r.URL.RawQuery)
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(srv.Close)
	for _, c := range []struct{ url, path, query string }{
		{srv.URL + "/?x=1", "/metrics/job/eksdoctor/cluster/prod", "x=1"},
		{srv.URL + "/gw/?x=1&y=2#frag", "/gw/metrics/job/eksdoctor/cluster/prod", "x=1&y=2"},
		{srv.URL + "/gw", "/gw/metrics/job/eksdoctor/cluster/prod", ""},
	} {
		paths, queries = nil, nil
		code, _, errOut := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--fail-on", "none", "--pushgateway", c.url)
		if code != 0 || len(paths) != 1 || paths[0] != c.path || queries[0] != c.query {
			t.Errorf("%s: exit %d, pushed to %q ? %q, want %q ? %q; %s", c.url, code, paths, queries, c.path, c.query, errOut)
		}
	}
	// a URL that is not http(s) with a host is a usage error, before anything is collected
	for _, bad := range []string{"ftp://gw/", "http://", "http://gw:99999/", ":gw"} {
		code, _, errOut := run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json", "--pushgateway", bad)
		if code != ExitUsage || !strings.Contains(errOut, "--pushgateway") || !strings.Contains(errOut, bad) {
			t.Errorf("%s: exit %d, %s; want exit %d naming the flag", bad, code, errOut, ExitUsage)
		}
	}
}

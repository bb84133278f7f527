package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/eksdoctor/eksdoctor/collectors/awsapi/awsfake"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// BenchmarkSnapshotPipeline measures one diagnosis in-process: load the snapshot, build the
// evidence, run every check, diagnose and render JSON.
func BenchmarkSnapshotPipeline(b *testing.B) {
	snap := filepath.Join(fixtures, "snapshots", "bootstrap-mime-closed-early")
	reg := checks.Default()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s, err := snapshot.Open(snap, snapshot.DefaultLimits)
		if err != nil {
			b.Fatal(err)
		}
		ev, err := s.Evidence("i-0a1b2c3d4e5f60010", "")
		if err != nil {
			b.Fatal(err)
		}
		fs := checks.Run(reg.All(), ev)
		d := checks.Diagnose(fs, reg.Metas())
		if err := report.JSON(io.Discard, report.New(ev, fs, d, len(reg.All()), nil)); err != nil {
			b.Fatal(err)
		}
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

func buildBinary(b *testing.B) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "eksdoctor-bench")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "eksdoctor")
		cmd := exec.Command("go", "build", "-o", binPath, "..")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = err
			b.Logf("%s", out)
		}
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

// runBinary execs the built binary b.N times and reports wall ms/op and peak RSS in MiB.
func runBinary(b *testing.B, wantCode int, args ...string) {
	runBinaryCode(b, &wantCode, args...)
}

// runBinaryRSS is runBinary for a run whose exit code the benchmark does not judge (any code
// below 4, that is a diagnosis, is accepted); it returns the peak RSS in KiB.
func runBinaryRSS(b *testing.B, args ...string) int64 {
	return runBinaryCode(b, nil, args...)
}

// runBinaryCode execs the binary b.N times, checks the exit code (wantCode, or < 4 when nil),
// reports wall ms/op and peak RSS in MiB, and returns the peak RSS in KiB.
func runBinaryCode(b *testing.B, wantCode *int, args ...string) int64 {
	bin := buildBinary(b)
	var maxRSS int64
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			b.Fatal(err)
		}
		if wantCode != nil && code != *wantCode || wantCode == nil && code >= 4 {
			b.Fatalf("exit %d", code)
		}
		if rss := peakRSSKiB(cmd.ProcessState); rss > maxRSS {
			maxRSS = rss
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MiB")
	return maxRSS
}

// BenchmarkBinaryWhyNotJoining runs the real binary on a snapshot fixture (process start,
// load, check, render): the figure quoted in the README.
func BenchmarkBinaryWhyNotJoining(b *testing.B) {
	runBinary(b, ExitFindings, "why-not-joining", "i-0a1b2c3d4e5f60010", "--snapshot", filepath.Join(fixtures, "snapshots", "bootstrap-mime-closed-early"), "-o", "json")
}

// BenchmarkBinaryHelp measures `eksdoctor --help` start-up.
func BenchmarkBinaryHelp(b *testing.B) {
	runBinary(b, 0, "--help")
}

// BenchmarkLiveDiagnosis100msLatency runs one live diagnosis against the AWS wire-protocol fake
// with 100 ms added to every call, and reports AWS calls and wall milliseconds per diagnosis.
// It fails when a diagnosis makes more than 29 calls (25, 2 for the cluster role, 2 CloudTrail lookups) or takes a second or more.
func BenchmarkLiveDiagnosis100msLatency(b *testing.B) {
	snap := filepath.Join(fixtures, "snapshots", "healthy-al2023")
	f := awsfake.New(snap)
	f.Latency = 100 * time.Millisecond
	url := f.Start()
	defer f.Close()
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": "AKIDFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": "fake",
		"AWS_REGION": "eu-west-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		old, had := os.LookupEnv(k)
		os.Setenv(k, v)
		if had {
			defer os.Setenv(k, old)
		} else {
			defer os.Unsetenv(k)
		}
	}
	var worst time.Duration
	start := time.Now()
	for i := 0; i < b.N; i++ {
		before := f.Requests()
		t0 := time.Now()
		var out, errOut bytes.Buffer
		// --no-kube leaves the cluster side unread: the healthy node's verdict is inconclusive
		if code := Main([]string{"why-not-joining", "i-0a1b2c3d4e5f60001", "-o", "json", "--no-kube"}, &out, &errOut); code != ExitNothingChecked {
			b.Fatalf("exit %d, want %d (inconclusive without the cluster side): %s", code, ExitNothingChecked, errOut.String())
		}
		if d := time.Since(t0); d > worst {
			worst = d
		}
		if calls := f.Requests() - before; calls > 29 {
			b.Fatalf("%d AWS calls for one diagnosis, budget 29", calls)
		}
	}
	if worst >= time.Second {
		b.Fatalf("slowest diagnosis took %s with 100 ms per call, budget 1 s", worst)
	}
	b.ReportMetric(float64(f.Requests())/float64(b.N), "calls/op")
	b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(b.N), "ms/op")
}

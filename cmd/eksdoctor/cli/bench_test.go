package cli

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
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
		if code != wantCode {
			b.Fatalf("exit %d, want %d", code, wantCode)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > maxRSS {
			maxRSS = ru.Maxrss // KiB on Linux
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/op")
	b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MiB")
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

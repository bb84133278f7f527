package report

import (
	"io"
	"runtime"
	"sort"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/eksdoctor/eksdoctor/checks"
)

// Metric names (the cluster is not a label: it is the Pushgateway grouping key, and a textfile
// belongs to one node of one cluster).
const (
	MetricFindings    = "eksdoctor_findings"
	MetricUnjoined    = "eksdoctor_unjoined_instances"
	MetricDuration    = "eksdoctor_scan_duration_seconds"
	MetricErrors      = "eksdoctor_scan_errors"
	MetricLastSuccess = "eksdoctor_last_success_timestamp_seconds"
	MetricBuildInfo   = "eksdoctor_build_info"
)

// MetricsOptions are what the scan itself does not know.
type MetricsOptions struct {
	// Version is eksdoctor's version (eksdoctor_build_info{version}).
	Version string
	// LastSuccess is the end of the last scan without errors; zero leaves the metric out (a
	// failed scan must not advance it).
	LastSuccess time.Time
}

// Metrics builds a Prometheus registry (client_golang) holding the scan's metrics:
// eksdoctor_findings{check,severity,status} (number of findings), eksdoctor_unjoined_instances
// (left out when the cluster's Nodes could not be read),
// eksdoctor_scan_duration_seconds, eksdoctor_scan_errors (errors outside the checks: collection
// and publishing so far), eksdoctor_last_success_timestamp_seconds (Unix seconds, only when
// o.LastSuccess is set) and eksdoctor_build_info{version,goversion} = 1. Errors: a registration
// conflict (a bug).
func Metrics(s *Scan, o MetricsOptions) (*prometheus.Registry, error) {
	reg := prometheus.NewPedanticRegistry()
	findings := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricFindings,
		Help: "Findings of the last scan, by check, severity and status."}, []string{"check", "severity", "status"})
	type key struct{ check, severity, status string }
	counts := map[key]int{}
	add := func(fs []checks.Finding) {
		for _, f := range fs {
			counts[key{f.ID, string(f.Severity), string(f.Status)}]++
		}
	}
	add(s.ClusterFindings)
	for _, r := range s.Fleet.Instances {
		add(r.Findings)
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].check+keys[i].status < keys[j].check+keys[j].status })
	for _, k := range keys {
		findings.WithLabelValues(k.check, k.severity, k.status).Set(float64(counts[k]))
	}
	gauge := func(name, help string, v float64) prometheus.Gauge {
		g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
		g.Set(v)
		return g
	}
	cs := []prometheus.Collector{findings,
		gauge(MetricDuration, "Wall time of the last scan in seconds.", s.DurationSeconds),
		gauge(MetricErrors, "Errors outside the checks in the last scan (collection, publishing).", float64(len(s.Errors))),
	}
	if s.Fleet.NodesUnread == "" && s.ClusterInconclusive == "" {
		// unknown when the Nodes could not be read: left out, so an "unjoined > 0" alert does
		// not fire on instances whose state nothing showed (eksdoctor_scan_errors says why)
		cs = append(cs, gauge(MetricUnjoined, "Running instances of the cluster without a Node object.", float64(s.Summary.UnjoinedCount())))
	}
	if !o.LastSuccess.IsZero() {
		cs = append(cs, gauge(MetricLastSuccess, "Unix time of the end of the last scan without errors.", float64(o.LastSuccess.UnixNano())/1e9))
	}
	bi := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: MetricBuildInfo, Help: "eksdoctor build information; the value is always 1."}, []string{"version", "goversion"})
	bi.WithLabelValues(o.Version, runtime.Version()).Set(1)
	cs = append(cs, bi)
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// WriteMetricsText writes what g gathers in the Prometheus text exposition format (the
// textfile collector's format) through expfmt. Errors: gathering or writing.
func WriteMetricsText(w io.Writer, g prometheus.Gatherer) error {
	mfs, err := g.Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	return nil
}

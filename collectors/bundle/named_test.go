package bundle

import (
	"bytes"
	"testing"
	"time"
)

// TestCollectionTimeFromCollectorName: the EKS log collector writes when it ran into its
// archive's name. Members written at 16:00 of 2026-07-24 (tarGz) agree with a name of 16:00
// that day and keep their second; a name of 2020 (the bundle extracted and packed again years
// later) gives the end of its named minute, and Windows names give their second. A name
// without a time keeps the members' time.
func TestCollectionTimeFromCollectorName(t *testing.T) {
	data := tarGz(t, entry{name: "kubelet/kubelet.log", body: unauthorized})
	for _, c := range []struct {
		name string
		want time.Time
	}{
		{"eks_i-0a1b2c3d4e5f60001_2026-07-24_1600-UTC_0.7.9.tar.gz", time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)},
		{"eks_i-0a1b2c3d4e5f60001_2020-05-01_1200-UTC_0.6.2.tar.gz", time.Date(2020, 5, 1, 12, 0, 59, 0, time.UTC)},
		{"/tmp/case 7/eks_i-0a1b2c3d4e5f60001_20200501T1200410000Z.tar.gz", time.Date(2020, 5, 1, 12, 0, 41, 0, time.UTC)},
		{"node-logs.tar.gz", time.Date(2026, 7, 24, 16, 0, 0, 0, time.UTC)},
	} {
		b, err := ReadTarGz(bytes.NewReader(data), c.name, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !b.Newest.Equal(c.want) {
			t.Errorf("%s: collected %s, want %s", c.name, b.Newest, c.want)
		}
	}
}

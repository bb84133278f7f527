package snapshot

import (
	"strings"
	"testing"
)

// TestTimeOutOfRangeIsNamed: a timestamp in the form of RFC 3339 whose field is out of range is
// named as such, with the field: second 60 (a leap second, which neither Go's time nor any AWS
// or Kubernetes output holds), hour 25, February 30. It was "not ISO 8601" (red team 15).
func TestTimeOutOfRangeIsNamed(t *testing.T) {
	for in, want := range map[string]string{
		`"2026-07-24T09:31:60+00:00"`:   "second 60",
		`"2016-12-31T23:59:60Z"`:        "second 60",
		`"2026-07-24T25:31:00Z"`:        "its hour is out of range",
		`"2026-02-30T09:31:00.5Z"`:      "its day is out of range",
		`"2026-07-24 09:31:60"`:         "second 60",
		`"2026-07-24T09:31:00+25:00"`:   "its time zone offset hour is out of range",
		`"yesterday"`:                   "is not ISO 8601",
		`"2026-07-24T09:31:00.5+0000x"`: "is not ISO 8601",
	} {
		var v Time
		err := v.UnmarshalJSON([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", in, err, want)
		}
		if want != "is not ISO 8601" && err != nil && strings.Contains(err.Error(), "not ISO 8601") {
			t.Errorf("%s: %v; the form is ISO 8601, a field is out of range", in, err)
		}
	}
}

package redact

import (
	"strings"
	"testing"
)

// FuzzRedact: no panic, idempotent, and a secret assigned in any input is gone.
func FuzzRedact(f *testing.F) {
	f.Add("export AWS_SECRET_ACCESS_KEY=abc123XYZ")
	f.Add("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlLXNpZw")
	f.Add("TUlNRS1WZXJzaW9uOiAxLjAKQ29udGVudC1UeXBlOiB0ZXh0L3BsYWlu")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 64<<10 {
			return
		}
		once := String(s)
		if twice := String(once); twice != once {
			t.Fatalf("not idempotent:\n%q\n%q", once, twice)
		}
		const v = "Zq9Secret4Fuzz7Value"
		if out := String(s + "\nDB_PASSWORD=" + v + "\n"); strings.Contains(out, v) {
			t.Fatalf("assigned secret kept: %q", out)
		}
	})
}

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
	f.Add(`https://b.s3.amazonaws.com/a?X-Amz-Security-Token=IQoJb3&X-Amz-Signature=beef01: 403`)
	f.Add(`cfg={\"Secret\u0041ccessKey\": \"abc123XYZ\"} q=aws_secret_access_key%3Dabc%2F1`)
	f.Add("mysql -uroot -pabc123 ghp_abcdefghij0123456789 xoxb-1-abc abcdef.0123456789abcdef")
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

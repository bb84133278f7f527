package logscan

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestAuthenticatorDenialFacts: the authenticator's "access denied" lines, as logrus writes
// them in the control plane's authenticator log stream, give auth.authenticator-denied the
// refused ARN and the authenticator's reason. Releases before v0.7.7 say "ARN is not mapped",
// later ones "identity is not mapped" (pkg/errutil); a token that fails STS verification is
// refused before any ARN is known, so only the reason is quoted.
func TestAuthenticatorDenialFacts(t *testing.T) {
	for _, tc := range []struct {
		line, arn, detail string
	}{
		{`time="2021-10-18T21:17:08Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/NodeRole" client="127.0.0.1:40378" error="ARN is not mapped" method=POST path=/authenticate`,
			"arn:aws:iam::111122223333:role/NodeRole", "ARN is not mapped"},
		{`time="2026-07-14T10:02:11Z" level=warning msg="access denied" arn="arn:aws:iam::111122223333:role/NodeRole" client="127.0.0.1:51234" error="identity is not mapped" method=POST path=/authenticate`,
			"arn:aws:iam::111122223333:role/NodeRole", "identity is not mapped"},
		{`time="2026-07-14T10:02:12Z" level=warning msg="access denied" client="127.0.0.1:51236" error="input token was not properly formatted: X-Amz-Date parameter is expired (15 minute expiration) 20260714T094500Z" method=POST path=/authenticate`,
			"", "input token was not properly formatted: X-Amz-Date parameter is expired (15 minute expiration) 20260714T094500Z"},
	} {
		s := MustDefault()
		if err := s.Scan(strings.NewReader(tc.line+"\n"), "authenticator", "authenticator"); err != nil {
			t.Fatal(err)
		}
		var hit *evidence.SignatureHit
		hits := s.Result("authenticator").Hits
		for i := range hits {
			if hits[i].Finding == "auth.authenticator-denied" {
				hit = &hits[i]
			}
		}
		if hit == nil {
			t.Fatalf("%q: no auth.authenticator-denied hit", tc.line)
		}
		if got := strings.Join(hit.Facts["roleArn"], ","); got != tc.arn {
			t.Errorf("%q: roleArn %q, want %q", tc.line, got, tc.arn)
		}
		if got := strings.Join(hit.Facts["detail"], ","); got != tc.detail {
			t.Errorf("%q: detail %q, want %q", tc.line, got, tc.detail)
		}
	}
}

package ingest

import "regexp"

// reRustDiagnostic matches the phrases in which Rust's serde and toml crates quote tokens, field
// and variant names in backticks ("expected `.`, `=`", "unknown field `x`, expected one of `a`,
// `b`", "missing field `x`", "invalid type: string \"1\", expected `true` or `false`"). Bottlerocket's
// early-boot-config, apiserver and settings tools print these errors as they are, so backticks in
// them are the component's quoting, not Markdown inline code.
var reRustDiagnostic = regexp.MustCompile("(?:expected(?: one of)?|unknown field|unknown variant|missing field|duplicate field|duplicate key|unexpected)\\s+`[^`]*`(?:(?:,\\s*|\\s+or\\s+)`[^`]*`)*")

// withoutRustDiagnostics removes those phrases from a line, so what is left shows whether the
// line still holds Markdown inline code.
func withoutRustDiagnostics(s string) string {
	return reRustDiagnostic.ReplaceAllString(s, "")
}

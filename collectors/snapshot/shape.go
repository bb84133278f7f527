package snapshot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// checkShape reports whether one JSON document of the file at snapshot path p has the shape of
// the command output the layout puts there: for AWS CLI output, an object holding the output's
// top-level key with a value ("RouteTables"); for kubectl output, an object of the expected kind
// (or a List of them) with metadata. null, {}, "hello", arrays and objects of another command
// are rejected with a message naming the command and what the file holds. Paths outside the
// layout are not checked. It also returns the name of the next-page token the document
// carries ("" for none, see nextPage).
func checkShape(p string, raw json.RawMessage) (string, error) {
	e, ok := layout.Match(p)
	if !ok {
		return "", nil
	}
	var top map[string]rawRef
	if err := json.Unmarshal(raw, &top); err != nil || top == nil {
		return "", fmt.Errorf("not the output of `%s`: expected a JSON object, got %s", e.Command, describeJSON(raw))
	}
	if strings.HasPrefix(e.Path, "kube/") {
		return kubeNextPage(top), checkKubeShape(e, top)
	}
	v, ok := lookupFold(top, e.PasteKey)
	if !ok || isNull(v) {
		return "", fmt.Errorf("not the output of `%s`: expected a JSON object with %q, got %s", e.Command, e.PasteKey, describeJSON(raw))
	}
	if n, _, _ := listItems(v, MaxListItems); n > MaxListItems {
		return "", errTooManyItems{fmt.Sprintf("%q holds more than the %d items eksdoctor reads in a list; skipped (a real one that long is over the file size limit)", e.PasteKey, MaxListItems)}
	}
	return awsNextPage(top), nil
}

// awsPageKeys are the output tokens of the AWS CLI's paginators for the operations a snapshot
// holds (botocore's paginators-1.json, "output_token"): NextToken (EC2, Auto Scaling,
// CloudTrail), nextToken (EKS's list operations), Marker (IAM's lists, with IsTruncated) and
// NextMarker. The AWS CLI drops the token when it reads every page; an output that still holds
// a non-empty one stops at that page (--max-items, --no-paginate, or one API call saved).
var awsPageKeys = []string{"NextToken", "nextToken", "Marker", "NextMarker"}

// awsNextPage returns the name of the non-empty next-page token at the top of an AWS CLI
// output, or "".
func awsNextPage(top map[string]rawRef) string {
	for _, k := range awsPageKeys {
		if v, ok := top[k]; ok {
			var tok string
			if json.Unmarshal(v, &tok) == nil && tok != "" {
				return k
			}
		}
	}
	return ""
}

// kubeNextPage returns "continue" or "remainingItemCount" when a kubectl List's metadata says
// more items follow (metav1.ListMeta: a non-empty continue token, or remainingItemCount > 0, as
// `kubectl get --chunk-size` or an API list with limit leaves them), or "".
func kubeNextPage(top map[string]rawRef) string {
	m, ok := top["metadata"]
	if !ok {
		return ""
	}
	var md struct {
		Continue           any `json:"continue"`
		RemainingItemCount any `json:"remainingItemCount"`
	}
	if json.Unmarshal(m, &md) != nil {
		return ""
	}
	if c, ok := md.Continue.(string); ok && c != "" {
		return "continue"
	}
	if n, ok := md.RemainingItemCount.(float64); ok && n > 0 {
		return "remainingItemCount"
	}
	return ""
}

// shaped returns doc when it has the shape of the command output the layout puts at p
// (checkShape), else the command's output rebuilt from it when it is that output narrowed by a
// --query (`aws ec2 describe-instances --query 'Reservations[].Instances[]'`, `aws eks
// describe-cluster --query cluster`: layout.Entry.Rewrap), else checkShape's error. next is the
// name of the next-page token the document carries ("" for none).
func shaped(p string, doc json.RawMessage) (out json.RawMessage, next string, err error) {
	next, err = checkShape(p, doc)
	if err == nil {
		return doc, next, nil
	}
	if _, long := err.(errTooManyItems); long {
		return nil, "", err // not worth decoding whole to see whether it is a part of the output
	}
	e, ok := layout.Match(p)
	if !ok || strings.HasPrefix(e.Path, "kube/") {
		return nil, "", err
	}
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return nil, "", err
	}
	full, ok := e.Rewrap(v)
	if !ok {
		return nil, "", err
	}
	b, merr := json.Marshal(full)
	if merr != nil {
		return nil, "", err
	}
	return b, "", nil
}

// checkKubeShape accepts an object of the entry's kind, or a List ("List" or "<Kind>List")
// whose items are objects. A document without "kind" must at least carry metadata.
func checkKubeShape(e layout.Entry, top map[string]rawRef) error {
	want, _, _ := strings.Cut(e.PasteKey, "/")
	var kind string
	if k, ok := top["kind"]; ok {
		if err := json.Unmarshal(k, &kind); err != nil {
			return fmt.Errorf("not the output of `%s`: \"kind\" is %s, not a string", e.Command, describeJSON(k))
		}
	}
	if legacy := legacyKind[want]; legacy != "" && (kind == legacy || kind == legacy+"List") {
		want = legacy
	}
	switch kind {
	case want:
		return nil
	case "List", want + "List":
		it, ok := top["items"]
		if !ok || isNull(it) {
			return nil
		}
		n, bad, first := listItems(it, MaxListItems)
		switch {
		case n < 0:
			return fmt.Errorf("not the output of `%s`: a %s whose \"items\" is %s, not a list", e.Command, kind, describeJSON(it))
		case n > MaxListItems:
			return fmt.Errorf("a %s of more than the %d items eksdoctor reads in a list; skipped (a real one that long is over the file size limit)", kind, MaxListItems)
		case bad > 0:
			return fmt.Errorf("not the output of `%s`: item %d of the %s is %s, not an object", e.Command, bad, kind, describeJSON(first))
		}
		return nil
	case "":
		if m, ok := top["metadata"]; ok && bytes.HasPrefix(bytes.TrimSpace(m), []byte("{")) {
			return nil
		}
		return fmt.Errorf("not the output of `%s`: expected a Kubernetes %s (an object with kind and metadata), got %s", e.Command, want, describeObject(top))
	}
	return fmt.Errorf("not the output of `%s`: expected kind %s, got kind %s", e.Command, want, kind)
}

// legacyKind is the earlier name of a kind a layout file may hold: Karpenter before v0.32
// called the EC2NodeClass an AWSNodeTemplate (karpenter.k8s.aws/v1alpha1), and v0.28–v0.31 called
// the NodeClaim a Machine (karpenter.sh/v1alpha5; kubernetes-sigs/karpenter v0.29.0
// pkg/apis/v1alpha5/machine.go).
var legacyKind = map[string]string{"EC2NodeClass": "AWSNodeTemplate", "NodeClaim": "Machine"}

// lookupFold finds key as encoding/json matches struct fields: exactly, else case-insensitively.
func lookupFold(m map[string]rawRef, key string) (rawRef, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

// describeJSON names what a JSON value is, briefly: null, a string, a number, an array of N,
// an empty object or an object with its first keys.
func describeJSON(raw []byte) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '[':
		var a []rawRef
		if json.Unmarshal(t, &a) == nil {
			return fmt.Sprintf("an array of %d", len(a))
		}
		return "an array"
	case '{':
		var m map[string]rawRef
		if json.Unmarshal(t, &m) == nil {
			return describeObject(m)
		}
		return "an object"
	}
	return "a number"
}

func describeObject(m map[string]rawRef) string {
	if len(m) == 0 {
		return "an empty object {}"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	more := ""
	if len(keys) > 5 {
		more = fmt.Sprintf(" and %d more", len(keys)-5)
		keys = keys[:5]
	}
	for i, k := range keys {
		if len(k) > 40 {
			keys[i] = k[:40] + "…"
		}
	}
	return fmt.Sprintf("an object with keys %s%s", strings.Join(keys, ", "), more)
}

// rawRef is a JSON value left undecoded, referring into the document being checked instead of
// copying it as json.RawMessage does: checking the shape of a 64 MiB file allocates nothing
// of its size. Valid only while that document's bytes are (they are never modified).
type rawRef []byte

// UnmarshalJSON keeps a reference to data; encoding/json passes a slice of the input it was
// given, which the caller keeps alive and unmodified.
func (r *rawRef) UnmarshalJSON(data []byte) error {
	*r = data
	return nil
}

// MaxListItems caps the items of one list in a snapshot file: a kubectl List's "items", an AWS
// CLI output's top-level list ("Subnets", "Reservations"). A longer list is an input problem and
// its evidence a gap. Real lists stay far below it: a Node or a CSR as kubectl prints it is over
// a kilobyte and an AWS CLI item hundreds of bytes, so 100,000 of them exceed the 64 MiB file
// cap (DefaultLimits.MaxFileBytes); the cap bounds what tiny items (`{}`) cost, every item read
// being held as evidence (red team 8b #21: 20 million empty Node items, 1.4–1.75 GB).
const MaxListItems = 100_000

// errTooManyItems is a list of more than MaxListItems items.
type errTooManyItems struct{ msg string }

func (e errTooManyItems) Error() string { return e.msg }

// listItems counts the items of the JSON array raw (already valid JSON) without decoding them,
// stopping after limit+1. It returns -1 when raw is not an array; bad is the 1-based position of
// the first item that is not an object (0 for none) and first that item's bytes.
func listItems(raw []byte, limit int) (n, bad int, first []byte) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '[' {
		return -1, 0, nil
	}
	depth, inStr, expect, badStart := 0, false, true, -1 // depth: nesting inside the array
	for i := 1; i < len(t); i++ {
		c := t[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if depth == 0 {
			if c == ']' || c == ',' {
				if badStart >= 0 && first == nil {
					first = t[badStart:i]
				}
				if c == ']' {
					break
				}
				expect = true
				continue
			}
			if expect {
				expect = false
				if n++; n > limit {
					return n, bad, first
				}
				if c != '{' && bad == 0 {
					bad, badStart = n, i
				}
			}
		}
		switch c {
		case '"':
			inStr = true
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
	}
	return n, bad, first
}

package awsapi

import (
	"encoding/json"
	"net/url"
	"strings"
	"unicode"
)

// mapValuedKeys are fields whose values are user maps (tags, labels): their keys are data and
// keep their spelling when EKS output is turned to camelCase.
var mapValuedKeys = map[string]bool{"Tags": true, "Labels": true, "tags": true, "labels": true}

// cliJSON renders an SDK output struct the way the AWS CLI v2 prints it: nil fields and the
// SDK's ResultMetadata omitted, timestamps in RFC 3339, IAM policy documents decoded into
// objects, keys PascalCase (EC2, IAM, Auto Scaling) or camelCase (EKS, camel=true), four-space
// indentation. It returns the JSON bytes; a marshalling error is returned as is.
func cliJSON(v any, camel bool) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, err
	}
	tree = clean(tree, camel, "")
	b, err := json.MarshalIndent(tree, "", "    ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToLower(r[0])
	return string(r)
}

func clean(v any, camel bool, parent string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			if x == nil || k == "ResultMetadata" {
				continue
			}
			if mapValuedKeys[parent] {
				out[k] = x
				continue
			}
			if k == "AssumeRolePolicyDocument" || k == "PolicyDocument" && !camel {
				if s, ok := x.(string); ok {
					x = decodePolicy(s, k == "AssumeRolePolicyDocument")
				}
			}
			name := k
			if camel {
				name = lowerFirst(k)
			}
			out[name] = clean(x, camel, k)
		}
		return out
	case []any:
		for i := range t {
			t[i] = clean(t[i], camel, "")
		}
		return t
	}
	return v
}

// decodePolicy turns IAM's URL-encoded policy text into the object the CLI prints. VPC endpoint
// policies (object=false) stay JSON text, as the CLI prints them.
func decodePolicy(s string, object bool) any {
	if !object {
		return s
	}
	dec := s
	if !strings.HasPrefix(strings.TrimSpace(s), "{") {
		if d, err := url.QueryUnescape(s); err == nil {
			dec = d
		}
	}
	var doc any
	if err := json.Unmarshal([]byte(dec), &doc); err != nil {
		return s
	}
	return doc
}

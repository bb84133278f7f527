package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
)

// streamPages returns the items of js when it is a list whose every item is, on its own, the
// whole output the path's command writes: `--output yaml-stream` (aws-cli v2
// awscli/formatter.py StreamedYAMLFormatter dumps each page as a list of one response, so the
// pages of a paginated call are such a list). ok is false for anything else (a projection, a
// kubectl file).
func streamPages(p string, js []byte) ([]json.RawMessage, bool) {
	e, ok := layout.Match(p)
	if !ok || strings.HasPrefix(e.Path, "kube/") {
		return nil, false
	}
	var items []json.RawMessage
	if json.Unmarshal(js, &items) != nil || len(items) == 0 {
		return nil, false
	}
	for _, it := range items {
		if t := strings.TrimSpace(string(it)); !strings.HasPrefix(t, "{") {
			return nil, false
		}
		if _, err := checkShape(p, it); err != nil {
			return nil, false
		}
	}
	return items, true
}

// maxJSONDepth is encoding/json's nesting limit (ingest.MaxJSONDepth says the same for pastes).
const maxJSONDepth = 10000

// typeMessage rewrites a JSON type error of the document of the file at snapshot path p (a field of another type than
// the command's output gives it) as what it means: the field, what it holds and the shape
// expected. A scalar where an object or list belongs is what a --query projection that kept a
// field's name for one value inside it writes ({State:State.Name}). A document nested past
// maxJSONDepth is named with the limit. Other errors are returned as they are.
func typeMessage(p string, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.HasSuffix(se.Error(), "exceeded max depth") {
		// encoding/json stops past maxNestingDepth (src/encoding/json/scanner.go); no AWS CLI
		// or kubectl output nests more than a few dozen levels
		return fmt.Errorf("JSON too deeply nested to read: more than %d levels of objects and arrays, the reader's limit, reached at byte %d", maxJSONDepth, se.Offset)
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	field := te.Field
	if field == "" {
		field = "the document"
	} else {
		field = "field " + field
	}
	cmd := "the command"
	if e, ok := layout.Match(p); ok && e.Command != "" {
		cmd = "`" + e.Command + "`"
	}
	if num, isNum := strings.CutPrefix(te.Value, "number "); isNum && goShape(te.Type) == "a number" {
		// a number where a number belongs, but one the field cannot hold: say which and why
		return fmt.Errorf("%s is the number %.40s, which is not %s as %s writes there; collect it again with --output json and no --query", field, num, numberRange(te.Type), cmd)
	}
	msg := fmt.Sprintf("%s is %s where %s writes %s", field, jsonKind(te.Value), cmd, goShape(te.Type))
	if k := te.Type.Kind(); (k == reflect.Struct || k == reflect.Map || k == reflect.Slice) && te.Value != "object" && te.Value != "array" {
		msg += ": a --query projection that kept the field's name for one value inside it ({State:State.Name}, {IamInstanceProfile:IamInstanceProfile.Arn})? collect it again without --query, or keep such fields whole"
	} else {
		msg += "; collect it again with --output json and no --query"
	}
	return errors.New(msg)
}

// numberRange names the numbers a Go number type holds: "a whole number from 0 to 255", "a
// whole number from -2147483648 to 2147483647", or "a number a 64-bit float holds".
func numberRange(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b := t.Bits()
		return fmt.Sprintf("a whole number from %d to %d", int64(-1)<<(b-1), int64(1)<<(b-1)-1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("a whole number from 0 to %d", uint64(1)<<(t.Bits()-1)*2-1)
	}
	return fmt.Sprintf("a number a %d-bit float holds", t.Bits())
}

// jsonKind names the JSON kind encoding/json reports for a value ("string", "number",
// "object", "array", "bool"), with its article.
func jsonKind(v string) string {
	switch {
	case v == "object" || v == "array":
		return "an " + v
	case v == "bool":
		return "true or false"
	case strings.HasPrefix(v, "number"):
		return "a number"
	case v == "":
		return "a value of another type"
	}
	return "a " + v
}

// goShape names the JSON shape a Go type decodes from: an object, a list, a string, a number.
func goShape(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if t.Kind() == reflect.Struct && t.NumField() > 0 {
			var keys []string
			for i := 0; i < t.NumField() && len(keys) < 3; i++ {
				if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
					keys = append(keys, fmt.Sprintf("%q", name))
				}
			}
			if len(keys) > 0 {
				return "an object (" + strings.Join(keys, ", ") + ", …)"
			}
		}
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}

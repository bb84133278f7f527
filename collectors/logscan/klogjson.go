package logscan

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// klogJSONMarks are what a line must hold to be tried as a component-base JSON record (its
// numeric epoch time, its caller and message); hasEpochTS is looked for in a whole block before
// any line is: other loggers' JSON (IPAMD, Karpenter v1, nodeadm) dates records with a string,
// so their logs are not walked line by line.
var klogJSONMarks = [][]byte{[]byte(`"msg"`), []byte(`"caller"`)}

// epochTSMarks are how a "ts" key with an epoch time (seconds or milliseconds since 1970: a
// digit 1 for 2001-2033) starts, as zap writes it and as a pretty-printer does.
var epochTSMarks = [][]byte{[]byte(`"ts":1`), []byte(`"ts": 1`)}

// hasEpochTS reports whether b holds a "ts" key whose value is an epoch time.
func hasEpochTS(b []byte) bool {
	for _, m := range epochTSMarks {
		if bytes.Contains(b, m) {
			return true
		}
	}
	return false
}

// mayHoldKlogJSON reports whether b holds what a component-base JSON record does: an epoch "ts"
// and every one of klogJSONMarks.
func mayHoldKlogJSON(b []byte) bool {
	if !hasEpochTS(b) {
		return false
	}
	for _, m := range klogJSONMarks {
		if !bytes.Contains(b, m) {
			return false
		}
	}
	return true
}

// otherJSONMarks are keys of other loggers' records (IPAMD, Karpenter, nodeadm write a level):
// a line holding one is not decoded, which keeps the scan of their logs one pass.
var otherJSONMarks = [][]byte{[]byte(`"level"`), []byte(`"lvl"`), []byte(`"severity"`)}

// textForms rewrites, line by line, the component-base JSON records of block into their text
// form (TextForm); a block holding none is returned as it is. Each line stays one line, so
// line numbers are kept.
func textForms(block []byte) []byte {
	if !mayHoldKlogJSON(block) {
		return block
	}
	var out []byte
	rest, done := block, 0
	for len(rest) > 0 {
		nl := bytes.IndexByte(rest, '\n')
		line := rest
		if nl >= 0 {
			line = rest[:nl]
		}
		off := len(block) - len(rest)
		if t := TextForm(line); len(t) != len(line) || !bytes.Equal(t, line) {
			out = append(out, block[done:off]...)
			out = append(out, t...)
			done = off + len(line)
		}
		if nl < 0 {
			break
		}
		rest = rest[nl+1:]
	}
	if out == nil {
		return block
	}
	return append(out, block[done:]...)
}

// TextForm returns line as the kubelet's text logging prints it when line holds one record of
// its JSON logging (--logging-format=json, Kubernetes 1.19+): the JSON encoder of
// k8s.io/component-base/logs/json (a zap encoder with TimeKey "ts" in epoch milliseconds,
// CallerKey "caller", MessageKey "msg", NameKey "logger" and no level key; zapr adds "v" to
// info records and "err" to error records; klog.KObj values are {"name":…,"namespace":…}),
// https://github.com/kubernetes/component-base/blob/v0.30.0/logs/json/json.go. The text
// form is `TIME CALLER] "msg" key="value" …` as klog's structured text prints the keys
// (https://github.com/kubernetes/klog/blob/v2.120.1/internal/serialize/keyvalues.go): TIME is
// "ts" in RFC 3339 (UTC), strings stay quoted, a KObj is "namespace/name", numbers, booleans,
// lists and other objects are printed as their JSON; "v" is dropped. What precedes the record
// on the line (a journal prefix) is kept.
//
// Any other line — not JSON, a record with a level key (IPAMD, Karpenter, nodeadm, whose
// signatures read their JSON), without a numeric "ts" or a string "msg" — is returned as it is.
func TextForm(line []byte) []byte {
	if !mayHoldKlogJSON(line) {
		return line
	}
	for _, m := range otherJSONMarks {
		if bytes.Contains(line, m) {
			return line
		}
	}
	at := bytes.IndexByte(line, '{')
	if at < 0 {
		return line
	}
	body := bytes.TrimRight(line[at:], " \r\t")
	if len(body) < 2 || body[len(body)-1] != '}' {
		return line
	}
	type kv struct {
		key string
		val json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return line
	}
	var (
		fields      []kv
		ts          float64
		haveTS      bool
		caller, msg json.RawMessage
	)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return line
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return line
		}
		switch key {
		case "level", "lvl", "severity", "L", "time", "timestamp", "message":
			return line // another logger's record
		case "ts":
			f, err := strconv.ParseFloat(string(val), 64)
			if err != nil {
				return line
			}
			ts, haveTS = f, true
		case "caller":
			caller = val
		case "msg":
			msg = val
		case "v":
		default:
			fields = append(fields, kv{key, val})
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') || dec.More() {
		return line
	}
	if !haveTS || len(msg) == 0 || msg[0] != '"' {
		return line
	}
	out := make([]byte, 0, len(line))
	out = append(out, line[:at]...)
	out = append(out, epochTime(ts).Format("2006-01-02T15:04:05.999999Z07:00")...)
	var c string
	if json.Unmarshal(caller, &c) == nil && c != "" {
		out = append(out, ' ')
		out = append(out, c...)
		out = append(out, ']')
	}
	out = append(out, ' ')
	out = append(out, msg...)
	for _, f := range fields {
		out = append(out, ' ')
		out = append(out, f.key...)
		out = append(out, '=')
		out = append(out, textValue(f.val)...)
	}
	return out
}

// epochTime reads a zap epoch time: milliseconds (component-base's encoder), or seconds when
// the number is too small to be milliseconds since 1973.
func epochTime(f float64) time.Time {
	if f < 1e11 {
		f *= 1000
	}
	ms := math.Floor(f)
	return time.UnixMilli(int64(ms)).Add(time.Duration(math.Round((f-ms)*1e3)) * time.Microsecond).UTC()
}

// textValue is a JSON value as klog's text form prints it: a klog.KObj ({"name":…} with an
// optional "namespace") as the quoted "namespace/name", anything else as its compact JSON
// (a string stays quoted, with its escapes).
func textValue(v json.RawMessage) []byte {
	if len(v) > 0 && v[0] == '{' {
		var ref map[string]any
		if json.Unmarshal(v, &ref) == nil {
			name, ok := ref["name"].(string)
			ns, nsOK := ref["namespace"].(string)
			if ok && (len(ref) == 1 || len(ref) == 2 && nsOK) {
				if ns != "" {
					name = ns + "/" + name
				}
				q, _ := json.Marshal(name)
				return q
			}
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

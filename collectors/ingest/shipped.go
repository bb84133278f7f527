package ingest

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// reShipColumns are the columns a log pipeline's output puts before a JSON record, and the
// record: the event's time (ISO 8601 with a "T" or a space, with or without a zone), then
// optionally a tag or log stream name, each followed by a tab, a comma or spaces. Shapes:
//   - the CloudWatch console's copy of log events: "2026-11-24T10:01:01.000Z<TAB>{…}";
//   - Fluentd's stdout and file output (out_stdout, out_file's default out_file format:
//     time, tag and record, tab-separated): "2026-11-24T10:01:01.000+00:00<TAB>TAG<TAB>{…}";
//   - a CloudWatch Logs Insights CSV export (@timestamp,@logStream,@message), its quoted field
//     already undoubled (undoubleCSV): `2026-11-24 10:01:01.000,STREAM,"{…}"`.
var reShipColumns = regexp.MustCompile(`^(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?)(?:\t|,| +)(?:([\w.@/:-]+)(?:\t|,| +))?("?\{.*)$`)

// reNodeHost is an EC2 host name in a tag or log stream name (Container Insights names its
// dataplane streams after the host: https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/Container-Insights-setup-logs-FluentBit.html):
// IP-based (ip-10-0-1-23, with its DNS suffix) or resource-based (i-0123456789abcdef0).
var reNodeHost = regexp.MustCompile(`\b(?:ip-\d{1,3}(?:-\d{1,3}){3}|i-[0-9a-f]{8,17})(?:\.[a-z0-9-]+)*\.(?:internal|compute\.internal)\b|\bip-\d{1,3}(?:-\d{1,3}){3}\b`)

// reUnitName is a systemd unit's name ("kubelet.service", "init.scope").
var reUnitName = regexp.MustCompile(`^[\w@-]+\.(?:service|scope)$`)

// shippedRecord reads line l as a log shipper's record — a Fluent Bit or Fluentd record's
// "log", a journald entry shipped with its "systemd_unit" and "message" (Container Insights'
// dataplane records, Fluent Bit's systemd input), or a "message" that names its host —
// standing alone or after a pipeline's columns (reShipColumns). It returns the line the record
// carries, its JSON escapes undone once, written as journalctl's short-iso-precise output writes an
// entry when the record or its columns give a time and a host: "2026-11-24T10:01:01.123+0000
// HOST IDENT: MESSAGE" (the record's host as a journal line's host, its time with its year);
// the message alone otherwise. ok is false for any other line.
func shippedRecord(l string) (string, bool) {
	t := strings.TrimSpace(l)
	var stamp, tag string
	if m := reShipColumns.FindStringSubmatch(t); m != nil {
		stamp, tag, t = m[1], m[2], m[3]
		if strings.HasPrefix(t, `"`) {
			t = strings.TrimSuffix(t[1:], `"`) // a CSV field's quotes
		}
	}
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"log"`) && !strings.Contains(t, `"message"`) && !strings.Contains(t, `"MESSAGE"`) {
		return "", false
	}
	m, ok := cutRecord(t)
	if !ok {
		return "", false
	}
	msg, ok := recordMessage(m, stamp != "")
	if !ok {
		return "", false
	}
	msg = strings.ReplaceAll(strings.TrimRight(msg, "\r\n"), "\n", " ") // one record stays one line
	at := shipTime(stamp)
	if at.IsZero() {
		for _, k := range []string{"time", "@timestamp", "timestamp", "date"} {
			if s, isText := m[k].(string); isText {
				if at = shipTime(s); !at.IsZero() {
					break
				}
			}
		}
	}
	host := recordHost(m, tag)
	ident := recordIdent(m, strings.TrimSuffix(strings.TrimPrefix(tag, host+"-"), "-"+host))
	if at.IsZero() || host == "" || ident == "" {
		return msg, true
	}
	return at.Format("2006-01-02T15:04:05.000000-0700") + " " + host + " " + ident + ": " + msg, true
}

// recordMessage returns the text a record carries: a shipper's "log" (with its "stream", "time",
// "date", "kubernetes" or "@timestamp"), or a shipped journald entry's "message" or "MESSAGE"
// (with its unit or identifier, or, after a pipeline's columns, a host).
func recordMessage(m map[string]any, columns bool) (string, bool) {
	if l, ok := m["log"].(string); ok && hasAny(m, "stream", "time", "date", "kubernetes", "@timestamp") {
		return l, true
	}
	for _, k := range []string{"message", "MESSAGE"} {
		if l, ok := m[k].(string); ok && (hasAny(m, "systemd_unit", "_SYSTEMD_UNIT", "SYSLOG_IDENTIFIER") || columns && recordHost(m, "") != "") {
			return l, true
		}
	}
	return "", false
}

// recordHost returns the host a record was logged on: its "hostname" or "_HOSTNAME" (a
// journald entry as Container Insights or Fluent Bit's systemd input ships it), "host" (as
// Fluentd's and Vector's syslog and journald sources name it), kubernetes.host (Fluent Bit's and
// Fluentd's Kubernetes filters), or an EC2 host name in the tag or log stream name; "" when none.
func recordHost(m map[string]any, tag string) string {
	for _, k := range []string{"hostname", "_HOSTNAME", "host"} {
		if h, ok := m[k].(string); ok && h != "" && !strings.ContainsAny(h, " /:") {
			return h
		}
	}
	if k, ok := m["kubernetes"].(map[string]any); ok {
		if h, ok := k["host"].(string); ok && h != "" && !strings.ContainsAny(h, " /:") {
			return h
		}
	}
	return reNodeHost.FindString(tag)
}

// recordIdent returns the journal identifier of a record's line: its SYSLOG_IDENTIFIER with its
// _PID ("kubelet[2345]"), else its systemd unit ("kubelet.service"), else the unit its tag or log
// stream names once the host is taken off (Container Insights' "HOST-kubelet.service"); "" when
// none.
func recordIdent(m map[string]any, tag string) string {
	pid := ""
	switch p := m["_PID"].(type) {
	case string:
		pid = p
	case float64:
		pid = strconv.FormatFloat(p, 'f', -1, 64)
	}
	for _, k := range []string{"SYSLOG_IDENTIFIER", "syslog_identifier"} {
		if id, ok := m[k].(string); ok && id != "" && !strings.ContainsAny(id, " :[") {
			if pid != "" {
				return id + "[" + pid + "]"
			}
			return id
		}
	}
	for _, k := range []string{"systemd_unit", "_SYSTEMD_UNIT"} {
		if u, ok := m[k].(string); ok && reUnitName.MatchString(u) {
			return u
		}
	}
	if reUnitName.MatchString(tag) {
		return tag
	}
	return ""
}

// shipTime parses a pipeline's time column or a record's time field: ISO 8601 with a "T" or a
// space, a comma or dot before the fraction, a zone or none (UTC, as CloudWatch Logs Insights
// exports it); the zero time for anything else.
func shipTime(s string) time.Time {
	s = strings.Replace(strings.Replace(s, " ", "T", 1), ",", ".", 1)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// reCutEscape is an escape sequence a cut left unfinished at the end of a JSON string: a lone
// backslash or a \u with fewer than four hex digits.
var reCutEscape = regexp.MustCompile(`\\(?:u[0-9a-fA-F]{0,3})?$`)

// cutRecord decodes t as a JSON object, or, when a shipper's byte limit cut it inside a string
// value (a Fluent Bit buffer, a syslog forwarder: the closing quote and braces gone, red team
// round 9, finding 6), as the object with that string ending where the cut did. ok is false for
// anything else: a cut between tokens, or brackets that do not nest.
func cutRecord(t string) (map[string]any, bool) {
	var m map[string]any
	if json.Unmarshal([]byte(t), &m) == nil {
		return m, true
	}
	var closers []byte
	inStr, esc := false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{':
			closers = append(closers, '}')
		case c == '[':
			closers = append(closers, ']')
		case c == '}' || c == ']':
			if len(closers) == 0 || closers[len(closers)-1] != c {
				return nil, false
			}
			closers = closers[:len(closers)-1]
		}
	}
	if !inStr || len(closers) == 0 {
		return nil, false
	}
	if loc := reCutEscape.FindStringIndex(t); loc != nil {
		// the escape's backslash is the last unescaped one only when an odd run of them ends here
		if run := len(t[:loc[0]]) - len(strings.TrimRight(t[:loc[0]], "\\")); run%2 == 0 {
			t = t[:loc[0]]
		}
	}
	b := []byte(t + `"`)
	for i := len(closers) - 1; i >= 0; i-- {
		b = append(b, closers[i])
	}
	if json.Unmarshal(b, &m) != nil {
		return nil, false
	}
	return m, true
}

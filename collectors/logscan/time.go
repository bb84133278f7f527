package logscan

import (
	"bytes"
	"regexp"
	"strings"
	"time"
)

var (
	reJournal = regexp.MustCompile(`^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([ 0-9]\d) (\d\d:\d\d:\d\d(\.\d{1,9})?) `)
	reISO     = regexp.MustCompile(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:?\d\d))`)
	reEmbed   = regexp.MustCompile(`(?:"ts":"|"time":"|"timestamp":"|time=")(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:?\d\d))`)
	reKlog    = regexp.MustCompile(`^[IWEF](\d\d)(\d\d) (\d\d:\d\d:\d\d(\.\d{1,6})?) `)
	// reSpaced is a date and time without a zone, as Python's logging writes it (cloud-init.log:
	// "2026-06-02 22:05:56,903 - util.py[DEBUG]: …") and Go's log package ("2026/06/02 22:05:56 …").
	// reConsole is a time as the AWS consoles print it inside a copied table row: the EC2 Auto
	// Scaling activity table ("2025 April 29, 10:14:23 AM +02:00") and the newer consoles
	// ("April 29, 2025, 10:14:23 (UTC+02:00)").
	reConsole = regexp.MustCompile(`\b(?:\d{4} (?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{1,2}:\d\d:\d\d [AP]M [+-]\d\d:\d\d|(?:January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}, \d\d:\d\d:\d\d \(UTC[+-]\d\d:\d\d\))`)
	// reActivityCause is the time an Auto Scaling activity's cause starts with ("At
	// 2025-04-29T08:13:41Z an instance was started …"), in a copied console row or CLI text.
	reActivityCause = regexp.MustCompile(`\bAt (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) (?:an?|the) `)
	// reCloudInit is the time cloud-init prints in its stage banners ("Cloud-init v. 22.2.2
	// finished at Thu, 20 Nov 2026 09:31:50 +0000."), the only time such a console or
	// cloud-init-output.log line carries (cloudinit/cmd/main.py: welcome_format, and the
	// "finished at" message of status_wrapper's final stage).
	reCloudInit = regexp.MustCompile(`\bCloud-init v\. \S+ (?:running '[^']*'|finished) at ([A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4})`)
	// EC2Launch v1 writes its logs (UserdataExecution.log, Ec2Launch.log) in UTC with a "Z" and
	// a colon after the time ("2025/09/16 08:14:02Z: Userdata execution begins"; Write-Log in
	// its Module/Scripts), EC2Launch v2 its agent.log without a zone ("2025-12-17 21:40:15 Info: …").
	// reKlogInside is a whole klog header (severity, date, time to the microsecond, thread, file
	// and line) after text no other layout reads: the columns a table put before the message
	// (Get-WinEvent | Format-Table's "12/9/2025 11:26:48 AM  Information  I1209
	// 11:26:48.513072 3920 kubelet_node_status.go:78] …", whose own time, to the second in the
	// viewer's locale, cannot order two lines of one second).
	reKlogInside = regexp.MustCompile(`(?:^|\s)[IWEF](\d\d)(\d\d) (\d\d:\d\d:\d\d\.\d{6})\s+\d+ [\w.-]+\.go:\d+\] `)
	reSpaced     = regexp.MustCompile(`^(\d{4})[-/](\d\d)[-/](\d\d) (\d\d:\d\d:\d\d)(?:[.,](\d{1,9}))?(?:Z:? |[ ,]|$)`)
)

// ParseTime returns the timestamp a log line starts with, in UTC, or the zero time. It knows
// journal "short" and "short-precise" prefixes (no year: the year of ref is used, and the
// previous year when that would put the line more than a day after ref — the December→January
// rollover), RFC 3339 prefixes (CRI container logs, AL2 bootstrap output), klog headers and the
// "ts" / time= fields of VPC CNI JSON and containerd logfmt lines, and a zoneless
// "2006-01-02 15:04:05,000" (cloud-init.log, Python logging) or "2006/01/02 15:04:05" (Go's log
// package) prefix, read as UTC like the journal; failing those, a time the AWS consoles print in
// a copied table row, the "At …Z" an Auto Scaling activity's cause starts with, or the time
// cloud-init's stage banner prints ("running 'init' at Thu, 20 Nov 2026 09:31:41 +0000"). Journal text is taken to be in
// UTC, the default on EKS AMIs and Bottlerocket (docs/bundle-formats.md §0).
func ParseTime(line string, ref time.Time) time.Time {
	t, _ := parseTime(line, ref)
	return t
}

// Stamped reports whether line carries a timestamp of its own that ParseTime reads (with or
// without a year): a line that has none is dated only by what a reader put before it.
func Stamped(line string) bool {
	t, clock := parseTime(line, time.Time{})
	return !t.IsZero() || clock != 0
}

// parseTime is ParseTime that also returns, when the line's timestamp has no year and ref is
// zero (nothing gave it a year), its clock within an unnamed year (LogLine.Clock): nanoseconds
// since that year's start, plus one; 0 otherwise.
func parseTime(line string, ref time.Time) (time.Time, int64) {
	// an event log row exported as CSV (the Windows collector's kubelet-service.csv) starts with
	// its Message field's quote; Get-WinEvent writes the newest row first, so the lines' own
	// times, not their order, say what came later
	line = strings.TrimPrefix(line, `"`)
	if m := reJournal.FindStringSubmatch(line); m != nil {
		return withYear(m[1]+" "+strings.TrimSpace(m[2])+" "+m[3], "Jan 2 15:04:05.999999999", ref)
	}
	if m := reISO.FindStringSubmatch(line); m != nil {
		return iso(m[1]), 0
	}
	if m := reSpaced.FindStringSubmatch(line); m != nil {
		frac := ""
		if m[5] != "" {
			frac = "." + m[5]
		}
		return iso(m[1] + "-" + m[2] + "-" + m[3] + "T" + m[4] + frac + "Z"), 0
	}
	if m := reEmbed.FindStringSubmatch(line); m != nil {
		return iso(m[1]), 0
	}
	if m := reKlog.FindStringSubmatch(line); m != nil {
		return withYear(m[1]+" "+m[2]+" "+m[3], "01 02 15:04:05.999999", ref)
	}
	if m := reConsole.FindString(line); m != "" {
		for _, layout := range []string{"2006 January 2, 3:04:05 PM -07:00", "January 2, 2006, 15:04:05 (UTC-07:00)"} {
			if t, err := time.Parse(layout, m); err == nil {
				return t.UTC(), 0
			}
		}
	}
	if m := reActivityCause.FindStringSubmatch(line); m != nil {
		return iso(m[1]), 0
	}
	if m := reCloudInit.FindStringSubmatch(line); m != nil {
		if t, err := time.Parse(time.RFC1123Z, m[1]); err == nil {
			return t.UTC(), 0
		}
	}
	if m := reKlogInside.FindStringSubmatch(line); m != nil {
		return withYear(m[1]+" "+m[2]+" "+m[3], "01 02 15:04:05.999999", ref)
	}
	return time.Time{}, 0
}

func iso(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// withYear parses s (layout without a year) in ref's year — the previous year when that would
// put it more than a day after ref (the December→January rollover). With ref zero it returns the
// zero time and s's clock within an unnamed leap year (parseTime).
func withYear(s, layout string, ref time.Time) (time.Time, int64) {
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, 0
	}
	if ref.IsZero() {
		// time.Parse gives a year-less layout year 0, a leap year (Feb 29 parses)
		return time.Time{}, t.Sub(time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)).Nanoseconds() + 1
	}
	ref = ref.UTC()
	t = t.AddDate(ref.Year(), 0, 0)
	if t.After(ref.Add(24 * time.Hour)) {
		t = t.AddDate(-1, 0, 0)
	}
	return t, 0
}

// NewestDated returns the latest time a line of text carries with its year (ISO 8601, an
// embedded "ts"/"time" field, a Python or Go logging prefix, an AWS console time), or the zero
// time when no line has one. Only each line's first datedPrefix bytes are read, so the cost is
// bounded by the number of lines, not their length.
func NewestDated(text []byte) time.Time {
	var newest time.Time
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if len(line) > datedPrefix {
			line = line[:datedPrefix]
		}
		// no reference time: a year-less prefix gives nothing, so only dated lines count
		if t := ParseTime(string(line), time.Time{}); t.After(newest) {
			newest = t
		}
		if m := reJournalHeader.FindSubmatch(line); m != nil {
			// journalctl's header dates the year-less lines under it ("-- Logs begin at …,
			// end at Fri 2027-01-01 02:00:00 UTC. --"): their year, across New Year too
			if t, err := time.Parse("2006-01-02 15:04:05", string(m[1])); err == nil && t.After(newest) {
				newest = t
			}
		}
	}
	return newest
}

// reJournalHeader is the first line journalctl prints (systemd before 246: "-- Logs begin at
// Thu 2026-12-31 10:00:00 UTC, end at Fri 2027-01-01 02:00:00 UTC. --"; since: "-- Journal
// begins at …, ends at … --"), with the end time when it is in UTC.
var reJournalHeader = regexp.MustCompile(`^-- (?:Logs begin|Journal begins) at [A-Za-z]{3} \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, ends? at [A-Za-z]{3} (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC\.? --`)

// datedPrefix is how much of a line NewestDated reads for its time.
const datedPrefix = 160

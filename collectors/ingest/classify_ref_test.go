package ingest

import (
	"slices"
	"strings"
)

// classifyRef is classify as it was before the block index: it searches every part it cuts
// again for the places to cut it, and is quadratic in the parts. It is kept to check that
// classify reads every block as it did.
//
// classify reads one block (a fenced block, or the text between prompts) as segments. A block
// that is one structured document is read as that document; a fenced block that is not is log
// text; unfenced text is cut into paragraphs, each read as a document, a run of log lines, or prose.
func classifyRef(lines []line, fenced bool, command string) []Segment {
	lines = trimBlank(lines)
	if len(lines) == 0 {
		return nil
	}
	lines = withFailedRequest(lines, command)
	if before, body, after, ok := tfHeredocRef(lines); ok {
		// a value Terraform prints as a heredoc: the document inside it, read on its own
		out := classifyRef(before, fenced, command)
		out = append(out, classifyRef(dedent(body), false, "")...)
		return append(out, classifyRef(after, fenced, command)...)
	}
	if awsTextOutput(command) {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i].text) == "" {
				k := i
				for k < len(lines) && strings.TrimSpace(lines[k].text) == "" {
					k++
				}
				if k < len(lines) {
					return append(classifyRef(lines[:i], fenced, command), classifyRef(lines[i:], fenced, "")...)
				}
				break
			}
		}
	}
	if reYAMLish.MatchString(lines[0].text) || strings.TrimSpace(lines[0].text) == "---" {
		for i := 1; i < len(lines); i++ {
			// a sentence after a YAML document ("One or more Amazon EC2 Subnets of […] does not
			// … guide: https://…") is a message, not a key that happens to hold ": "
			if proseKey(lines[i].text) {
				return append(classifyRef(lines[:i], fenced, command), classifyRef(lines[i:], fenced, command)...)
			}
		}
	}
	for i := 1; i < len(lines); i++ {
		// a shell's error report under the bootstrap.sh command that printed it: the command
		// is the node's configuration, the report its output
		if reShellError.MatchString(lines[i].text) && reBootstrapCall.Match(joinLines(lines[:i])) {
			return append(classifyRef(lines[:i], fenced, command), seg(TypeLog, logDetail(lines[i:]), lines[i:]))
		}
	}
	for i := 1; i < len(lines); i++ {
		// kubectl output that starts after other lines (an error line above a table)
		if reTableHeader.MatchString(lines[i].text) || reDescribeName.MatchString(lines[i].text) && strings.TrimSpace(lines[i-1].text) == "" {
			return append(classifyRef(lines[:i], fenced, command), classifyRef(lines[i:], fenced, command)...)
		}
	}
	for i := 1; i < len(lines); i++ {
		// files put together with `cat f1 f2 …`: a document starts right under another
		if (lines[i-1].text == "}" || lines[i-1].text == "]") && (reManifestStart.MatchString(lines[i].text) || lines[i].text == "---") || yamlFirst(lines[0].text) && jsonStart(lines[i].text) {
			if segs, ok := structured(trimBlank(lines[:i]), command); ok && !unreadable(segs) && !slices.ContainsFunc(segs, notDocument) {
				return append(classifyRef(lines[:i], fenced, command), classifyRef(lines[i:], fenced, "")...)
			}
			break
		}
	}
	if d := secondManifestRef(lines); d > 0 {
		// two manifests with no "---" between them, perhaps with the poster's words between
		head, words := d, d
		e := d - 1
		for e > 0 && strings.TrimSpace(lines[e].text) == "" {
			e--
		}
		if e < d-1 {
			s := e
			for s > 0 && strings.TrimSpace(lines[s-1].text) != "" {
				s--
			}
			if s > 0 && separatorWords(lines[s:e+1]) {
				head, words = s, e+1
			}
		}
		if segs, ok := structured(trimBlank(lines[:head]), command); ok && !unreadable(segs) {
			out := classifyRef(lines[:head], fenced, command)
			if words > head {
				out = append(out, seg(TypeProse, "", lines[head:words]))
			}
			return append(out, classifyRef(lines[d:], fenced, "")...)
		}
	}
	if !fenced && (command == "" || logsCommand(command)) {
		if i, j := introSentenceRef(lines); j > 0 {
			// a sentence of the poster's between artefacts ("And here is another node that works
			// fine:"): the documents on either side are read apart, never as one
			out := classifyRef(lines[:i], false, "")
			out = append(out, seg(TypeProse, "", lines[i:j]))
			return append(out, classifyRef(lines[j:], false, "")...)
		}
	}
	if segs, ok := structured(lines, command); ok {
		if !logLine(lines[0].text) && structuredStart(lines) {
			for i := 1; i < len(lines); i++ {
				// a configuration document with a log pasted under it: the document ends there
				t := lines[i].text
				if t == "" || t[0] == ' ' || t[0] == '\t' || !strongLogLine(t) {
					continue
				}
				p := i - 1
				for p >= 0 && strings.TrimSpace(lines[p].text) == "" {
					p--
				}
				if p >= 0 && !logLine(lines[p].text) {
					if head, ok := structured(trimBlank(lines[:i]), command); ok {
						return append(head, classifyRef(lines[i:], fenced, "")...)
					}
					break
				}
			}
		}
		if cut := foreignAfterBlank(lines); cut > 0 && unreadable(segs) {
			// a document that does not parse as a whole, with foreign text after a blank line:
			// the document ends there, whether its part parses or was itself cut off
			if head, ok := structured(trimBlank(lines[:cut]), command); ok {
				return append(head, classifyRef(lines[cut:], fenced, "")...)
			}
		}
		return segs
	}
	if command != "" {
		if cut := foreignAfterBlank(lines); cut > 0 {
			// a command's output, a blank line, then the poster's words ("and from my laptop:"):
			// the output is read as the command's, the words on their own
			if head, ok := structured(trimBlank(lines[:cut]), command); ok && !unreadable(head) {
				return append(head, classifyRef(lines[cut:], fenced, "")...)
			}
		}
	}
	if fenced || command != "" {
		return []Segment{seg(TypeLog, logDetail(lines), lines)}
	}
	return paragraphs(lines)
}

// secondManifestRef is block.secondManifest on a part of its own: the first paragraph start
// after line 0 with apiVersion: or kind: at column 0 when line 0 starts a manifest and the key
// is at column 0 above it, or 0.
func secondManifestRef(lines []line) int {
	if !reManifestStart.MatchString(lines[0].text) {
		return 0
	}
	for d := 1; d < len(lines); d++ {
		t := lines[d].text
		if strings.TrimSpace(lines[d-1].text) != "" || !reManifestStart.MatchString(t) {
			continue
		}
		key := t[:strings.IndexByte(t, ':')+1]
		for _, l := range lines[:d] {
			if strings.HasPrefix(l.text, key) {
				return d
			}
		}
	}
	return 0
}

// introSentenceRef is block.introSentence on a part of its own.
//
// introSentence finds a paragraph of one or two sentences standing between blank lines with
// other text around it — a poster's words introducing what follows ("Here is what I see:") —
// and returns its lines [i, j), or j = 0. A sentence starts with a capital letter, has at least
// four words, ends in '.', ':', '!' or '?', and is neither a log line nor a "key: value" line; a
// leading one may end the text's first paragraph, others need text before and after them.
func introSentenceRef(lines []line) (int, int) {
	blank := func(k int) bool { return k < 0 || k >= len(lines) || strings.TrimSpace(lines[k].text) == "" }
	sentence := func(t string) bool {
		t = strings.TrimSpace(t)
		if len(t) < 12 || t[0] < 'A' || t[0] > 'Z' || !strings.ContainsAny(t[len(t)-1:], ".:!?") ||
			len(strings.Fields(t)) < 4 || logLine(t) || reYAMLish.MatchString(t) {
			return false
		}
		return sentences([]byte(t))
	}
	for i := 0; i < len(lines); i++ {
		if !blank(i-1) || blank(i) {
			continue
		}
		j := i
		for j < len(lines) && !blank(j) && j-i < 3 {
			j++
		}
		if j-i > 2 || !blank(j) {
			continue
		}
		all := true
		for k := i; k < j; k++ {
			all = all && sentence(lines[k].text)
		}
		rest := false
		for k := j; k < len(lines); k++ {
			rest = rest || !blank(k)
		}
		if all && rest && (i > 0 || j < len(lines)) {
			return i, j
		}
	}
	return 0, 0
}

// tfHeredocRef is block.heredoc on a part of its own.
//
// tfHeredoc finds the first heredoc value of Terraform output in lines (`+ user_data = <<-EOT`
// up to its `EOT`, or the end of a paste cut inside it) whose lines are not a plan's diff of it
// (no "+ " markers): the lines before, the body and the lines after. A plan's aws-auth mapRoles heredoc is left to the plan reader.
func tfHeredocRef(lines []line) (before, body, after []line, ok bool) {
	for i, l := range lines {
		m := reTFHeredocStart.FindStringSubmatch(l.text)
		if m == nil || m[1] == "mapRoles" || m[1] == "mapUsers" || m[1] == "mapAccounts" {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j].text)
			if t == m[2] {
				if j == i+1 {
					return nil, nil, nil, false
				}
				return lines[:i], lines[i+1 : j], lines[j+1:], true
			}
			if strings.HasPrefix(t, "+ ") {
				break // a diff inside the heredoc ("- " would be a YAML list item too): not a value shown whole
			}
			if j == len(lines)-1 {
				return lines[:i], lines[i+1:], nil, true // the paste ends inside the heredoc
			}
		}
	}
	return nil, nil, nil, false
}

package ingest

import (
	"regexp"
	"slices"
)

// joinedRecordsRef is joinedRecords as it was before it counted the marks of each shape first
// and found each shape's records once. It is kept to check that joinedRecords cuts every line as
// it did.
func joinedRecordsRef(t string) []int {
	if len(t) < minJoined {
		return nil
	}
	// records at the start of the line decide its shape; text before the first record is
	// looked at only when no shape starts the line
	for pass := 0; pass < 2; pass++ {
		for i, re := range recordStarts {
			if cuts := joinedShapeRef(t, i, re, pass == 1); cuts != nil {
				return cuts
			}
		}
	}
	return nil
}

// joinedShapeRef is joinedShape finding the records of each shape anew.
//
// joinedShape returns the cuts of t for record shape i (see joinedRecords), nil when t is not
// records of that shape run together; prefixed allows text before the first record.
func joinedShapeRef(t string, i int, re *regexp.Regexp, prefixed bool) []int {
	var cuts []int
	first := -1
	for _, loc := range re.FindAllStringIndex(t, -1) {
		if loc[0] == 0 && recordStartsAt0[i].MatchString(t) {
			first = 0
			continue
		}
		if t[loc[0]-1] != ' ' {
			continue
		}
		if first < 0 {
			first = loc[0]
		}
		cuts = append(cuts, loc[0])
	}
	switch {
	case first == 0 && len(cuts) >= 2 && !prefixed:
	case first > 0 && len(cuts) >= 3 && prefixed && (i == 0 || i == 1 || i == 4):
		// shapes prose does not have (a journal prefix, a klog header, a JSON record) may follow
		// any text: a whole ticket whose line breaks were lost starts with the poster's words
	case first > 0 && first <= 200 && len(cuts) >= 3 && prefixed && rePromptStart.MatchString(t):
		// others (a sentence can hold dates) only a shell prompt's command
	default:
		return nil
	}
	for j, other := range recordStarts[:2] {
		if j == i || i == 0 {
			continue // a journal record carries a klog header inside it
		}
		for _, loc := range other.FindAllStringIndex(t, -1) {
			if loc[0] > 0 && t[loc[0]-1] == ' ' {
				cuts = append(cuts, loc[0])
			}
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

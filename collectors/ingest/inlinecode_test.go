package ingest

import "testing"

// TestInlineCodeLines: an error message a poster marked as one Markdown code span, alone on its
// line or after a short label ("Error message: `…`"), is read as the message it holds (hunt 15:
// an EKS CreateNodegroup refusal in backticks was taken for prose and nothing was recognised);
// prose with code spans inside its sentences stays prose.
func TestInlineCodeLines(t *testing.T) {
	const msg = "operation error EKS: CreateNodegroup, https response error StatusCode: 400, RequestID: 79aff1ff-3e47-404f-aa79-46f97933450c, InvalidParameterException: You cannot specify a kubernetes version to use when specifying an image id to use within the launch template."
	for _, paste := range []string{
		"`" + msg + "`\n",
		"Error message: `" + msg + "` \n",
		"We get this when applying:\n\n`" + msg + "`\n",
		"    2026-11-20T08:10:00.1234567Z `" + msg + "`   \n", // a CI job's log pasted as a code block
	} {
		r := Read([]byte(paste), "issue.md", Options{})
		found := false
		if r.Evidence.NodeLogs != nil {
			for _, h := range r.Evidence.NodeLogs.Hits {
				found = found || h.Finding == "nodegroup.launch-errors"
			}
		}
		if !found {
			t.Errorf("%q: no nodegroup.launch-errors; segments %v", paste, types(r.Segments))
		}
	}
	prose := "I set `amiType` to `AL2023_ARM_64_STANDARD` and the `kubeletExtraArgs` to raise max pods, then ran `pulumi up` again.\n"
	if got := uncode([]line{{text: prose}}); got[0].text != prose {
		t.Errorf("prose rewritten: %q", got[0].text)
	}
}

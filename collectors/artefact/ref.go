package artefact

import "time"

// refTime is the reference for year-less timestamps in detection only (any year works: only
// whether a line starts with a timestamp matters there).
func refTime() time.Time { return time.Date(2000, 12, 31, 0, 0, 0, 0, time.UTC) }

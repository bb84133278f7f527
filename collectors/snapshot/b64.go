package snapshot

import (
	"encoding/base64"
	"strings"
)

func decodeStdBase64(s string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), ""))
}

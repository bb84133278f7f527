package userdata

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/klauspost/compress/gzip"
	"sigs.k8s.io/yaml"
)

type cloudConfig struct {
	WriteFiles []struct {
		Path     string `json:"path"`
		Content  string `json:"content"`
		Encoding string `json:"encoding"`
	} `json:"write_files"`
	RunCmd  []json.RawMessage `json:"runcmd"`
	BootCmd []json.RawMessage `json:"bootcmd"`
}

// handleCloudConfig reads a #cloud-config document: environment files written by write_files
// (eksctl's /etc/eksctl/kubelet.env), scripts written by write_files that call bootstrap.sh,
// and bootcmd/runcmd entries.
func (d *decoder) handleCloudConfig(s, part string, firstLine int) {
	js, err := yaml.YAMLToJSON([]byte(s))
	if err != nil {
		d.issue(evidence.IssueError, part, firstLine+yamlErrLine(err)-1, "cloud-config YAML does not parse, cloud-init skips the whole part: %v", err)
		return
	}
	var cc cloudConfig
	if err := json.Unmarshal(js, &cc); err != nil {
		d.issue(evidence.IssueError, part, firstLine, "cloud-config has an unexpected shape: %v", err)
		return
	}
	type file struct{ path, content string }
	var files []file
	for _, wf := range cc.WriteFiles {
		content := wf.Content
		switch strings.ToLower(wf.Encoding) {
		case "b64", "base64":
			b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(content))
			if err != nil {
				d.issue(evidence.IssueError, part, firstLine, "write_files %s: content is not valid base64: %v", wf.Path, err)
				continue
			}
			content = string(b)
		case "gz+b64", "gzip+base64", "gz+base64", "gzip+b64":
			b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(content))
			if err == nil {
				var zr *gzip.Reader
				if zr, err = gzip.NewReader(bytes.NewReader(b)); err == nil {
					b, err = io.ReadAll(io.LimitReader(zr, int64(d.lim.MaxDecodedBytes)))
				}
			}
			if err != nil {
				d.issue(evidence.IssueError, part, firstLine, "write_files %s: content does not decode as %s: %v", wf.Path, wf.Encoding, err)
				continue
			}
			content = string(b)
		}
		files = append(files, file{wf.Path, content})
	}
	for _, f := range files {
		if strings.HasSuffix(f.path, ".env") {
			if f.path == "/etc/eksctl/kubelet.env" {
				d.eksctlEnv = true
			}
			d.handleShell(f.content, part+" "+f.path, 0)
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f.path, ".env") && strings.Contains(f.content, "bootstrap.sh") && strings.HasPrefix(strings.TrimSpace(f.content), "#!") {
			d.handleShell(f.content, part+" "+f.path, 0)
		}
	}
	for _, list := range [][]json.RawMessage{cc.BootCmd, cc.RunCmd} {
		for _, raw := range list {
			var str string
			if json.Unmarshal(raw, &str) == nil {
				d.handleShell(str, part+" runcmd", firstLine)
				continue
			}
			var argv []string
			if json.Unmarshal(raw, &argv) == nil {
				var words []word
				for _, a := range argv {
					words = append(words, word{segs: []segment{{kind: segLit, text: a, quoted: true}}})
				}
				d.runCommand(command{words: words}, part+" runcmd", firstLine)
			}
		}
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveVersion(t *testing.T) {
	for _, c := range []struct{ injected, module, want string }{
		{"v1.2.3", "v1.0.0", "v1.2.3"},
		{"dev", "v0.4.0", "v0.4.0"},
		{"", "v0.4.0", "v0.4.0"},
		{"dev", "(devel)", "dev"},
		{"dev", "", "dev"},
	} {
		if got := resolveVersion(c.injected, c.module); got != c.want {
			t.Errorf("resolveVersion(%q, %q) = %q, want %q", c.injected, c.module, got, c.want)
		}
	}
}

// TestEveryBuildPathInjectsTheVersion: make build, the image and the release archives all set
// cli.Version from the git tag, so `eksdoctor version` never prints "dev" for a shipped binary.
func TestEveryBuildPathInjectsTheVersion(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	for file, want := range map[string][]string{
		"Makefile":          {"cli.Version=$(VERSION)", "git describe --tags"},
		"deploy/Dockerfile": {"ARG VERSION", "cli.Version=${VERSION}"},
		".goreleaser.yaml":  {"cli.Version={{ .Version }}"},
	} {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s does not contain %q", file, w)
			}
		}
	}
}

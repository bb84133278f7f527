package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/eksdoctor/eksdoctor/checks"
)

// outputFormats are the -o values each command accepts, for shell completion.
var outputFormats = map[string][]string{
	"why-not-joining": {"table", "json", "markdown", "junit"},
	"analyze":         {"table", "json", "markdown", "junit"},
	"scan":            {"table", "json", "markdown", "junit", "policyreport", "openreports"},
	"list":            {"table", "json", "markdown"},
	"explain":         {"text", "markdown"},
	"version":         {"table", "json"},
}

// awsRegions are the commercial, China and GovCloud regions offered for --region completion
// (any other value is still accepted: the SDK resolves it).
var awsRegions = []string{"af-south-1", "ap-east-1", "ap-east-2", "ap-northeast-1", "ap-northeast-2", "ap-northeast-3",
	"ap-south-1", "ap-south-2", "ap-southeast-1", "ap-southeast-2", "ap-southeast-3", "ap-southeast-4", "ap-southeast-5",
	"ap-southeast-7", "ca-central-1", "ca-west-1", "cn-north-1", "cn-northwest-1", "eu-central-1", "eu-central-2",
	"eu-north-1", "eu-south-1", "eu-south-2", "eu-west-1", "eu-west-2", "eu-west-3", "il-central-1", "me-central-1",
	"me-south-1", "mx-central-1", "sa-east-1", "us-east-1", "us-east-2", "us-gov-east-1", "us-gov-west-1", "us-west-1", "us-west-2"}

// registerCompletions offers values for -o, --checks, --profile and --region on every command
// that has them.
func registerCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		fixed := func(flag string, values []string) {
			if c.Flags().Lookup(flag) != nil {
				_ = c.RegisterFlagCompletionFunc(flag, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					return values, cobra.ShellCompDirectiveNoFileComp
				})
			}
		}
		if f, ok := outputFormats[c.Name()]; ok {
			fixed("output", f)
		}
		fixed("region", awsRegions)
		if c.Flags().Lookup("checks") != nil {
			_ = c.RegisterFlagCompletionFunc("checks", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				var ids []string
				areas := map[string]bool{}
				for _, ch := range checks.Default().All() {
					ids = append(ids, ch.Meta.ID)
					areas[strings.SplitN(ch.Meta.ID, ".", 2)[0]+".*"] = true
				}
				for a := range areas {
					ids = append(ids, a)
				}
				sort.Strings(ids)
				return ids, cobra.ShellCompDirectiveNoFileComp
			})
		}
		if c.Flags().Lookup("profile") != nil {
			_ = c.RegisterFlagCompletionFunc("profile", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return awsProfiles(), cobra.ShellCompDirectiveNoFileComp
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// awsProfiles lists the profile names of the shared config and credentials files
// (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and ~/.aws/credentials):
// "[profile NAME]" and "[NAME]" section headers.
func awsProfiles() []string {
	home, _ := os.UserHomeDir()
	files := []string{os.Getenv("AWS_CONFIG_FILE"), os.Getenv("AWS_SHARED_CREDENTIALS_FILE")}
	if files[0] == "" {
		files[0] = filepath.Join(home, ".aws", "config")
	}
	if files[1] == "" {
		files[1] = filepath.Join(home, ".aws", "credentials")
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			l := strings.TrimSpace(sc.Text())
			if !strings.HasPrefix(l, "[") || !strings.HasSuffix(l, "]") {
				continue
			}
			name := strings.TrimSpace(strings.TrimPrefix(strings.Trim(l, "[]"), "profile "))
			if name != "" && !strings.HasPrefix(name, "sso-session ") && !strings.HasPrefix(name, "services ") && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
		f.Close()
	}
	sort.Strings(out)
	return out
}

package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/eksdoctor/eksdoctor/checks"
	"github.com/eksdoctor/eksdoctor/checks/report"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"
)

// NewCmdChecks builds `checks list`.
func NewCmdChecks(g *GlobalOptions) *cobra.Command {
	cmd := &cobra.Command{Use: "checks", Short: "List the registered checks"}
	list := &cobra.Command{
		Use:   "list",
		Short: "List every check with its severity and title (-o json for the full metadata)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.validateOutput(); err != nil {
				return err
			}
			if g.Output == "junit" {
				return usageErr("unknown --output %q for checks list (want table, json or markdown): junit is for reports", g.Output)
			}
			list, err := checks.Default().Select(g.Checks)
			if err != nil {
				return usageErr("%v", err)
			}
			switch g.Output {
			case "json":
				type entry struct {
					ID          string   `json:"id"`
					Title       string   `json:"title"`
					Severity    string   `json:"severity"`
					Needs       []string `json:"needs"`
					Why         string   `json:"why"`
					Remediation string   `json:"remediation"`
					Docs        []string `json:"docs"`
				}
				var out []entry
				for _, c := range list {
					m := c.Meta
					var needs []string
					for _, k := range m.Needs {
						needs = append(needs, string(k))
					}
					out = append(out, entry{m.ID, m.Title, string(m.Severity), needs, m.Why, m.Remediation, m.Docs})
				}
				enc := json.NewEncoder(g.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(out)
			case "markdown", "md":
				fmt.Fprintln(g.stdout, "| Check | Severity | Title |\n|---|---|---|")
				for _, c := range list {
					fmt.Fprintf(g.stdout, "| `%s` | %s | %s |\n", c.Meta.ID, c.Meta.Severity, c.Meta.Title)
				}
				return nil
			}
			tbl := tablewriter.NewTable(g.stdout, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithHeaderAlignment(tw.AlignLeft))
			tbl.Header("CHECK", "SEVERITY", "EVIDENCE", "TITLE")
			for _, c := range list {
				var needs []string
				for _, k := range c.Meta.Needs {
					needs = append(needs, string(k))
				}
				if err := tbl.Append([]string{c.Meta.ID, string(c.Meta.Severity), strings.Join(needs, ","), c.Meta.Title}); err != nil {
					return err
				}
			}
			return tbl.Render()
		},
	}
	g.addOutputFlag(list)
	list.Flags().Lookup("output").Usage = "output format: table, json or markdown"
	cmd.AddCommand(list)
	return cmd
}

// Version is set at build time with -ldflags "-X github.com/eksdoctor/eksdoctor/cmd/eksdoctor/cli.Version=v1.2.3"
// (make build, the image and the release archives all derive it from the git tag). A binary
// built without it reports the module version `go install …@vX.Y.Z` records (see
// ResolvedVersion), else "dev".
var Version = "dev"

// ResolvedVersion returns Version, or, when it was not injected ("dev" or empty), the main
// module's version from the binary's build information (set by `go install module@version`);
// "dev" when neither is known.
func ResolvedVersion() string {
	bi, _ := debug.ReadBuildInfo()
	var mod string
	if bi != nil {
		mod = bi.Main.Version
	}
	return resolveVersion(Version, mod)
}

// resolveVersion picks the injected version, else a real module version, else "dev".
func resolveVersion(injected, module string) string {
	if injected != "" && injected != "dev" {
		return injected
	}
	if module != "" && module != "(devel)" {
		return module
	}
	return "dev"
}

// BuildInfo is what `version -o json` prints: the version (a tag, a module version or "dev"),
// the VCS revision and commit time the binary was built from (empty when unknown), the Go
// version, the JSON report schema and the number of registered checks.
type BuildInfo struct {
	Version       string `json:"version"`
	Commit        string `json:"commit"`
	Date          string `json:"date"`
	Go            string `json:"go"`
	SchemaVersion string `json:"schemaVersion"`
	Checks        int    `json:"checks"`
}

// buildInfo reads the build's VCS stamp (debug.ReadBuildInfo: vcs.revision, vcs.time).
func buildInfo() BuildInfo {
	out := BuildInfo{Version: ResolvedVersion(), Go: runtime.Version(), SchemaVersion: report.SchemaVersion, Checks: len(checks.Default().All())}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, st := range bi.Settings {
			switch st.Key {
			case "vcs.revision":
				out.Commit = st.Value
			case "vcs.time":
				out.Date = st.Value
			}
		}
	}
	return out
}

// versionLine is the one-line version `version` and `--version` print.
func versionLine() string {
	b := buildInfo()
	line := fmt.Sprintf("eksdoctor %s (report schema %s, %d checks, %s", b.Version, b.SchemaVersion, b.Checks, b.Go)
	if b.Commit != "" {
		line += ", commit " + b.Commit[:min(12, len(b.Commit))]
	}
	return line + ")"
}

// NewCmdVersion builds `version` (-o table|json).
func NewCmdVersion(g *GlobalOptions) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the eksdoctor version, commit, Go version, report schema and check count",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch output {
			case "json":
				enc := json.NewEncoder(g.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(buildInfo())
			case "table", "":
				_, err := fmt.Fprintln(g.stdout, versionLine())
				return err
			}
			return usageErr("unknown --output %q for version (want table or json)", output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "table", "output format: table or json")
	return cmd
}

func newCmdGenDocs(g *GlobalOptions) *cobra.Command {
	return &cobra.Command{
		Use:    "gen-docs DIR",
		Short:  "Write one Markdown page per check into DIR (used by make docs)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return checks.WriteDocs(checks.Default(), args[0])
		},
	}
}

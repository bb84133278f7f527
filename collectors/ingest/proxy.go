package ingest

import (
	"fmt"
	"maps"
	"path"
	"strings"

	"github.com/eksdoctor/eksdoctor/collectors/bundle"
	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/proxyenv"
)

// proxy reads the HTTP proxy environment of the node's components from what the paste shows
// of it (collectors/proxyenv), each variable with the part of the paste that sets it:
//   - units as `systemctl cat kubelet containerd` prints them ("# /etc/systemd/system/
//     kubelet.service.d/http-proxy.conf" above each file), `systemctl show kubelet -p
//     Environment`, a drop-in printed by `cat /etc/systemd/system/containerd.service.d/…`;
//   - /etc/environment printed by cat or grep, read by a unit's EnvironmentFile=;
//   - the environment `env` or `printenv` printed in a shell on the node, standing in for
//     /etc/environment when that file is not shown (pam_env gives a login shell its variables);
//     one printed on a workstation, or where no prompt says, is not the node's and is not read
//     (its segment says so);
//   - Bottlerocket settings (`apiclient get settings.network`, settings.json).
//
// The result is the logs' Proxy when the paste holds node logs and no bundle set one.
func (rd *reader) proxy(segs []Segment) {
	var f proxyenv.Facts
	var br []evidence.ProxyEnv
	var shellEnv map[string]evidence.ProxyVar
	for i := range segs {
		s := &segs[i]
		if s.Type == TypeProse {
			continue
		}
		origin := Origin(rd.name, *s)
		if s.Type == TypeBottlerocketSettings {
			st, ok := layout.LookupAny(s.value, "settings").(map[string]any)
			if !ok {
				continue
			}
			stand := ""
			if api, _ := layout.LookupAny(st, "kubernetes.api-server").(string); api == "" {
				// `apiclient get settings.network`: Bottlerocket adds the API server's host to
				// NO_PROXY, which host the view does not show: the paste's endpoint, else the
				// EKS endpoints' domain stands for it
				stand = ".eks.amazonaws.com"
				if rd.ev.Bootstrap != nil && rd.ev.Bootstrap.APIServerEndpoint != "" {
					stand = rd.ev.Bootstrap.APIServerEndpoint
				}
				k8s, _ := st["kubernetes"].(map[string]any)
				k := map[string]any{"api-server": stand}
				for n, v := range k8s {
					if n != "api-server" {
						k[n] = v
					}
				}
				cp := map[string]any{"kubernetes": k}
				for n, v := range st {
					if n != "kubernetes" {
						cp[n] = v
					}
				}
				st = cp
			}
			envs := bundle.BottlerocketProxy(st, origin)
			if stand != "" {
				for k := range envs {
					vars := maps.Clone(envs[k].Vars) // the components share one map
					np := vars["NO_PROXY"]
					np.Source += " (settings.kubernetes.api-server, whose host Bottlerocket adds, is not in the paste: " + stand + " stands for it)"
					vars["NO_PROXY"] = np
					envs[k].Vars = vars
				}
			}
			br = append(br, envs...)
			continue
		}
		at := func(line int) string { return fmt.Sprintf("paste:%s:%d", rd.name, s.First+line) }
		cmd := strings.Fields(strings.TrimPrefix(strings.TrimSpace(s.shell), "sudo "))
		switch {
		case len(cmd) > 0 && (cmd[0] == "env" || cmd[0] == "printenv"):
			vars := proxyenv.ParseEnvFile(s.Text, at)
			if len(vars) == 0 {
				continue
			}
			if notNodeShell(s, "the proxy variables", "proxy") {
				continue
			}
			for n, v := range vars {
				v.Source += " (`" + s.shell + "` in a shell on the node, standing in for " + proxyenv.EtcEnvironment + ")"
				vars[n] = v
			}
			shellEnv = vars
		case len(cmd) > 1 && (cmd[0] == "cat" || cmd[0] == "grep" || cmd[0] == "egrep" || cmd[0] == "tail" || cmd[0] == "head" || cmd[0] == "less"):
			file := cmd[len(cmd)-1]
			if !strings.HasPrefix(file, "/") || strings.ContainsAny(file, "*?") {
				continue
			}
			if unit := proxyenv.UnitOfPath(file); unit != "" {
				f.AddUnits(proxyenv.ParseUnits(s.Text, origin+": "+path.Clean(file), unit))
				continue
			}
			vars := proxyenv.ParseEnvFile(s.Text, at)
			for n, v := range vars {
				v.Source += " (" + file + ")"
				vars[n] = v
			}
			f.AddFile(path.Clean(file), vars)
		case len(cmd) > 1 && cmd[0] == "systemctl" && (cmd[1] == "cat" || cmd[1] == "show"):
			dflt := ""
			for _, w := range cmd[2:] {
				if u := strings.TrimSuffix(w, ".service"); !strings.HasPrefix(w, "-") && (u == "kubelet" || u == "containerd") {
					dflt = u
					break
				}
			}
			f.AddUnits(proxyenv.ParseUnits(s.Text, origin, dflt))
		case s.Type == TypeLog || s.Type == typeUnknownText:
			// `systemctl cat` output pasted without its command: its "# /…" lines name the units
			f.AddUnits(proxyenv.ParseUnits(s.Text, origin, ""))
		}
	}
	if shellEnv != nil && f.Files[proxyenv.EtcEnvironment] == nil {
		f.AddFile(proxyenv.EtcEnvironment, shellEnv)
	}
	envs := append(f.Envs(), br...)
	if len(envs) == 0 || rd.ev.NodeLogs == nil || len(rd.ev.NodeLogs.Proxy) > 0 {
		return
	}
	logs := *rd.ev.NodeLogs
	logs.Proxy = envs
	rd.ev.NodeLogs = &logs
}

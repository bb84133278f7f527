package ingest

import (
	"fmt"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// eksctlConfig reads an eksctl ClusterConfig (https://eksctl.io/usage/schema/): metadata.name
// is the cluster the node groups join, and a node group's overrideBootstrapCommand is the
// script its nodes run instead of eksctl's bootstrap (a custom AMI), read as pasted user data.
// Only the first node group with an override is read; the segment's Problem names the others.
func (rd *reader) eksctlConfig(s *Segment, origin string) {
	m, ok := s.value.(map[string]any)
	if !ok {
		return
	}
	ev := rd.ev
	if name := layout.Lookup(m, "metadata.name"); name != "" && ev.Target.Cluster == "" {
		ev.Target.Cluster, ev.Target.ClusterSource = name, "eksctl ClusterConfig metadata.name"
	}
	var groups []string
	var script string
	for _, key := range []string{"managedNodeGroups", "nodeGroups"} {
		list, _ := m[key].([]any)
		for _, g := range list {
			ng, _ := g.(map[string]any)
			cmd, _ := ng["overrideBootstrapCommand"].(string)
			if cmd == "" {
				continue
			}
			name, _ := ng["name"].(string)
			groups = append(groups, name)
			if script == "" {
				script = cmd
			}
		}
	}
	if script == "" {
		return
	}
	if len(groups) > 1 {
		s.Problem = fmt.Sprintf("%d node groups override the bootstrap command; the first one (%s) is read as the node's user data", len(groups), groups[0])
	}
	rd.bootstrap(userdata.DecodePasted([]byte(script)), origin+" (node group "+groups[0]+" overrideBootstrapCommand)", s)
}

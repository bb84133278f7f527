package awsapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/autoscaling"
	asgtypes "github.com/aws/aws-sdk-go-v2/service/autoscaling/types"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/aws/aws-sdk-go-v2/service/eks"
	ekstypes "github.com/aws/aws-sdk-go-v2/service/eks/types"
	"github.com/aws/aws-sdk-go-v2/service/iam"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
	"github.com/eksdoctor/eksdoctor/collectors/userdata"
)

// Options control one collection.
type Options struct {
	// Region is written to the manifest and used for AWS endpoints.
	Region string
	// Cluster is the cluster name; empty means infer it from the instances' tags or user data.
	Cluster string
	// Needs lists the evidence kinds the selected checks use; nil means all. Operations serving
	// none of them are skipped.
	Needs []evidence.Kind
	// CallTimeout bounds each API call including retries (0 = 20s).
	CallTimeout time.Duration
	// Progress receives one line per finished call when non-nil (a terminal on stderr).
	Progress io.Writer
	// Now returns the collection time written to the manifest (nil = the latest Date AWS sent,
	// see Clock, else time.Now).
	Now func() time.Time
	// Clock is the ServerClock given to LoadConfig, if any.
	Clock *ServerClock
	// Scan also describes every node group of the cluster with its Auto Scaling groups and
	// their recent scaling activities (cluster-wide findings).
	Scan bool
	// Batch collects for many instances with a number of calls independent of their count:
	// user data is read from the launch template versions (one call per template, not
	// DescribeInstanceAttribute per instance) and console output is not fetched.
	Batch bool
	// Lookback is how far before the earliest launch of the instances the control plane's
	// audit events and CloudTrail's access-entry changes are read (0 = 24h): the change that
	// broke every node usually precedes the launch (issue 15, docs/snapshot-format.md T24).
	Lookback time.Duration
}

// Call records one API operation the collector made (pages included).
type Call struct {
	Operation string        // IAM action, e.g. "ec2:DescribeSubnets"
	Requests  int           // pages fetched
	Duration  time.Duration // wall time including retries
	Err       string        // error code, empty on success
	Msg       string        // error message (which timeout fired and the last error, for timeouts)
}

// Result is what one collection produced: snapshot files keyed by snapshot path
// (docs/snapshot-format.md), shaped as the AWS CLI prints them.
type Result struct {
	// Files are the snapshot files, by snapshot path (docs/snapshot-format.md): the AWS CLI's
	// JSON, or the AWS CLI's error text for a call that failed (what `collect` writes).
	Files map[string][]byte
	// Errors are the failed calls' typed errors, by the same paths: a diagnosis judges these
	// (snapshot.FromDocuments), so an error value is never parsed back out of its text.
	Errors map[string]*snapshot.SourceError
	Calls  []Call
	// Cluster is the cluster collected for and ClusterSource how it was chosen.
	Cluster, ClusterSource string
	// Described is DescribeCluster's answer; nil when it was not called or failed.
	Described *ekstypes.Cluster
	sources   map[string]string
}

// Source names the API operation that produced the file at path, for findings
// ("aws:ec2:DescribeSubnets").
func (r *Result) Source(path string) string {
	if s, ok := r.sources[path]; ok {
		return "aws:" + s
	}
	return "aws:" + path
}

// SetSource records what produced the file at path (for files other collectors add).
func (r *Result) SetSource(path, source string) {
	if r.sources == nil {
		r.sources = map[string]string{}
	}
	r.sources[path] = source
}

// Requests returns the number of HTTP requests made (pages).
func (r *Result) Requests() int {
	n := 0
	for _, c := range r.Calls {
		n += c.Requests
	}
	return n
}

// Denied returns the IAM actions whose calls were denied, sorted.
func (r *Result) Denied() []string {
	var out []string
	for _, c := range r.Calls {
		if deniedCode(c.Err) {
			out = append(out, c.Operation)
		}
	}
	sort.Strings(out)
	return out
}

func deniedCode(code string) bool {
	switch code {
	case "AccessDenied", "AccessDeniedException", "UnauthorizedOperation", "Client.UnauthorizedOperation", "UnauthorizedAccess":
		return true
	}
	return false
}

// ErrInstanceNotFound is returned when EC2 does not know an instance.
var ErrInstanceNotFound = errors.New("instance not found")

type collector struct {
	c     Clients
	o     Options
	needs map[evidence.Kind]bool
	start time.Time
	mu    sync.Mutex
	res   *Result
	// outs are the SDK outputs by snapshot path: the next level is planned from these typed
	// values, never by parsing the JSON written for the snapshot.
	outs map[string]any
}

// output returns the SDK output the call for path returned, when it succeeded.
func output[T any](col *collector, path string) (T, bool) {
	col.mu.Lock()
	defer col.mu.Unlock()
	v, ok := col.outs[path].(T)
	return v, ok
}

// Collect fetches, level by level, everything the selected checks need about instanceIDs: the
// instances first (and the cluster when named), then everything keyed by what they returned,
// batched per VPC or per list of IDs (never one call per resource), the calls of one level
// running concurrently. Errors: ErrInstanceNotFound (wrapped) when EC2 does not know an
// instance, or the DescribeInstances error itself (other errors become gaps in the files).
func Collect(ctx context.Context, clients Clients, instanceIDs []string, o Options) (*Result, error) {
	if o.CallTimeout == 0 {
		o.CallTimeout = 20 * time.Second
	}
	if o.Lookback == 0 {
		o.Lookback = DefaultLookback
	}
	if o.Now == nil {
		o.Now = func() time.Time {
			if o.Clock != nil && !o.Clock.Latest().IsZero() {
				return o.Clock.Latest()
			}
			return time.Now()
		}
	}
	col := &collector{c: clients, o: o, start: time.Now(), res: &Result{Files: map[string][]byte{}, Errors: map[string]*snapshot.SourceError{}, sources: map[string]string{}}, outs: map[string]any{}}
	if o.Needs != nil {
		col.needs = map[evidence.Kind]bool{evidence.KindInstance: true}
		for _, k := range o.Needs {
			col.needs[k] = true
		}
	}
	cluster, source := o.Cluster, "flag"

	// level 0: the instances, and the cluster when it is named
	var instances []ec2types.Instance
	var instErr error
	col.level(func(run func(func())) {
		run(func() { instances, instErr = col.describeInstances(ctx, instanceIDs, cluster) })
		if cluster != "" {
			col.clusterCalls(ctx, run, cluster, nil)
		}
	})
	if instErr != nil {
		return nil, instErr
	}
	if cluster == "" {
		cluster, source = inferClusterFromTags(instances)
	}

	// level 1: everything keyed by the instances
	var profiles, instanceASGs []string
	var vpcs []string
	clusterDone := o.Cluster != ""
	col.level(func(run func(func())) {
		seenLT, seenVPC, seenProfile := map[string]bool{}, map[string]bool{}, map[string]bool{}
		var amis, types, asgs []string
		for _, in := range instances {
			id := aws.ToString(in.InstanceId)
			if !o.Batch {
				run(func() { col.userData(ctx, id) })
				run(func() { col.consoleOutput(ctx, id) })
			}
			tags := ec2Tags(in.Tags)
			if lt := tags["aws:ec2launchtemplate:id"]; lt != "" && !seenLT[lt] {
				seenLT[lt] = true
				ver := tags["aws:ec2launchtemplate:version"]
				run(func() { col.launchTemplate(ctx, lt, ver) })
			}
			amis = appendUnique(amis, aws.ToString(in.ImageId))
			types = appendUnique(types, string(in.InstanceType))
			if g := tags["aws:autoscaling:groupName"]; g != "" {
				asgs = appendUnique(asgs, g)
			}
			if v := aws.ToString(in.VpcId); v != "" && !seenVPC[v] {
				seenVPC[v] = true
				vpcs = append(vpcs, v)
			}
			if in.IamInstanceProfile != nil {
				name := lastSegment(aws.ToString(in.IamInstanceProfile.Arn))
				if !seenProfile[name] {
					seenProfile[name] = true
					profiles = append(profiles, name)
				}
			}
		}
		if o.Scan {
			// a scan judges the cluster's own VPC too (subnet addresses, node classes, Fargate
			// profiles), with or without instances in it
			if dc, ok := output[*eks.DescribeClusterOutput](col, "eks/describe-cluster.json"); ok && dc.Cluster != nil && dc.Cluster.ResourcesVpcConfig != nil {
				if v := aws.ToString(dc.Cluster.ResourcesVpcConfig.VpcId); v != "" && !seenVPC[v] {
					seenVPC[v] = true
					vpcs = append(vpcs, v)
				}
			}
		}
		run(func() { col.images(ctx, amis) })
		run(func() { col.instanceTypes(ctx, types) })
		if o.Scan {
			instanceASGs = asgs
			for _, ng := range col.listedNodegroups() {
				run(func() { col.describeNodegroup(ctx, cluster, ng) })
			}
		} else {
			run(func() { col.autoScalingGroups(ctx, asgs) })
			for _, g := range asgs {
				run(func() { col.scalingActivities(ctx, g) })
			}
		}
		for _, vpc := range vpcs {
			col.vpcCalls(ctx, run, vpc)
		}
		for _, p := range profiles {
			run(func() { col.instanceProfile(ctx, p) })
		}
		if cluster != "" && !clusterDone {
			col.clusterCalls(ctx, run, cluster, instances)
			clusterDone = true
		}
	})
	if cluster == "" {
		cluster, source = col.inferClusterFromUserData(instances)
	}

	// level 2: what the first answers name (role policies, DHCP options, the prefix lists of the
	// node's security group rules, node groups, access entries)
	col.level(func(run func(func())) {
		if o.Scan {
			asgs := append(col.nodegroupASGs(), instanceASGs...)
			run(func() { col.autoScalingGroups(ctx, uniq(asgs)) })
			for _, g := range uniq(asgs) {
				run(func() { col.scalingActivities(ctx, g) })
			}
		}
		for _, r := range col.roleNames(profiles) {
			run(func() { col.attachedPolicies(ctx, r) })
		}
		for _, d := range col.dhcpOptionIDs(vpcs) {
			run(func() { col.dhcpOptions(ctx, d) })
		}
		for _, p := range providers {
			if p.network != nil {
				p.network(col, ctx, run, instances)
			}
		}
		if cluster != "" && !clusterDone {
			col.clusterCalls(ctx, run, cluster, instances)
		} else if cluster != "" {
			col.clusterDetailCalls(ctx, run, cluster, instances, profiles)
		}
	})
	if cluster != "" && o.Cluster == "" && source == "user data" {
		// the cluster was only known after level 1: its details come last
		col.level(func(run func(func())) { col.clusterDetailCalls(ctx, run, cluster, instances, profiles) })
	}

	ids := make([]string, 0, len(instances))
	for _, in := range instances {
		ids = append(ids, aws.ToString(in.InstanceId))
	}
	manifest, _ := json.MarshalIndent(map[string]any{"cluster": cluster, "region": o.Region, "instanceIds": ids,
		"collectedAt": o.Now().UTC().Format(time.RFC3339), "tool": "eksdoctor"}, "", "    ")
	col.res.Files["manifest.json"] = append(manifest, '\n')
	col.res.Cluster, col.res.ClusterSource = cluster, source
	sort.Slice(col.res.Calls, func(i, j int) bool { return col.res.Calls[i].Operation < col.res.Calls[j].Operation })
	if dc, ok := output[*eks.DescribeClusterOutput](col, "eks/describe-cluster.json"); ok {
		col.res.Described = dc.Cluster
	}
	return col.res, nil
}

// pager is the shape of every SDK paginator.
type pager[O any, F any] interface {
	HasMorePages() bool
	NextPage(context.Context, ...F) (O, error)
}

// drain fetches every page of p, counting requests in n and passing each page to each. A
// next-page token seen before, or more than MaxPages pages, ends it with a PaginationLoop error
// (an endpoint repeating its token would otherwise be asked forever).
func drain[O any, F any](ctx context.Context, n *int, p pager[O, F], each func(O)) error {
	seen := map[string]bool{}
	pages := 0
	for p.HasMorePages() {
		*n++
		pages++
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		each(page)
		tok := pageToken(page)
		if tok == "" {
			continue
		}
		if seen[tok] {
			return paginationError(pages, tok, true)
		}
		if pages >= MaxPages {
			return paginationError(pages, tok, false)
		}
		seen[tok] = true
	}
	return nil
}

// firstPages fetches at most max pages of p (counting requests in n), passing each to each, and
// stops early, without an error, at the last page or at a token seen before: for searches
// whose first pages are enough (log events, CloudTrail events), where drain would read on.
func firstPages[O any, F any](ctx context.Context, n *int, p pager[O, F], max int, each func(O)) error {
	seen := map[string]bool{}
	for p.HasMorePages() && *n < max {
		*n++
		page, err := p.NextPage(ctx)
		if err != nil {
			return err
		}
		each(page)
		tok := pageToken(page)
		if tok == "" || seen[tok] {
			break
		}
		seen[tok] = true
	}
	return nil
}

// level runs the calls scheduled by plan concurrently and waits for all of them.
func (col *collector) level(plan func(run func(func()))) {
	var wg sync.WaitGroup
	plan(func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	})
	wg.Wait()
}

// wanted reports whether an operation serves a needed evidence kind.
func (col *collector) wanted(op string) bool {
	if col.needs == nil {
		return true
	}
	o, ok := OperationNamed(op)
	if !ok {
		return true
	}
	for _, k := range o.Kinds {
		if col.needs[k] {
			return true
		}
	}
	return false
}

// call runs fn (which may page, counting requests) with the per-call timeout and records it.
// On error it writes the error text the AWS CLI would print into path.
func (col *collector) call(ctx context.Context, op, path string, fn func(ctx context.Context, requests *int) (any, bool, error)) {
	o, _ := OperationNamed(op)
	action := o.Action()
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, col.o.CallTimeout)
	defer cancel()
	ctx, att := withAttempts(ctx)
	start := time.Now()
	requests := 0
	out, camel, err := fn(ctx, &requests)
	if requests == 0 {
		requests = 1
	}
	c := Call{Operation: action, Requests: requests, Duration: time.Since(start)}
	var body []byte
	var serr *snapshot.SourceError
	if err != nil {
		code, msg := describeError(parent, col.o.CallTimeout.String(), err, att)
		c.Msg = msg
		c.Err = code
		serr = snapshot.AWSError(op, code, msg)
	} else if out != nil {
		body, err = cliJSON(out, camel)
		if err != nil {
			serr = snapshot.AWSError(op, "SerializationError", err.Error())
		}
	}
	if serr != nil {
		// The text is for the snapshot `collect` writes; the diagnosis reads serr.
		body = []byte(fmt.Sprintf("\nAn error occurred (%s) when calling the %s operation: %s\n", serr.Code, op, serr.Message))
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	col.res.Calls = append(col.res.Calls, c)
	if path != "" && body != nil {
		col.res.Files[path] = body
		col.res.sources[path] = action
		if serr != nil {
			col.res.Errors[path] = serr
		} else {
			col.outs[path] = out
		}
	}
	if col.o.Progress != nil {
		status := "ok"
		if c.Err != "" {
			status = c.Err
		}
		fmt.Fprintf(col.o.Progress, "[%5.2fs] %-38s %s (%s, %d request(s))\n", time.Since(col.start).Seconds(), action, status, c.Duration.Round(time.Millisecond), c.Requests)
	}
}

// describeInstances describes ids, or, when ids is empty, the running and pending instances
// tagged kubernetes.io/cluster/<cluster>.
func (col *collector) describeInstances(ctx context.Context, ids []string, cluster string) ([]ec2types.Instance, error) {
	in := &ec2.DescribeInstancesInput{InstanceIds: ids}
	if len(ids) == 0 {
		if cluster == "" {
			return nil, fmt.Errorf("%w: no instance ID and no cluster to find instances by", ErrInstanceNotFound)
		}
		in.Filters = []ec2types.Filter{{Name: aws.String("tag-key"), Values: []string{"kubernetes.io/cluster/" + cluster}},
			{Name: aws.String("instance-state-name"), Values: []string{"pending", "running"}}}
	}
	var all []ec2types.Instance
	var callErr error
	var callMsg string
	col.call(ctx, "DescribeInstances", "ec2/describe-instances.json", func(ctx context.Context, n *int) (any, bool, error) {
		merged := &ec2.DescribeInstancesOutput{}
		err := drain[*ec2.DescribeInstancesOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeInstancesPaginator(col.c.EC2, in),
			func(page *ec2.DescribeInstancesOutput) {
				merged.Reservations = append(merged.Reservations, page.Reservations...)
			})
		if err != nil {
			callErr = err
			return nil, false, err
		}
		for _, r := range merged.Reservations {
			all = append(all, r.Instances...)
		}
		return merged, false, nil
	})
	if callErr != nil {
		code, _ := apiError(callErr)
		col.mu.Lock()
		for _, c := range col.res.Calls {
			if c.Operation == "ec2:DescribeInstances" {
				code, callMsg = c.Err, c.Msg
			}
		}
		col.mu.Unlock()
		if strings.HasPrefix(code, "InvalidInstanceID") {
			return nil, fmt.Errorf("%w: %s", ErrInstanceNotFound, callMsg)
		}
		return nil, fmt.Errorf("ec2:DescribeInstances failed (%s): %s", code, callMsg)
	}
	if len(all) == 0 && len(ids) == 0 {
		if col.o.Scan {
			// a scan (or a NodeClaim that never launched) judges the cluster without instances
			return nil, nil
		}
		return nil, fmt.Errorf("%w: no running instance is tagged kubernetes.io/cluster/%s", ErrInstanceNotFound, cluster)
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: %s", ErrInstanceNotFound, strings.Join(ids, ", "))
	}
	return all, nil
}

func ec2Tags(tags []ec2types.Tag) map[string]string {
	m := map[string]string{}
	for _, t := range tags {
		m[aws.ToString(t.Key)] = aws.ToString(t.Value)
	}
	return m
}

func appendUnique(l []string, s string) []string {
	if s == "" {
		return l
	}
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}

func lastSegment(arn string) string {
	if i := strings.LastIndexByte(arn, '/'); i >= 0 {
		return arn[i+1:]
	}
	return arn
}

// inferClusterFromTags reads the cluster name from the first instance's tags, in the order
// snapshot.ClusterTagKeys and then kubernetes.io/cluster/<name>.
func inferClusterFromTags(instances []ec2types.Instance) (string, string) {
	for _, in := range instances {
		if name, src := snapshot.ClusterFromTags(ec2Tags(in.Tags)); name != "" {
			return name, src
		}
	}
	return "", ""
}

func (col *collector) inferClusterFromUserData(instances []ec2types.Instance) (string, string) {
	for _, in := range instances {
		attr, ok := output[*ec2.DescribeInstanceAttributeOutput](col, "ec2/instance-user-data/"+aws.ToString(in.InstanceId)+".json")
		if ok && attr.UserData != nil {
			if name := userdata.DecodeBase64(aws.ToString(attr.UserData.Value)).ClusterName; name != "" {
				return name, "user data"
			}
		}
	}
	return "", ""
}

func (col *collector) userData(ctx context.Context, id string) {
	if !col.wanted("DescribeInstanceAttribute") {
		return
	}
	col.call(ctx, "DescribeInstanceAttribute", "ec2/instance-user-data/"+id+".json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.EC2.DescribeInstanceAttribute(ctx, &ec2.DescribeInstanceAttributeInput{InstanceId: aws.String(id), Attribute: ec2types.InstanceAttributeNameUserData})
		return out, false, err
	})
}

func (col *collector) consoleOutput(ctx context.Context, id string) {
	if !col.wanted("GetConsoleOutput") {
		return
	}
	col.call(ctx, "GetConsoleOutput", "ec2/get-console-output/"+id+".json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.EC2.GetConsoleOutput(ctx, &ec2.GetConsoleOutputInput{InstanceId: aws.String(id), Latest: aws.Bool(true)})
		if err != nil {
			return nil, false, err
		}
		return consoleOutputCLIFrom(out), false, nil
	})
}

func (col *collector) launchTemplate(ctx context.Context, id, version string) {
	if !col.wanted("DescribeLaunchTemplateVersions") {
		return
	}
	col.call(ctx, "DescribeLaunchTemplateVersions", "ec2/describe-launch-template-versions/"+id+".json", func(ctx context.Context, n *int) (any, bool, error) {
		in := &ec2.DescribeLaunchTemplateVersionsInput{LaunchTemplateId: aws.String(id)}
		if version != "" {
			in.Versions = []string{version}
		}
		merged := &ec2.DescribeLaunchTemplateVersionsOutput{}
		err := drain[*ec2.DescribeLaunchTemplateVersionsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeLaunchTemplateVersionsPaginator(col.c.EC2, in), func(page *ec2.DescribeLaunchTemplateVersionsOutput) {
			merged.LaunchTemplateVersions = append(merged.LaunchTemplateVersions, page.LaunchTemplateVersions...)
		})
		if err != nil {
			return nil, false, err
		}
		return merged, false, nil
	})
}

func (col *collector) images(ctx context.Context, ids []string) {
	if len(ids) == 0 || !col.wanted("DescribeImages") {
		return
	}
	col.call(ctx, "DescribeImages", "ec2/describe-images.json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.EC2.DescribeImages(ctx, &ec2.DescribeImagesInput{ImageIds: ids})
		return out, false, err
	})
}

func (col *collector) instanceTypes(ctx context.Context, types []string) {
	if len(types) == 0 || !col.wanted("DescribeInstanceTypes") {
		return
	}
	col.call(ctx, "DescribeInstanceTypes", "ec2/describe-instance-types.json", func(ctx context.Context, n *int) (any, bool, error) {
		var its []ec2types.InstanceType
		for _, t := range types {
			its = append(its, ec2types.InstanceType(t))
		}
		merged := &ec2.DescribeInstanceTypesOutput{}
		err := drain[*ec2.DescribeInstanceTypesOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeInstanceTypesPaginator(col.c.EC2, &ec2.DescribeInstanceTypesInput{InstanceTypes: its}), func(page *ec2.DescribeInstanceTypesOutput) {
			merged.InstanceTypes = append(merged.InstanceTypes, page.InstanceTypes...)
		})
		if err != nil {
			return nil, false, err
		}
		return merged, false, nil
	})
}

// asgNamesPerCall is the most names DescribeAutoScalingGroups accepts in one request.
const asgNamesPerCall = 50

func (col *collector) autoScalingGroups(ctx context.Context, names []string) {
	if len(names) == 0 || !col.wanted("DescribeAutoScalingGroups") {
		return
	}
	col.call(ctx, "DescribeAutoScalingGroups", "autoscaling/describe-auto-scaling-groups.json", func(ctx context.Context, n *int) (any, bool, error) {
		merged := &autoscaling.DescribeAutoScalingGroupsOutput{}
		for start := 0; start < len(names); start += asgNamesPerCall {
			chunk := names[start:min(len(names), start+asgNamesPerCall)]
			err := drain[*autoscaling.DescribeAutoScalingGroupsOutput, func(*autoscaling.Options)](ctx, n, autoscaling.NewDescribeAutoScalingGroupsPaginator(col.c.AutoScaling, &autoscaling.DescribeAutoScalingGroupsInput{AutoScalingGroupNames: chunk}), func(page *autoscaling.DescribeAutoScalingGroupsOutput) {
				merged.AutoScalingGroups = append(merged.AutoScalingGroups, page.AutoScalingGroups...)
			})
			if err != nil {
				return nil, false, err
			}
		}
		if merged.AutoScalingGroups == nil {
			merged.AutoScalingGroups = []asgtypes.AutoScalingGroup{}
		}
		return merged, false, nil
	})
}

func vpcFilter(vpc string) []ec2types.Filter {
	return []ec2types.Filter{{Name: aws.String("vpc-id"), Values: []string{vpc}}}
}

// vpcCalls schedules the VPC-wide describes (one call per kind for the whole VPC).
func (col *collector) vpcCalls(ctx context.Context, run func(func()), vpc string) {
	for _, p := range providers {
		if p.vpc != nil {
			p.vpc(col, ctx, run, vpc)
		}
	}
	if col.wanted("DescribeSubnets") {
		run(func() {
			col.call(ctx, "DescribeSubnets", "ec2/describe-subnets.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeSubnetsOutput{}
				err := drain[*ec2.DescribeSubnetsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeSubnetsPaginator(col.c.EC2, &ec2.DescribeSubnetsInput{Filters: vpcFilter(vpc)}), func(page *ec2.DescribeSubnetsOutput) {
					merged.Subnets = append(merged.Subnets, page.Subnets...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeRouteTables") {
		run(func() {
			col.call(ctx, "DescribeRouteTables", "ec2/describe-route-tables.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeRouteTablesOutput{}
				err := drain[*ec2.DescribeRouteTablesOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeRouteTablesPaginator(col.c.EC2, &ec2.DescribeRouteTablesInput{Filters: vpcFilter(vpc)}), func(page *ec2.DescribeRouteTablesOutput) {
					merged.RouteTables = append(merged.RouteTables, page.RouteTables...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeSecurityGroups") {
		run(func() {
			col.call(ctx, "DescribeSecurityGroups", "ec2/describe-security-groups.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeSecurityGroupsOutput{}
				err := drain[*ec2.DescribeSecurityGroupsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeSecurityGroupsPaginator(col.c.EC2, &ec2.DescribeSecurityGroupsInput{Filters: vpcFilter(vpc)}), func(page *ec2.DescribeSecurityGroupsOutput) {
					merged.SecurityGroups = append(merged.SecurityGroups, page.SecurityGroups...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeNetworkAcls") {
		run(func() {
			col.call(ctx, "DescribeNetworkAcls", "ec2/describe-network-acls.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeNetworkAclsOutput{}
				err := drain[*ec2.DescribeNetworkAclsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeNetworkAclsPaginator(col.c.EC2, &ec2.DescribeNetworkAclsInput{Filters: vpcFilter(vpc)}), func(page *ec2.DescribeNetworkAclsOutput) {
					merged.NetworkAcls = append(merged.NetworkAcls, page.NetworkAcls...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeVpcEndpoints") {
		run(func() {
			col.call(ctx, "DescribeVpcEndpoints", "ec2/describe-vpc-endpoints.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeVpcEndpointsOutput{}
				err := drain[*ec2.DescribeVpcEndpointsOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeVpcEndpointsPaginator(col.c.EC2, &ec2.DescribeVpcEndpointsInput{Filters: vpcFilter(vpc)}), func(page *ec2.DescribeVpcEndpointsOutput) {
					merged.VpcEndpoints = append(merged.VpcEndpoints, page.VpcEndpoints...)
				})
				if err != nil {
					return nil, false, err
				}
				if merged.VpcEndpoints == nil {
					merged.VpcEndpoints = []ec2types.VpcEndpoint{}
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeNatGateways") {
		run(func() {
			col.call(ctx, "DescribeNatGateways", "ec2/describe-nat-gateways.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeNatGatewaysOutput{}
				err := drain[*ec2.DescribeNatGatewaysOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeNatGatewaysPaginator(col.c.EC2, &ec2.DescribeNatGatewaysInput{Filter: vpcFilter(vpc)}), func(page *ec2.DescribeNatGatewaysOutput) {
					merged.NatGateways = append(merged.NatGateways, page.NatGateways...)
				})
				if err != nil {
					return nil, false, err
				}
				if merged.NatGateways == nil {
					merged.NatGateways = []ec2types.NatGateway{}
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeInternetGateways") {
		run(func() {
			col.call(ctx, "DescribeInternetGateways", "ec2/describe-internet-gateways.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &ec2.DescribeInternetGatewaysOutput{}
				err := drain[*ec2.DescribeInternetGatewaysOutput, func(*ec2.Options)](ctx, n, ec2.NewDescribeInternetGatewaysPaginator(col.c.EC2, &ec2.DescribeInternetGatewaysInput{Filters: []ec2types.Filter{{Name: aws.String("attachment.vpc-id"), Values: []string{vpc}}}}), func(page *ec2.DescribeInternetGatewaysOutput) {
					merged.InternetGateways = append(merged.InternetGateways, page.InternetGateways...)
				})
				if err != nil {
					return nil, false, err
				}
				if merged.InternetGateways == nil {
					merged.InternetGateways = []ec2types.InternetGateway{}
				}
				return merged, false, nil
			})
		})
	}
	if col.wanted("DescribeVpcs") {
		run(func() {
			col.call(ctx, "DescribeVpcs", "ec2/describe-vpcs.json", func(ctx context.Context, _ *int) (any, bool, error) {
				out, err := col.c.EC2.DescribeVpcs(ctx, &ec2.DescribeVpcsInput{VpcIds: []string{vpc}})
				return out, false, err
			})
		})
	}
	if col.wanted("DescribeVpcAttribute") {
		for _, attr := range []ec2types.VpcAttributeName{ec2types.VpcAttributeNameEnableDnsSupport, ec2types.VpcAttributeNameEnableDnsHostnames} {
			run(func() {
				col.call(ctx, "DescribeVpcAttribute", "ec2/vpc-attribute/"+vpc+"."+string(attr)+".json", func(ctx context.Context, _ *int) (any, bool, error) {
					out, err := col.c.EC2.DescribeVpcAttribute(ctx, &ec2.DescribeVpcAttributeInput{VpcId: aws.String(vpc), Attribute: attr})
					return out, false, err
				})
			})
		}
	}
}

func (col *collector) dhcpOptionIDs(vpcs []string) []string {
	out, ok := output[*ec2.DescribeVpcsOutput](col, "ec2/describe-vpcs.json")
	if !ok {
		return nil
	}
	var ids []string
	for _, v := range out.Vpcs {
		if id := aws.ToString(v.DhcpOptionsId); id != "" && id != "default" {
			ids = appendUnique(ids, id)
		}
	}
	return ids
}

func (col *collector) dhcpOptions(ctx context.Context, id string) {
	if !col.wanted("DescribeDhcpOptions") {
		return
	}
	col.call(ctx, "DescribeDhcpOptions", "ec2/describe-dhcp-options.json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.EC2.DescribeDhcpOptions(ctx, &ec2.DescribeDhcpOptionsInput{DhcpOptionsIds: []string{id}})
		return out, false, err
	})
}

func (col *collector) instanceProfile(ctx context.Context, name string) {
	if !col.wanted("GetInstanceProfile") {
		return
	}
	col.call(ctx, "GetInstanceProfile", "iam/get-instance-profile/"+name+".json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.IAM.GetInstanceProfile(ctx, &iam.GetInstanceProfileInput{InstanceProfileName: aws.String(name)})
		return out, false, err
	})
}

// roleNames returns the roles inside the fetched instance profiles.
func (col *collector) roleNames(profiles []string) []string {
	var roles []string
	for _, p := range profiles {
		if out, ok := output[*iam.GetInstanceProfileOutput](col, "iam/get-instance-profile/"+p+".json"); ok && out.InstanceProfile != nil {
			for _, r := range out.InstanceProfile.Roles {
				roles = appendUnique(roles, aws.ToString(r.RoleName))
			}
		}
	}
	return roles
}

func (col *collector) roleArns(profiles []string) []string {
	var arns []string
	for _, p := range profiles {
		if out, ok := output[*iam.GetInstanceProfileOutput](col, "iam/get-instance-profile/"+p+".json"); ok && out.InstanceProfile != nil {
			for _, r := range out.InstanceProfile.Roles {
				arns = appendUnique(arns, aws.ToString(r.Arn))
			}
		}
	}
	return arns
}

func (col *collector) attachedPolicies(ctx context.Context, role string) {
	if !col.wanted("ListAttachedRolePolicies") {
		return
	}
	col.call(ctx, "ListAttachedRolePolicies", "iam/list-attached-role-policies/"+role+".json", func(ctx context.Context, n *int) (any, bool, error) {
		merged := &iam.ListAttachedRolePoliciesOutput{}
		err := drain[*iam.ListAttachedRolePoliciesOutput, func(*iam.Options)](ctx, n, iam.NewListAttachedRolePoliciesPaginator(col.c.IAM, &iam.ListAttachedRolePoliciesInput{RoleName: aws.String(role)}), func(page *iam.ListAttachedRolePoliciesOutput) {
			merged.AttachedPolicies = append(merged.AttachedPolicies, page.AttachedPolicies...)
		})
		if err != nil {
			return nil, false, err
		}
		return merged, false, nil
	})
}

// clusterCalls schedules DescribeCluster, ListAccessEntries and, for instances outside managed
// node groups, ListNodegroups.
func (col *collector) clusterCalls(ctx context.Context, run func(func()), cluster string, instances []ec2types.Instance) {
	for _, p := range providers {
		if p.cluster != nil {
			p.cluster(col, ctx, run, cluster)
		}
	}
	if col.wanted("DescribeCluster") {
		run(func() {
			col.call(ctx, "DescribeCluster", "eks/describe-cluster.json", func(ctx context.Context, _ *int) (any, bool, error) {
				out, err := col.c.EKS.DescribeCluster(ctx, &eks.DescribeClusterInput{Name: aws.String(cluster)})
				return out, true, err
			})
		})
	}
	if col.wanted("ListAccessEntries") {
		run(func() {
			col.call(ctx, "ListAccessEntries", "eks/list-access-entries.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &eks.ListAccessEntriesOutput{AccessEntries: []string{}}
				err := drain[*eks.ListAccessEntriesOutput, func(*eks.Options)](ctx, n, eks.NewListAccessEntriesPaginator(col.c.EKS, &eks.ListAccessEntriesInput{ClusterName: aws.String(cluster)}), func(page *eks.ListAccessEntriesOutput) {
					merged.AccessEntries = append(merged.AccessEntries, page.AccessEntries...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, true, nil
			})
		})
	}
	needList := instances == nil || col.o.Scan
	for _, in := range instances {
		if ec2Tags(in.Tags)["eks:nodegroup-name"] == "" {
			needList = true
		}
	}
	if needList && col.wanted("ListNodegroups") {
		run(func() {
			col.call(ctx, "ListNodegroups", "eks/list-nodegroups.json", func(ctx context.Context, n *int) (any, bool, error) {
				merged := &eks.ListNodegroupsOutput{Nodegroups: []string{}}
				err := drain[*eks.ListNodegroupsOutput, func(*eks.Options)](ctx, n, eks.NewListNodegroupsPaginator(col.c.EKS, &eks.ListNodegroupsInput{ClusterName: aws.String(cluster)}), func(page *eks.ListNodegroupsOutput) {
					merged.Nodegroups = append(merged.Nodegroups, page.Nodegroups...)
				})
				if err != nil {
					return nil, false, err
				}
				return merged, true, nil
			})
		})
	}
}

// clusterDetailCalls schedules DescribeNodegroup for the instances' node groups and
// DescribeAccessEntry for their roles that have an access entry.
func (col *collector) clusterDetailCalls(ctx context.Context, run func(func()), cluster string, instances []ec2types.Instance, profiles []string) {
	for _, p := range providers {
		if p.detail != nil {
			p.detail(col, ctx, run, cluster, instances)
		}
	}
	if col.wanted("DescribeNodegroup") && !col.o.Scan {
		var ngs []string
		for _, in := range instances {
			ngs = appendUnique(ngs, ec2Tags(in.Tags)["eks:nodegroup-name"])
		}
		for _, ng := range ngs {
			run(func() { col.describeNodegroup(ctx, cluster, ng) })
		}
	}
	col.clusterRoleCalls(ctx, run, profiles)
	if !col.wanted("DescribeAccessEntry") {
		return
	}
	list, ok := output[*eks.ListAccessEntriesOutput](col, "eks/list-access-entries.json")
	if !ok {
		return
	}
	for _, arn := range col.roleArns(profiles) {
		for _, entry := range list.AccessEntries {
			if !sameRole(entry, arn) {
				continue
			}
			run(func() {
				col.call(ctx, "DescribeAccessEntry", "eks/describe-access-entry/"+lastSegment(arn)+".json", func(ctx context.Context, _ *int) (any, bool, error) {
					out, err := col.c.EKS.DescribeAccessEntry(ctx, &eks.DescribeAccessEntryInput{ClusterName: aws.String(cluster), PrincipalArn: aws.String(entry)})
					return out, true, err
				})
			})
		}
	}
}

// sameRole compares role ARNs ignoring case and IAM path.
func sameRole(a, b string) bool {
	norm := func(s string) string {
		s = strings.ToLower(s)
		if i := strings.Index(s, ":role/"); i >= 0 {
			return s[:i] + ":role/" + lastSegment(s)
		}
		return s
	}
	return norm(a) == norm(b)
}

func (col *collector) describeNodegroup(ctx context.Context, cluster, ng string) {
	if !col.wanted("DescribeNodegroup") {
		return
	}
	col.call(ctx, "DescribeNodegroup", "eks/describe-nodegroup/"+ng+".json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.EKS.DescribeNodegroup(ctx, &eks.DescribeNodegroupInput{ClusterName: aws.String(cluster), NodegroupName: aws.String(ng)})
		return out, true, err
	})
}

// listedNodegroups returns the node groups named by list-nodegroups.
func (col *collector) listedNodegroups() []string {
	if out, ok := output[*eks.ListNodegroupsOutput](col, "eks/list-nodegroups.json"); ok {
		return out.Nodegroups
	}
	return nil
}

// nodegroupASGs returns the Auto Scaling groups of the described node groups.
func (col *collector) nodegroupASGs() []string {
	var names []string
	for _, ng := range col.listedNodegroups() {
		if out, ok := output[*eks.DescribeNodegroupOutput](col, "eks/describe-nodegroup/"+ng+".json"); ok && out.Nodegroup != nil && out.Nodegroup.Resources != nil {
			for _, a := range out.Nodegroup.Resources.AutoScalingGroups {
				names = append(names, aws.ToString(a.Name))
			}
		}
	}
	return names
}

func uniq(l []string) []string {
	var out []string
	for _, s := range l {
		out = appendUnique(out, s)
	}
	return out
}

// scalingActivities fetches the most recent page of an Auto Scaling group's activities.
func (col *collector) scalingActivities(ctx context.Context, group string) {
	if !col.wanted("DescribeScalingActivities") {
		return
	}
	col.call(ctx, "DescribeScalingActivities", "autoscaling/describe-scaling-activities/"+group+".json", func(ctx context.Context, _ *int) (any, bool, error) {
		out, err := col.c.AutoScaling.DescribeScalingActivities(ctx, &autoscaling.DescribeScalingActivitiesInput{AutoScalingGroupName: aws.String(group), MaxRecords: aws.Int32(50)})
		return out, false, err
	})
}

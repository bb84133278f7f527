// Package awsfake is an HTTP server that speaks the real AWS wire protocols the collector uses —
// EC2 query with XML responses, IAM and Auto Scaling query with XML, EKS REST-JSON, and the
// JSON 1.1 protocol of CloudWatch Logs and CloudTrail (POST with an X-Amz-Target header) — and answers
// from a snapshot directory (docs/snapshot-format.md). Tests point the real SDK (or the eksdoctor
// binary) at it with AWS_ENDPOINT_URL. It can inject latency, throttling and AccessDenied, and
// records every operation it served. It listens on loopback only.
package awsfake

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eksdoctor/eksdoctor/collectors/layout"
	"github.com/eksdoctor/eksdoctor/collectors/snapshot"
)

// Server answers AWS API requests from a snapshot directory.
type Server struct {
	// Root is the snapshot directory.
	Root string
	// Latency is added to every request.
	Latency time.Duration
	// ThrottleEvery makes every Nth request fail with the service's throttling error (0 = never).
	ThrottleEvery int
	// Deny lists IAM actions ("ec2:DescribeVpcEndpoints") answered with the service's access-denied error.
	Deny map[string]bool
	// Faults replaces the answer to IAM actions ("ec2:DescribeInstanceAttribute", or "*" for
	// every action) with a raw HTTP response: an endpoint that does not behave like AWS.
	Faults map[string]Fault
	// RepeatToken lists IAM actions ("ec2:DescribeSubnets") whose every page carries the same
	// next-page token, so a client that trusts it pages forever.
	RepeatToken map[string]bool
	// BadDate sends an unparsable Date header with every answer.
	BadDate bool

	mu       sync.Mutex
	requests int
	served   []string
	srv      *httptest.Server
}

// Fault is a raw HTTP answer (status, Content-Type and body) given instead of the AWS one.
type Fault struct {
	Status      int
	ContentType string
	Body        string
}

// New returns a server for the snapshot directory root; call Start.
func New(root string) *Server { return &Server{Root: root, Deny: map[string]bool{}} }

// Start listens on a loopback port and returns the endpoint URL.
func (s *Server) Start() string {
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	return s.srv.URL
}

// Close stops the server.
func (s *Server) Close() {
	if s.srv != nil {
		s.srv.Close()
	}
}

// Requests returns the number of HTTP requests received (retries included).
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

// Operations returns the IAM actions of every request received, in order.
func (s *Server) Operations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.served...)
}

// serverDate is the snapshot's collectedAt as an HTTP date, so clients see the fixture's time as
// AWS's time (empty when the snapshot has no manifest).
func (s *Server) serverDate() string {
	b, err := os.ReadFile(filepath.Join(s.Root, "manifest.json"))
	if err != nil {
		return ""
	}
	var m struct{ CollectedAt string }
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	t, err := time.Parse(time.RFC3339, m.CollectedAt)
	if err != nil {
		return ""
	}
	return t.UTC().Format(http.TimeFormat)
}

// request is one parsed API call.
type request struct {
	service string // ec2, iam, autoscaling, eks, logs, cloudtrail
	action  string
	form    url.Values
	path    []string // EKS path segments
	// json is the request body of a JSON 1.1 call (logs, cloudtrail).
	json map[string]any
}

// jsonTargets maps the X-Amz-Target prefix of a JSON 1.1 request to the IAM service prefix
// (the services' Smithy models: Logs_20140328, CloudTrail_20131101).
var jsonTargets = map[string]string{
	"Logs_20140328":       "logs",
	"CloudTrail_20131101": "cloudtrail",
	"com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101": "cloudtrail",
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	req, err := parse(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests++
	n := s.requests
	s.served = append(s.served, req.service+":"+req.action)
	s.mu.Unlock()
	if s.Latency > 0 {
		time.Sleep(s.Latency)
	}
	if s.ThrottleEvery > 0 && n%s.ThrottleEvery == 0 {
		writeError(w, req, throttleCode(req.service), "Rate exceeded")
		return
	}
	if f, ok := s.fault(req.service + ":" + req.action); ok {
		if f.ContentType != "" {
			w.Header().Set("Content-Type", f.ContentType)
		}
		w.WriteHeader(f.Status)
		io.WriteString(w, f.Body)
		return
	}
	if s.Deny[req.service+":"+req.action] {
		writeError(w, req, deniedCode(req.service), fmt.Sprintf("User: arn:aws:sts::111122223333:assumed-role/readonly/eksdoctor is not authorized to perform: %s:%s", req.service, req.action))
		return
	}
	if d := s.serverDate(); d != "" {
		w.Header().Set("Date", d)
	}
	if s.BadDate {
		w.Header().Set("Date", "the day after yesterday")
	}
	body, code, msg := s.answer(req)
	if code != "" {
		writeError(w, req, code, msg)
		return
	}
	if s.RepeatToken[req.service+":"+req.action] {
		switch req.service {
		case "iam":
			body["IsTruncated"], body["Marker"] = true, "again"
		case "eks", "logs":
			body["nextToken"] = "again"
		default:
			body["NextToken"] = "again"
		}
	}
	write(w, req, body)
}

func (s *Server) fault(action string) (Fault, bool) {
	if f, ok := s.Faults[action]; ok {
		return f, true
	}
	f, ok := s.Faults["*"]
	return f, ok
}

func parse(r *http.Request) (*request, error) {
	if strings.HasPrefix(r.URL.Path, "/clusters") {
		segs := strings.Split(strings.Trim(r.URL.EscapedPath(), "/"), "/")
		for i := range segs {
			segs[i], _ = url.PathUnescape(segs[i])
		}
		req := &request{service: "eks", path: segs}
		switch {
		case len(segs) == 2:
			req.action = "DescribeCluster"
		case len(segs) == 3 && segs[2] == "access-entries":
			req.action = "ListAccessEntries"
		case len(segs) == 4 && segs[2] == "access-entries":
			req.action = "DescribeAccessEntry"
		case len(segs) == 3 && segs[2] == "node-groups":
			req.action = "ListNodegroups"
		case len(segs) == 4 && segs[2] == "node-groups":
			req.action = "DescribeNodegroup"
		case len(segs) == 3 && segs[2] == "fargate-profiles":
			req.action = "ListFargateProfiles"
		case len(segs) == 4 && segs[2] == "fargate-profiles":
			req.action = "DescribeFargateProfile"
		default:
			return nil, fmt.Errorf("unsupported EKS path %s", r.URL.Path)
		}
		return req, nil
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if target := r.Header.Get("X-Amz-Target"); target != "" {
		i := strings.LastIndexByte(target, '.')
		svc, ok := jsonTargets[target[:max(i, 0)]]
		if !ok {
			return nil, fmt.Errorf("unsupported X-Amz-Target %q", target)
		}
		req := &request{service: svc, action: target[i+1:], json: map[string]any{}}
		if len(b) > 0 {
			if err := json.Unmarshal(b, &req.json); err != nil {
				return nil, fmt.Errorf("JSON 1.1 body: %v", err)
			}
		}
		return req, nil
	}
	form, err := url.ParseQuery(string(b))
	if err != nil {
		return nil, err
	}
	req := &request{action: form.Get("Action"), form: form}
	switch form.Get("Version") {
	case "2016-11-15":
		req.service = "ec2"
	case "2010-05-08":
		req.service = "iam"
	case "2011-01-01":
		req.service = "autoscaling"
	case "2011-06-15":
		req.service = "sts"
	default:
		return nil, fmt.Errorf("unsupported API version %q", form.Get("Version"))
	}
	return req, nil
}

func throttleCode(service string) string {
	switch service {
	case "ec2":
		return "RequestLimitExceeded"
	case "eks", "logs", "cloudtrail":
		return "ThrottlingException"
	}
	return "Throttling"
}

func deniedCode(service string) string {
	switch service {
	case "ec2":
		return "UnauthorizedOperation"
	case "eks", "logs", "cloudtrail":
		return "AccessDeniedException"
	}
	return "AccessDenied"
}

// jsonProtocol reports whether the service answers in JSON (REST-JSON or JSON 1.1).
func jsonProtocol(service string) bool {
	return service == "eks" || service == "logs" || service == "cloudtrail"
}

func status(code string) int {
	switch {
	case code == "RequestLimitExceeded":
		return http.StatusServiceUnavailable
	case code == "ThrottlingException":
		return http.StatusTooManyRequests
	case code == "UnauthorizedOperation" || strings.HasPrefix(code, "AccessDenied"):
		return http.StatusForbidden
	case code == "NoSuchEntity" || code == "ResourceNotFoundException":
		return http.StatusNotFound
	}
	return http.StatusBadRequest
}

func writeError(w http.ResponseWriter, req *request, code, msg string) {
	var buf bytes.Buffer
	switch {
	case jsonProtocol(req.service):
		w.Header().Set("Content-Type", contentType(req.service))
		w.Header().Set("X-Amzn-Errortype", code)
		w.WriteHeader(status(code))
		b, _ := json.Marshal(map[string]string{"__type": code, "message": msg})
		w.Write(b)
		return
	case req.service == "ec2":
		fmt.Fprintf(&buf, `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>%s</Code><Message>%s</Message></Error></Errors><RequestID>fake-request</RequestID></Response>`, esc(code), esc(msg))
	default:
		fmt.Fprintf(&buf, `<ErrorResponse xmlns="%s"><Error><Type>Sender</Type><Code>%s</Code><Message>%s</Message></Error><RequestId>fake-request</RequestId></ErrorResponse>`, namespace(req.service), esc(code), esc(msg))
	}
	w.Header().Set("Content-Type", "text/xml")
	w.WriteHeader(status(code))
	w.Write(buf.Bytes())
}

func namespace(service string) string {
	switch service {
	case "ec2":
		return "http://ec2.amazonaws.com/doc/2016-11-15/"
	case "iam":
		return "https://iam.amazonaws.com/doc/2010-05-08/"
	case "autoscaling":
		return "http://autoscaling.amazonaws.com/doc/2011-01-01/"
	}
	return "https://sts.amazonaws.com/doc/2011-06-15/"
}

// contentType is the Content-Type of a JSON service's answers.
func contentType(service string) string {
	if service == "eks" {
		return "application/json"
	}
	return "application/x-amz-json-1.1"
}

// write renders body (a CLI-shaped JSON object) in the service's wire format.
func write(w http.ResponseWriter, req *request, body map[string]any) {
	if jsonProtocol(req.service) {
		w.Header().Set("Content-Type", contentType(req.service))
		b, _ := json.Marshal(epochTimestamps(body))
		w.Write(b)
		return
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, `<?xml version="1.0" encoding="UTF-8"?>`+"\n"+`<%sResponse xmlns="%s">`, req.action, namespace(req.service))
	if req.service == "ec2" {
		buf.WriteString("<requestId>fake-request</requestId>")
		writeXMLFields(&buf, "", body, true)
	} else {
		fmt.Fprintf(&buf, "<%sResult>", req.action)
		writeXMLFields(&buf, "", body, false)
		fmt.Fprintf(&buf, "</%sResult><ResponseMetadata><RequestId>fake-request</RequestId></ResponseMetadata>", req.action)
	}
	fmt.Fprintf(&buf, "</%sResponse>", req.action)
	w.Header().Set("Content-Type", "text/xml")
	w.Write(buf.Bytes())
}

// ec2Names maps CLI (API member) names to EC2 XML element names where they are not simply the
// name with a lower-case first letter (EC2 API reference, "Response Elements").
var ec2Names = map[string]string{
	"Reservations": "reservationSet", "Instances": "instancesSet", "Tags": "tagSet", "State": "instanceState",
	"PublicIpAddress": "ipAddress", "RouteTables": "routeTableSet", "Routes": "routeSet", "Associations": "associationSet",
	"NetworkAcls": "networkAclSet", "Entries": "entrySet", "IsDefault": "default", "UserIdGroupPairs": "groups",
	"VpcEndpoints": "vpcEndpointSet", "RouteTableIds": "routeTableIdSet", "SubnetIds": "subnetIdSet", "Groups": "groupSet",
	"NatGateways": "natGatewaySet", "NatGatewayAddresses": "natGatewayAddressSet", "InternetGateways": "internetGatewaySet",
	"Attachments": "attachmentSet", "DhcpOptions": "dhcpOptionsSet", "DhcpConfigurations": "dhcpConfigurationSet",
	"Values": "valueSet", "Images": "imagesSet", "OwnerId": "imageOwnerId", "InstanceTypes": "instanceTypeSet",
	"LaunchTemplateVersions": "launchTemplateVersionSet", "SecurityGroupIds": "securityGroupIdSet",
	"NetworkInterfaces": "networkInterfaceSet", "Subnets": "subnetSet", "Vpcs": "vpcSet", "PrefixLists": "prefixListSet",
}

func ec2Name(parent, key string) string {
	switch {
	case key == "SecurityGroups" && parent == "":
		return "securityGroupInfo"
	case key == "SecurityGroups":
		return "groupSet"
	case key == "State" && parent != "Instances" && parent != "":
		return "state"
	case key == "State" && parent == "":
		return "state"
	case key == "OwnerId" && parent != "Images":
		return "ownerId"
	case key == "BlockDeviceMappings" && parent == "LaunchTemplateData":
		return "blockDeviceMappingSet" // ResponseLaunchTemplateData
	case key == "BlockDeviceMappings":
		return "blockDeviceMapping" // Image, Instance
	}
	if n, ok := ec2Names[key]; ok {
		return n
	}
	return strings.ToLower(key[:1]) + key[1:]
}

func writeXMLFields(buf *bytes.Buffer, parent string, m map[string]any, ec2 bool) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := k
		if ec2 {
			name = ec2Name(parent, k)
		}
		writeXMLValue(buf, parent, k, name, m[k], ec2)
	}
}

func writeXMLValue(buf *bytes.Buffer, parent, key, name string, v any, ec2 bool) {
	switch t := v.(type) {
	case nil:
		return
	case map[string]any:
		fmt.Fprintf(buf, "<%s>", name)
		writeXMLFields(buf, key, t, ec2)
		fmt.Fprintf(buf, "</%s>", name)
	case []any:
		fmt.Fprintf(buf, "<%s>", name)
		item := "member"
		if ec2 {
			item = "item"
			if len(t) > 0 && key == "Groups" {
				if _, isString := t[0].(string); isString {
					item = "groupId" // GroupIdStringList (launch template network interfaces)
				}
			}
		}
		for _, x := range t {
			writeXMLValue(buf, key, key, item, x, ec2)
		}
		fmt.Fprintf(buf, "</%s>", name)
	case bool:
		fmt.Fprintf(buf, "<%s>%t</%s>", name, t, name)
	case float64:
		fmt.Fprintf(buf, "<%s>%s</%s>", name, strconv.FormatFloat(t, 'f', -1, 64), name)
	case string:
		fmt.Fprintf(buf, "<%s>%s</%s>", name, esc(t), name)
	default:
		fmt.Fprintf(buf, "<%s>%s</%s>", name, esc(fmt.Sprint(t)), name)
	}
}

func esc(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\r':
			b.WriteString("&#13;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// epochTimestamps converts RFC 3339 strings under keys ending in "At" (EKS) and CloudTrail's
// EventTime to epoch seconds, the JSON wire format of timestamps.
func epochTimestamps(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && (strings.HasSuffix(k, "At") || k == "EventTime") {
				if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
					t[k] = float64(tm.UnixMilli()) / 1000
					continue
				}
			}
			t[k] = epochTimestamps(x)
		}
	case []any:
		for i := range t {
			t[i] = epochTimestamps(t[i])
		}
	}
	return v
}

// load reads a snapshot file. A file holding AWS CLI error text returns that error's code.
func (s *Server) load(path string) (map[string]any, string, string) {
	b, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(path)))
	if err != nil {
		return nil, "", ""
	}
	if e := snapshot.ParseCLIError(b); e != nil && e.Code != "" {
		return nil, e.Code, e.Message
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, "InternalError", "fixture " + path + " is not JSON: " + err.Error()
	}
	return m, "", ""
}

// indexed returns the values of a query list parameter (Name.1, Name.2, …).
func indexed(form url.Values, name string) []string {
	var out []string
	for i := 1; ; i++ {
		v := form.Get(fmt.Sprintf("%s.%d", name, i))
		if v == "" {
			return out
		}
		out = append(out, v)
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// filterList keeps the items of m[listKey] whose idKey is in ids (all when ids is empty).
func filterList(m map[string]any, listKey, idKey string, ids []string) {
	if len(ids) == 0 || m == nil {
		return
	}
	items, _ := m[listKey].([]any)
	var kept []any
	for _, it := range items {
		if o, ok := it.(map[string]any); ok && contains(ids, fmt.Sprint(o[idKey])) {
			kept = append(kept, it)
		}
	}
	if kept == nil {
		kept = []any{}
	}
	m[listKey] = kept
}

// answer maps a request to the snapshot file that holds its response.
func (s *Server) answer(req *request) (map[string]any, string, string) {
	f := req.form
	load := func(p string) (map[string]any, string, string) {
		m, code, msg := s.load(p)
		if m == nil && code == "" {
			return nil, notFoundCode(req.service), "not found: " + p
		}
		return m, code, msg
	}
	switch req.service + ":" + req.action {
	case "ec2:DescribeInstances":
		m, code, msg := load("ec2/describe-instances.json")
		ids := indexed(f, "InstanceId")
		if m != nil && len(ids) > 0 {
			found := map[string]bool{}
			var kept []any
			rs, _ := m["Reservations"].([]any)
			for _, r := range rs {
				rm, _ := r.(map[string]any)
				insts, _ := rm["Instances"].([]any)
				var ki []any
				for _, in := range insts {
					im, _ := in.(map[string]any)
					if id := fmt.Sprint(im["InstanceId"]); contains(ids, id) {
						found[id] = true
						ki = append(ki, in)
					}
				}
				if len(ki) > 0 {
					rm["Instances"] = ki
					kept = append(kept, rm)
				}
			}
			for _, id := range ids {
				if !found[id] {
					return nil, "InvalidInstanceID.NotFound", fmt.Sprintf("The instance ID '%s' does not exist", id)
				}
			}
			m["Reservations"] = kept
		}
		return m, code, msg
	case "ec2:DescribeInstanceAttribute":
		return load("ec2/instance-user-data/" + f.Get("InstanceId") + ".json")
	case "ec2:GetConsoleOutput":
		m, code, msg := s.load("ec2/get-console-output/" + f.Get("InstanceId") + ".json")
		if code != "" {
			return nil, code, msg
		}
		if m == nil {
			return map[string]any{"InstanceId": f.Get("InstanceId")}, "", ""
		}
		if out, ok := m["Output"].(string); ok {
			m["Output"] = base64.StdEncoding.EncodeToString([]byte(out)) // the wire carries base64
		}
		return m, "", ""
	case "ec2:DescribeLaunchTemplateVersions":
		return load("ec2/describe-launch-template-versions/" + f.Get("LaunchTemplateId") + ".json")
	case "ec2:DescribeImages":
		m, code, msg := load("ec2/describe-images.json")
		filterList(m, "Images", "ImageId", indexed(f, "ImageId"))
		return m, code, msg
	case "ec2:DescribeInstanceTypes":
		m, code, msg := load("ec2/describe-instance-types.json")
		filterList(m, "InstanceTypes", "InstanceType", indexed(f, "InstanceType"))
		return m, code, msg
	case "ec2:DescribeSubnets", "ec2:DescribeRouteTables", "ec2:DescribeSecurityGroups", "ec2:DescribeNetworkAcls",
		"ec2:DescribeVpcEndpoints", "ec2:DescribeNatGateways", "ec2:DescribeInternetGateways", "ec2:DescribeVpcs", "ec2:DescribeDhcpOptions":
		return load("ec2/" + kebab(req.action) + ".json")
	case "ec2:DescribeManagedPrefixLists":
		m, code, msg := load("ec2/describe-managed-prefix-lists.json")
		filterList(m, "PrefixLists", "PrefixListId", indexed(f, "PrefixListId"))
		return m, code, msg
	case "ec2:GetManagedPrefixListEntries":
		return load("ec2/get-managed-prefix-list-entries/" + f.Get("PrefixListId") + ".json")
	case "ec2:DescribeVpcAttribute":
		return load("ec2/vpc-attribute/" + f.Get("VpcId") + "." + f.Get("Attribute") + ".json")
	case "iam:GetInstanceProfile":
		return encodePolicies(load("iam/get-instance-profile/" + f.Get("InstanceProfileName") + ".json"))
	case "iam:GetRole":
		return encodePolicies(load("iam/get-role/" + f.Get("RoleName") + ".json"))
	case "iam:ListAttachedRolePolicies":
		return load("iam/list-attached-role-policies/" + f.Get("RoleName") + ".json")
	case "autoscaling:DescribeAutoScalingGroups":
		m, code, msg := load("autoscaling/describe-auto-scaling-groups.json")
		filterList(m, "AutoScalingGroups", "AutoScalingGroupName", indexed(f, "AutoScalingGroupNames.member"))
		return m, code, msg
	case "autoscaling:DescribeScalingActivities":
		return load("autoscaling/describe-scaling-activities/" + f.Get("AutoScalingGroupName") + ".json")
	case "eks:DescribeCluster", "eks:ListAccessEntries", "eks:ListNodegroups", "eks:DescribeNodegroup", "eks:DescribeAccessEntry",
		"eks:ListFargateProfiles", "eks:DescribeFargateProfile":
		return s.eks(req)
	case "logs:FilterLogEvents":
		return s.filterLogEvents(req)
	case "cloudtrail:LookupEvents":
		return s.lookupEvents(req)
	}
	// Any other operation of the layout with a fixed path (a kind added with a provider of its
	// own) is answered from its snapshot file as it is.
	for _, e := range layout.Entries {
		if e.Permission == req.service+":"+req.action && !e.Keyed() {
			return load(e.Path)
		}
	}
	return nil, "InvalidAction", "the fake does not implement " + req.service + ":" + req.action
}

func notFoundCode(service string) string {
	switch service {
	case "iam":
		return "NoSuchEntity"
	case "eks":
		return "ResourceNotFoundException"
	}
	return "InvalidParameterValue"
}

// kebab turns DescribeRouteTables into describe-route-tables.
func kebab(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// encodePolicies URL-encodes IAM policy documents, as the IAM API returns them.
func encodePolicies(m map[string]any, code, msg string) (map[string]any, string, string) {
	var walk func(v any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			for k, x := range t {
				if k == "AssumeRolePolicyDocument" {
					if _, isStr := x.(string); !isStr {
						b, _ := json.Marshal(x)
						t[k] = url.QueryEscape(string(b))
						continue
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range t {
				walk(x)
			}
		}
	}
	walk(m)
	return m, code, msg
}

func (s *Server) eks(req *request) (map[string]any, string, string) {
	cluster := req.path[1]
	c, code, msg := s.load("eks/describe-cluster.json")
	if code != "" && req.action == "DescribeCluster" {
		return nil, code, msg
	}
	if c != nil {
		cm, _ := c["cluster"].(map[string]any)
		if cm == nil || cm["name"] != cluster {
			return nil, "ResourceNotFoundException", "No cluster found for name: " + cluster + "."
		}
	}
	notFound := func(m map[string]any, code, msg string) (map[string]any, string, string) {
		if m == nil && code == "" {
			return nil, "ResourceNotFoundException", "not found"
		}
		return m, code, msg
	}
	switch req.action {
	case "DescribeCluster":
		return notFound(c, code, msg)
	case "ListAccessEntries":
		return notFound(s.load("eks/list-access-entries.json"))
	case "ListNodegroups":
		return notFound(s.load("eks/list-nodegroups.json"))
	case "DescribeNodegroup":
		return notFound(s.load("eks/describe-nodegroup/" + req.path[3] + ".json"))
	case "ListFargateProfiles":
		m, code, msg := s.load("eks/list-fargate-profiles.json")
		if m == nil && code == "" {
			return map[string]any{"fargateProfileNames": []any{}}, "", "" // a cluster without profiles
		}
		return m, code, msg
	case "DescribeFargateProfile":
		return notFound(s.load("eks/describe-fargate-profile/" + req.path[3] + ".json"))
	default: // DescribeAccessEntry
		arn := req.path[3]
		return notFound(s.load("eks/describe-access-entry/" + arn[strings.LastIndexByte(arn, '/')+1:] + ".json"))
	}
}

// logGroupStreams are the snapshot files answering FilterLogEvents, by log stream name prefix.
var logGroupStreams = map[string]string{
	"authenticator":        "logs/authenticator-events.json",
	"kube-apiserver-audit": "logs/audit-events.json",
}

// filterLogEvents answers FilterLogEvents on /aws/eks/CLUSTER/cluster from the file of the
// requested stream prefix, keeping the events at or after startTime (milliseconds). A cluster
// whose snapshot has no file for the stream answers as CloudWatch Logs does for a log group
// that was never created.
func (s *Server) filterLogEvents(req *request) (map[string]any, string, string) {
	group, _ := req.json["logGroupName"].(string)
	prefix, _ := req.json["logStreamNamePrefix"].(string)
	p, ok := logGroupStreams[prefix]
	if !ok || !strings.HasPrefix(group, "/aws/eks/") {
		return nil, "InvalidParameterException", "the fake serves the authenticator and kube-apiserver-audit streams of /aws/eks/CLUSTER/cluster"
	}
	m, code, msg := s.load(p)
	if code != "" {
		return nil, code, msg
	}
	if m == nil {
		return nil, "ResourceNotFoundException", "The specified log group does not exist."
	}
	start, _ := req.json["startTime"].(float64)
	events, _ := m["events"].([]any)
	kept := []any{}
	for _, e := range events {
		em, _ := e.(map[string]any)
		if ts, _ := em["timestamp"].(float64); ts >= start {
			kept = append(kept, e)
		}
	}
	return map[string]any{"events": kept}, "", ""
}

// lookupEvents answers LookupEvents for one EventName lookup attribute from
// cloudtrail/lookup-events/<EventName>.json, keeping events at or after StartTime (epoch
// seconds); an event name without a file has no events, as CloudTrail answers.
func (s *Server) lookupEvents(req *request) (map[string]any, string, string) {
	attrs, _ := req.json["LookupAttributes"].([]any)
	if len(attrs) != 1 {
		return nil, "InvalidLookupAttributesException", "exactly one lookup attribute is supported"
	}
	a, _ := attrs[0].(map[string]any)
	if a["AttributeKey"] != "EventName" {
		return nil, "InvalidLookupAttributesException", "the fake looks events up by EventName only"
	}
	name, _ := a["AttributeValue"].(string)
	if name == "" || strings.ContainsAny(name, "/\\.") {
		return nil, "InvalidLookupAttributesException", "invalid event name"
	}
	m, code, msg := s.load("cloudtrail/lookup-events/" + name + ".json")
	if code != "" {
		return nil, code, msg
	}
	if m == nil {
		return map[string]any{"Events": []any{}}, "", ""
	}
	start, _ := req.json["StartTime"].(float64)
	events, _ := m["Events"].([]any)
	kept := []any{}
	for _, e := range events {
		em, _ := e.(map[string]any)
		t, err := time.Parse(time.RFC3339Nano, fmt.Sprint(em["EventTime"]))
		if err != nil || float64(t.Unix()) >= start {
			kept = append(kept, e)
		}
	}
	return map[string]any{"Events": kept}, "", ""
}

package checks

import (
	"strings"
	"testing"

	"github.com/eksdoctor/eksdoctor/collectors/evidence"
)

// TestRecoveredOutsideKubelet: a component's failure followed by the same component's own
// healthy-progress line is transient, as the kubelet's "node not found" before "Successfully
// registered node" is (red team 6, REPORT-b F1, F3): IPAMD growing its pool or serving its RPC
// handler after an ENI or EC2 failure, bootstrap.sh enabling the kubelet after a throttled DescribeCluster was retried. A failure after
// the progress line still fails. IPAMD's EC2 throttling is
// runtime.throttled, not a subnet without addresses.
func TestRecoveredOutsideKubelet(t *testing.T) {
	const (
		ipamdSubnetFull = `{"level":"error","ts":"2023-04-08T10:25:03.947Z","caller":"ipamd/ipamd.go:854","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: failed to create ENI: failed to create network interface: InsufficientFreeAddressesInSubnet: The specified subnet does not have enough free addresses to satisfy the request.\n\tstatus code: 400, request id: 8f1e2d7c-1b3a-4c55-9a1e-7d0b1b2c3d4e"}`
		ipamdIncreased  = `{"level":"debug","ts":"2023-04-08T10:25:08.120Z","caller":"ipamd/ipamd.go:825","msg":"Successfully increased IP pool: Total IPs/Prefixes = 29/0, AssignedIPs/CooldownIPs: 0/0"}`
		ipamdReply      = `{"level":"info","ts":"2023-04-08T10:25:11.442Z","caller":"rpc/rpc.pb.go:731","msg":"Send AddNetworkReply: IPv4Addr 10.0.14.77, IPv6Addr: , DeviceNumber: 0, err: <nil>"}`
		ipamdReplyNone  = `{"level":"info","ts":"2023-04-08T10:25:11.442Z","caller":"rpc/rpc.pb.go:731","msg":"Send AddNetworkReply: IPv4Addr , IPv6Addr: , DeviceNumber: -1, err: assignPodIPv4AddressUnsafe: no available IP/Prefix addresses"}`
		ipamdEC2Timeout = `{"level":"warn","ts":"2023-01-20T08:10:34.521Z","caller":"awsutils/awsutils.go:1158","msg":"Failed to call ec2:DescribeSubnets: RequestError: send request failed\ncaused by: Post \"https://ec2.us-west-2.amazonaws.com/\": dial tcp 52.94.28.50:443: i/o timeout"}`
		ipamdServing    = `{"level":"info","ts":"2023-01-20T08:10:41.120Z","caller":"aws-k8s-agent/main.go:140","msg":"Serving RPC Handler version v1.19.2 on 127.0.0.1:50051"}`
		ipamdThrottled  = `{"level":"error","ts":"2022-07-11T12:01:33.121Z","caller":"ipamd/ipamd.go:845","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: failed to create ENI: failed to create network interface: RequestLimitExceeded: Request limit exceeded.\n\tstatus code: 503, request id: 0d9e1f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a"}`
		ipamdThrottled2 = `{"level":"error","ts":"2022-07-11T12:03:41.511Z","caller":"ipamd/ipamd.go:845","msg":"Failed to increase pool size due to not able to allocate ENI AllocENI: failed to create ENI: failed to create network interface: RequestLimitExceeded: Request limit exceeded.\n\tstatus code: 503, request id: 1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b"}`
		ipamdPoolStats  = `{"level":"debug","ts":"2022-07-11T12:02:33.585Z","caller":"ipamd/ipamd.go:694","msg":"IP pool stats for network card 0: Total IPs/Prefixes = 18/0, AssignedIPs/CookieIPs/CooldownIPs = 5/0/0, c.maxIPsPerENI = 9"}`
		ipamdAddedLater = `{"level":"info","ts":"2022-07-11T12:05:04.203Z","caller":"datastore/data_store.go:564","msg":"Added ENI(eni-0a1b2c3d4e5f60718)'s IP/Prefix 10.0.1.23/32 to datastore"}`

		cloudInit = "Cloud-init v. 19.3-46.amzn2 running 'modules:final' at Wed, 14 Dec 2022 10:02:10 +0000. Up 12.31 seconds.\nUsing kubelet version 1.23.13\ntrue\nUsing containerd as the container runtime\n"
		throttled = "An error occurred (ThrottlingException) when calling the DescribeCluster operation (reached max retries: 4): Rate exceeded\n"
		enabled   = "Created symlink from /etc/systemd/system/multi-user.target.wants/kubelet.service to /etc/systemd/system/kubelet.service.\n"
		finished  = "Cloud-init v. 19.3-46.amzn2 finished at Wed, 14 Dec 2022 10:02:31 +0000. Datasource DataSourceEc2.  Up 33.02 seconds\n"
	)
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	for _, tc := range []struct {
		name, id, log string
		want          Status
		msg           string
	}{
		{"IPAMD subnet full, then the pool grew (case 12)", "runtime.ipamd-no-ips", lines(ipamdSubnetFull, ipamdIncreased, ipamdReply), StatusPass, "transient"},
		{"IPAMD subnet full, then a pod got an address", "runtime.ipamd-no-ips", lines(ipamdSubnetFull, ipamdReply), StatusPass, "transient"},
		{"IPAMD subnet full, a reply without an address", "runtime.ipamd-no-ips", lines(ipamdSubnetFull, ipamdReplyNone), StatusFail, "no free addresses"},
		{"IPAMD subnet full after the pool grew", "runtime.ipamd-no-ips", lines(ipamdIncreased, strings.Replace(ipamdSubnetFull, "10:25:03", "10:29:03", 1)), StatusFail, "no free addresses"},
		{"IPAMD EC2 timeout, then serving RPC (case 14)", "runtime.ipamd-no-ec2", lines(ipamdEC2Timeout, ipamdServing), StatusPass, "transient"},
		{"IPAMD EC2 timeout after serving RPC", "runtime.ipamd-no-ec2", lines(strings.Replace(ipamdServing, "08:10:41", "08:09:41", 1), ipamdEC2Timeout), StatusFail, "EC2 API"},
		{"IPAMD throttled is throttling (case 27)", "runtime.throttled", lines(ipamdThrottled, ipamdThrottled2), StatusFail, "IPAMD"},
		{"IPAMD throttled is not a subnet without addresses (case 27)", "runtime.ipamd-no-ips", lines(ipamdThrottled, ipamdThrottled2), StatusPass, ""},
		{"IPAMD throttled, then it added addresses", "runtime.throttled", lines(ipamdThrottled, ipamdThrottled2, ipamdAddedLater), StatusPass, "transient"},
		{"IPAMD throttled once in a log that goes on (bundles8/08)", "runtime.throttled", lines(ipamdThrottled, ipamdPoolStats, strings.Replace(ipamdPoolStats, "12:02:33", "13:02:33", 1), strings.Replace(ipamdPoolStats, "12:02:33", "15:02:33", 1)), StatusPass, "fewer than the 3"},
		{"IPAMD throttled three times in a log that goes on", "runtime.throttled", lines(ipamdThrottled, ipamdThrottled2, strings.Replace(ipamdThrottled2, "12:03:41", "12:04:41", 1), ipamdPoolStats), StatusFail, "IPAMD"},
		{"bootstrap.sh throttled once, retried, kubelet enabled (case 97)", "runtime.throttled", cloudInit + throttled + "Attempt 1 of 3\n" + enabled + finished, StatusPass, "transient"},
		{"bootstrap.sh throttled on every attempt (case 96)", "runtime.throttled", cloudInit + strings.Repeat(throttled+"Attempt 1 of 3\n\n", 3) + throttled, StatusFail, "throttle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := Default().Get(tc.id)
			ev := &evidence.Evidence{}
			withLogs(tc.log)(ev)
			f := Run([]Check{c}, ev)[0]
			if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) {
				t.Errorf("%s: %s %q, want %s containing %q", tc.id, f.Status, f.Message, tc.want, tc.msg)
			}
		})
	}
}

// TestSameImagePullResolves: containerd's (or the kubelet's) successful pull of an image
// resolves earlier failed pulls of that image only (red team 6, case 111): another image's pull,
// or a pull of it before it failed, does not; registry, quotes and the registry API's manifest
// path do not make two references different images.
func TestSameImagePullResolves(t *testing.T) {
	const (
		pause        = `602401143452.dkr.ecr.eu-central-1.amazonaws.com/eks/pause:3.5`
		cni          = `602401143452.dkr.ecr.eu-central-1.amazonaws.com/amazon-k8s-cni:v1.18.0`
		pullFailed   = `Jun 11 07:02:41 ip-10-42-17-203.eu-central-1.compute.internal containerd[1602]: time="2024-06-11T07:02:41.771203391Z" level=error msg="PullImage \"IMG\" failed" error="failed to pull and unpack image \"IMG\": failed to resolve reference \"IMG\": failed to do request: Head \"https://602401143452.dkr.ecr.eu-central-1.amazonaws.com/v2/eks/pause/manifests/3.5\": dial tcp 3.124.199.71:443: i/o timeout"`
		pullReturned = `Jun 11 07:02:53 ip-10-42-17-203.eu-central-1.compute.internal containerd[1602]: time="2024-06-11T07:02:53.921203391Z" level=info msg="PullImage \"IMG\" returns image reference \"sha256:6996f8da07bd405c6f82a549ef041deda57d1d658ec20a78584f9f436c9a3bb7\""`
		eventFailed  = `  Warning  Failed     3m    kubelet  Failed to pull image "IMG": rpc error: code = Unknown desc = failed to pull and unpack image "IMG": i/o timeout`
		eventPulled  = `  Normal   Pulled     1m    kubelet  Successfully pulled image "IMG" in 1.2s (1.2s including waiting)`
	)
	img := func(line, image string) string { return strings.ReplaceAll(line, "IMG", image) }
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	for _, tc := range []struct {
		name, log string
		want      Status
		msg       string
	}{
		{"pause pull failed, then pulled (case 111)", lines(img(pullFailed, pause), img(pullReturned, pause)), StatusPass, "transient"},
		{"pause pull failed, another image pulled", lines(img(pullFailed, pause), img(pullReturned, cni)), StatusFail, "eks/pause:3.5"},
		{"two images failed, one pulled", lines(img(pullFailed, pause), img(pullFailed, cni), img(pullReturned, cni)), StatusFail, "eks/pause:3.5"},
		{"two images failed, both pulled", lines(img(pullFailed, pause), img(pullFailed, cni), img(pullReturned, cni), img(pullReturned, pause)), StatusPass, "transient"},
		{"pause pulled before it failed", lines(strings.Replace(img(pullReturned, pause), "07:02:53", "07:01:53", 2), img(pullFailed, pause)), StatusFail, "eks/pause:3.5"},
		{"kubelet events: failed, then pulled", lines(img(eventFailed, cni), img(eventPulled, cni)), StatusPass, "transient"},
		{"kubelet events: failed, another image pulled", lines(img(eventFailed, cni), img(eventPulled, "602401143452.dkr.ecr.eu-central-1.amazonaws.com/eks/kube-proxy:v1.30.0-eksbuild.3")), StatusFail, "amazon-k8s-cni:v1.18.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := Default().Get("runtime.image-pull")
			ev := &evidence.Evidence{}
			withLogs(tc.log)(ev)
			f := Run([]Check{c}, ev)[0]
			if f.Status != tc.want || !strings.Contains(f.Message, tc.msg) || strings.Contains(f.Message, `\`) {
				t.Errorf("%s %q, want %s containing %q (and no escape)", f.Status, f.Message, tc.want, tc.msg)
			}
		})
	}
}

// TestBottlerocketBootPastBootstrapContainer: a Bottlerocket bootstrap container that fails
// without essential = true does not stop the boot; the unit that activates multi-user.target
// (Requires= and After=configured.target; "Isolates multi-user.target" in older releases,
// "Activate multi-user.target" in bottlerocket-core-kit) starting afterwards shows configured.target was
// reached, so the failure was not what kept the node out (bottlerocket-os/bottlerocket#1488).
// An essential container's failure, which fails configured.target, still fails.
func TestBottlerocketBootPastBootstrapContainer(t *testing.T) {
	const (
		failed      = "Starting bootstrap container test...\n[FAILED] Failed to start bootstrap container test.\nSee 'systemctl status bootstrap-containers@test.service' for details.\n"
		isolates    = "Starting Isolates multi-user.target...\n[  OK  ] Reached target Multi-User System.\n"
		activate    = "         Starting activate-multi-user.service - Activate multi-user.target...\n[  OK  ] Finished activate-multi-user.service - Activate multi-user.target.\n"
		depConfig   = "[DEPEND] Dependency failed for Isolates configured.target.\n"
		depMultiUsr = "[DEPEND] Dependency failed for Isolates multi-user.target.\n"
	)
	for _, tc := range []struct {
		name, log string
		want      Status
	}{
		{"non-essential container failed, multi-user.target isolated (1.x)", failed + isolates, StatusPass},
		{"non-essential container failed, multi-user.target activated", failed + activate, StatusPass},
		{"essential container failed, configured.target never reached", failed + depConfig + depMultiUsr, StatusFail},
		{"multi-user.target activated before the container failed", activate + failed, StatusFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := Default().Get("runtime.bootstrap-failed")
			ev := &evidence.Evidence{}
			withLogs(tc.log)(ev)
			f := Run([]Check{c}, ev)[0]
			if f.Status != tc.want {
				t.Errorf("runtime.bootstrap-failed: %s %q, want %s", f.Status, f.Message, tc.want)
			}
		})
	}
}

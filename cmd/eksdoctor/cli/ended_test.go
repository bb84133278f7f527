package cli

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestScanLeavesOutEndedInstances (red team round 11b, finding 15): describe-instances keeps a
// terminated instance for about an hour. One terminated or shutting down by an EC2 API call
// (scale-in, replacement: Client.UserInitiatedShutdown) or a Spot interruption is not a node
// waiting to join: scan lists it apart (fleet ended), not as "not joined", and does not fail on
// it. One that ended abnormally at launch (Client.InternalError: an EBS KMS key it may not use)
// still is diagnosed, with instance.not-running; why-not-joining of the ended one keeps it.
func TestScanLeavesOutEndedInstances(t *testing.T) {
	snap, p, d, res := healthyInstancesCopy(t)
	inst := res["Instances"].([]any)[0].(map[string]any)
	ended := func(id, state, reason string) map[string]any {
		c := map[string]any{}
		for k, v := range inst {
			c[k] = v
		}
		c["InstanceId"], c["PrivateDnsName"] = id, "ip-10-0-1-99.eu-west-1.compute.internal"
		c["State"] = map[string]any{"Code": 48, "Name": state}
		c["StateReason"] = map[string]any{"Code": strings.SplitN(reason, ":", 2)[0], "Message": reason}
		return c
	}
	res["Instances"] = append(res["Instances"].([]any),
		ended("i-0000000000000scale", "terminated", "Client.UserInitiatedShutdown: User initiated shutdown"),
		ended("i-000000000000000spot", "shutting-down", "Server.SpotInstanceTermination: Spot instance termination"))
	write := func() {
		b, _ := json.Marshal(d)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write()
	code, out, errOut := run("scan", "--cluster", "prod", "--snapshot", snap)
	flat := strings.Join(strings.Fields(out), " ")
	if code != ExitOK || strings.Contains(flat, "not-running") || !strings.Contains(flat, "0 not joined, 1 joined, 2 ended by an EC2 API call or a Spot interruption (not diagnosed)") {
		t.Errorf("scan exit %d:\n%s%s", code, out, errOut)
	}
	code, out, errOut = run("scan", "--cluster", "prod", "--snapshot", snap, "-o", "json")
	var sc struct {
		Fleet struct {
			Ended []struct {
				InstanceID, State, Reason string
			} `json:"ended"`
			Summary struct {
				Ended int `json:"ended"`
			} `json:"summary"`
		} `json:"fleet"`
		Summary struct {
			Unjoined *int `json:"unjoined"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &sc); err != nil || code != ExitOK || sc.Summary.Unjoined == nil || *sc.Summary.Unjoined != 0 || sc.Fleet.Summary.Ended != 2 ||
		len(sc.Fleet.Ended) != 2 || sc.Fleet.Ended[1].InstanceID != "i-0000000000000scale" || sc.Fleet.Ended[1].State != "terminated" ||
		!strings.HasPrefix(sc.Fleet.Ended[1].Reason, "Client.UserInitiatedShutdown") || sc.Fleet.Ended[0].State != "shutting-down" {
		t.Errorf("scan -o json exit %d (%v): %+v\n%s", code, err, sc, errOut)
	}
	code, out, _ = run("why-not-joining", "i-0000000000000scale", "--snapshot", snap)
	if code != ExitFindings || !strings.Contains(out, "instance.not-running") {
		t.Errorf("why-not-joining of the ended instance exit %d:\n%s", code, out)
	}
	// an abnormal end at launch is a cause, still diagnosed
	res["Instances"] = append(res["Instances"].([]any), ended("i-00000000000000kms", "terminated", "Client.InternalError: Client error on launch"))
	write()
	code, out, errOut = run("scan", "--cluster", "prod", "--snapshot", snap)
	flat = strings.Join(strings.Fields(out), " ")
	if code != ExitFindings || !strings.Contains(flat, "i-00000000000000kms") || !strings.Contains(flat, "instance.not-running") || !strings.Contains(flat, "1 not joined, 1 joined, 2 ended") {
		t.Errorf("scan with a launch failure exit %d:\n%s%s", code, out, errOut)
	}
}

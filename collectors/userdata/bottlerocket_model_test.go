package userdata

import (
	"strings"
	"testing"
)

// These tests pin the Bottlerocket reader to the types of Bottlerocket's settings model, read
// in bottlerocket-os/bottlerocket at 5fcd44c4^ (before the models moved to the settings SDK):
// sources/models/src/lib.rs (KubernetesSettings, KernelSettings), sources/models/src/de.rs
// (deserialize_node_taints) and sources/models/src/modeled_types/kubernetes.rs
// (KubernetesTaintValue). Settings that do not fit the model make the API reject the whole
// settings document, so none of it is applied. The inputs are our own.

const brHead = "[settings.kubernetes]\ncluster-name = \"c\"\napi-server = \"https://x.eks.amazonaws.com\"\ncluster-certificate = \"QUJD\"\n"

func brErrors(t *testing.T, toml string) string {
	t.Helper()
	c := Decode([]byte(toml))
	return strings.Join(errorsOf(c), "\n")
}

// Rule (lib.rs KernelSettings: sysctl is HashMap<SysctlKey, String>): sysctl values are
// strings; a TOML integer or boolean is rejected.
func TestBottlerocketSysctlValuesAreStrings(t *testing.T) {
	if e := brErrors(t, brHead+"[settings.kernel.sysctl]\n\"net.ipv4.ip_forward\" = \"1\"\n"); e != "" {
		t.Errorf("string value: unexpected errors %s", e)
	}
	e := brErrors(t, brHead+"[settings.kernel.sysctl]\n\"net.ipv4.ip_forward\" = 1\n")
	if !strings.Contains(e, "settings.kernel.sysctl") || !strings.Contains(e, "net.ipv4.ip_forward") {
		t.Errorf("integer value: want an error naming the sysctl, got %q", e)
	}
}

// Rule (de.rs deserialize_node_taints): a taint key maps to one "value:Effect" string or a
// non-empty list of them; an empty list is "empty taint value", other types are "unsupported
// taint value type", and each value must match KUBERNETES_TAINT_VALUE (optional value, a
// colon, an effect).
func TestBottlerocketNodeTaints(t *testing.T) {
	c := Decode([]byte(brHead + "[settings.kubernetes.node-taints]\ndedicated = [\"gpu:NoSchedule\", \"gpu:NoExecute\"]\nspecial = \":PreferNoSchedule\"\n"))
	if e := errorsOf(c); len(e) != 0 {
		t.Errorf("valid taints: unexpected errors %v", e)
	}
	if got := strings.Join(c.Taints, ","); got != "dedicated=gpu:NoSchedule,dedicated=gpu:NoExecute,special=:PreferNoSchedule" {
		t.Errorf("taints = %s", got)
	}
	for in, want := range map[string]string{
		"dedicated = []\n":      "empty",
		"dedicated = 3\n":       "string or a list",
		"dedicated = \"gpu\"\n": "value:Effect",
	} {
		if e := brErrors(t, brHead+"[settings.kubernetes.node-taints]\n"+in); !strings.Contains(e, "node-taints.dedicated") || !strings.Contains(e, want) {
			t.Errorf("%q: want an error with %q, got %q", in, want, e)
		}
	}
}

// Rule (lib.rs KubernetesSettings: max_pods is u32, cluster_certificate is ValidBase64,
// api_server is Url): a quoted max-pods is not a number to the model, and the certificate
// must be base64.
func TestBottlerocketKubernetesSettingTypes(t *testing.T) {
	if e := brErrors(t, brHead+"max-pods = \"110\"\n"); !strings.Contains(e, "max-pods") {
		t.Errorf("quoted max-pods: want an error, got %q", e)
	}
	if e := brErrors(t, strings.Replace(brHead, "QUJD", "not base64!", 1)); !strings.Contains(e, "cluster-certificate") {
		t.Errorf("bad certificate: want an error, got %q", e)
	}
	if e := brErrors(t, brHead+"max-pods = 110\n"); e != "" {
		t.Errorf("valid: unexpected errors %q", e)
	}
	// a poster's shortening or mask is not the node's value (blind round 14, Karpenter #6890's
	// settings: cluster-certificate = '...==')
	for _, v := range []string{"...==", "LS0tLS1CRUdJTi…", "<base64 CA>", "****", "xxxxxxxx", "REDACTED"} {
		if e := brErrors(t, strings.Replace(brHead, "QUJD", v, 1)); e != "" {
			t.Errorf("elided certificate %q: unexpected errors %q", v, e)
		}
	}
}

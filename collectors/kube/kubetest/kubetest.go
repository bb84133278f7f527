// Package kubetest runs a real etcd and kube-apiserver on loopback for integration tests, from
// binaries built by build-testbin.sh (see docs/real-apiserver.md). The API server uses RBAC
// authorization and a static token file with an admin (system:masters) and a user with no
// groups, so denials are real 403s.
package kubetest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// DefaultVersion is the Kubernetes version build-testbin.sh builds.
const DefaultVersion = "v1.33.13"

// Tokens of the static token file.
const (
	AdminToken = "eksdoctor-admin-token"
	// NoGroupsToken authenticates user "nobody" with no groups: every request is Forbidden.
	NoGroupsToken = "eksdoctor-nobody-token"
)

// Env is a running control plane.
type Env struct {
	Host string
	dir  string
	cmds []*exec.Cmd
	// exited are closed when the matching cmds exit.
	exited []chan struct{}
}

// BinDir returns the folder holding etcd and kube-apiserver: $EKSDOCTOR_TESTBIN, else the
// cache folder build-testbin.sh uses. ok is false when the binaries are not there.
func BinDir() (string, bool) {
	dir := os.Getenv("EKSDOCTOR_TESTBIN")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "eksdoctor-testbin", "k8s-"+DefaultVersion)
	}
	for _, b := range []string{"etcd", "kube-apiserver"} {
		if fi, err := os.Stat(filepath.Join(dir, b)); err != nil || fi.Mode()&0o111 == 0 {
			return dir, false
		}
	}
	return dir, true
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start launches etcd and kube-apiserver from bin and waits until /readyz answers (60 s at most).
// A port taken between choosing it and binding it (test packages start servers in parallel) is
// retried with new ports, three times at most. Errors: a binary fails to start or the server
// does not become ready; logs are in the error.
func Start(bin string) (*Env, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var e *Env
		if e, err = start(bin); err == nil {
			return e, nil
		}
		if !strings.Contains(err.Error(), "address already in use") {
			return nil, err
		}
	}
	return nil, err
}

func start(bin string) (*Env, error) {
	dir, err := os.MkdirTemp("", "eksdoctor-apiserver")
	if err != nil {
		return nil, err
	}
	e := &Env{dir: dir}
	fail := func(err error) (*Env, error) {
		e.Stop()
		return nil, err
	}
	clientPort, _ := freePort()
	peerPort, _ := freePort()
	securePort, _ := freePort()
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(clientPort)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	if err := e.run(filepath.Join(bin, "etcd"), "etcd.log", "--name", "default", "--data-dir", filepath.Join(dir, "etcd"),
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL, "--listen-peer-urls", peerURL,
		"--initial-advertise-peer-urls", peerURL, "--initial-cluster", "default="+peerURL, "--log-level", "warn"); err != nil {
		return fail(err)
	}
	if err := e.waitHTTP(etcdURL+"/health", "", 30*time.Second); err != nil {
		return fail(fmt.Errorf("etcd not healthy: %w (%s)", err, e.log("etcd.log")))
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fail(err)
	}
	keyFile := filepath.Join(dir, "sa.key")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		return fail(err)
	}
	tokens := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokens, []byte(AdminToken+",admin,1,\"system:masters\"\n"+NoGroupsToken+",nobody,2\n"), 0o600); err != nil {
		return fail(err)
	}
	if err := e.run(filepath.Join(bin, "kube-apiserver"), "apiserver.log", "--etcd-servers", etcdURL, "--bind-address", "127.0.0.1",
		"--advertise-address", "127.0.0.1", "--secure-port", strconv.Itoa(securePort), "--cert-dir", filepath.Join(dir, "certs"),
		"--service-cluster-ip-range", "10.0.0.0/24", "--endpoint-reconciler-type", "none",
		"--service-account-issuer", "https://kubernetes.default.svc.cluster.local", "--service-account-key-file", keyFile,
		"--service-account-signing-key-file", keyFile, "--token-auth-file", tokens, "--authorization-mode", "RBAC"); err != nil {
		return fail(err)
	}
	e.Host = "https://127.0.0.1:" + strconv.Itoa(securePort)
	if err := e.waitHTTP(e.Host+"/readyz", AdminToken, 60*time.Second); err != nil {
		return fail(fmt.Errorf("kube-apiserver not ready: %w (%s)", err, e.log("apiserver.log")))
	}
	return e, nil
}

func (e *Env) run(bin, logName string, args ...string) error {
	logf, err := os.Create(filepath.Join(e.dir, logName))
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", bin, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	e.cmds = append(e.cmds, cmd)
	e.exited = append(e.exited, exited)
	return nil
}

// dead reports whether a started process has exited (it failed: they run until Stop).
func (e *Env) dead() bool {
	for _, x := range e.exited {
		select {
		case <-x:
			return true
		default:
		}
	}
	return false
}

func (e *Env) log(name string) string {
	b, _ := os.ReadFile(filepath.Join(e.dir, name))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// waitHTTP polls url until it answers 200, a started process exits (another process may own
// the port: its answers are not ours) or limit passes.
func (e *Env) waitHTTP(url, token string, limit time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		if e.dead() {
			return errors.New("the process exited")
		}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = errors.New(resp.Status)
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return last
}

// Config returns a client configuration authenticating with token (the self-signed serving
// certificate is not verified: the server is on loopback and lives for one test run).
func (e *Env) Config(token string) *rest.Config {
	return &rest.Config{Host: e.Host, BearerToken: token, TLSClientConfig: rest.TLSClientConfig{Insecure: true}, QPS: 100, Burst: 200}
}

// Stop kills both processes and removes the working folder.
func (e *Env) Stop() {
	for i := len(e.cmds) - 1; i >= 0; i-- {
		if p := e.cmds[i].Process; p != nil {
			p.Kill()
			<-e.exited[i]
		}
	}
	os.RemoveAll(e.dir)
}

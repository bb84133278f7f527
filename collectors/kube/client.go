package kube

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ClientOptions say how to reach the cluster's API server.
type ClientOptions struct {
	// Kubeconfig and Context select a kubeconfig (standard loading rules: KUBECONFIG, ~/.kube/config).
	Kubeconfig, Context string
	// Endpoint and CAData (base64 PEM, as DescribeCluster returns it) with AWS build a client
	// authenticated like `aws eks get-token` when no kubeconfig applies.
	Endpoint, CAData, Cluster string
	AWS                       *aws.Config
	// Timeout bounds each request (0 = 20s).
	Timeout time.Duration
}

// ErrNoAccess is returned when no way to reach the cluster is configured.
var ErrNoAccess = errors.New("no Kubernetes access: no kubeconfig, not in a pod, and no cluster endpoint with AWS credentials")

// RESTConfig returns a client configuration, trying in order: an explicit --kubeconfig or
// --context (or KUBECONFIG / ~/.kube/config), the in-cluster service account, and the cluster's
// endpoint and CA with an EKS token from the caller's AWS identity.
func RESTConfig(o ClientOptions) (*rest.Config, string, error) {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if o.Kubeconfig != "" {
		rules.ExplicitPath = o.Kubeconfig
	}
	explicit := o.Kubeconfig != "" || o.Context != ""
	if explicit || os.Getenv("KUBECONFIG") != "" || fileExists(rules.GetDefaultFilename()) {
		cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: o.Context}).ClientConfig()
		if err == nil {
			cfg.Timeout = timeout
			return cfg, "kubeconfig", nil
		}
		if explicit {
			return nil, "", fmt.Errorf("kubeconfig: %w", err)
		}
	}
	if cfg, err := rest.InClusterConfig(); err == nil {
		cfg.Timeout = timeout
		return cfg, "in-cluster service account", nil
	}
	if o.Endpoint == "" || o.AWS == nil || o.Cluster == "" {
		return nil, "", ErrNoAccess
	}
	ca, err := base64.StdEncoding.DecodeString(o.CAData)
	if err != nil {
		return nil, "", fmt.Errorf("cluster certificateAuthority.data is not base64: %w", err)
	}
	cfg := &rest.Config{Host: o.Endpoint, TLSClientConfig: rest.TLSClientConfig{CAData: ca}, Timeout: timeout}
	cluster, awsCfg := o.Cluster, *o.AWS
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return &eksTokenTransport{next: rt, cluster: cluster, cfg: awsCfg}
	}
	return cfg, "EKS token from the caller's AWS identity", nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return p != "" && err == nil
}

// eksTokenTransport adds a fresh EKS bearer token to each request.
type eksTokenTransport struct {
	next    http.RoundTripper
	cluster string
	cfg     aws.Config
}

func (t *eksTokenTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	tok, err := Token(r.Context(), t.cfg, t.cluster)
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+tok)
	return t.next.RoundTrip(r)
}

// Token returns an EKS bearer token for cluster, made as `aws eks get-token` makes it: an STS
// GetCallerIdentity request presigned for 60 seconds with the header x-k8s-aws-id: <cluster>,
// base64url-encoded behind the prefix "k8s-aws-v1."
// (https://github.com/kubernetes-sigs/aws-iam-authenticator#api-authorization-from-outside-a-cluster).
func Token(ctx context.Context, cfg aws.Config, cluster string) (string, error) {
	client := sts.NewPresignClient(sts.NewFromConfig(cfg))
	req, err := client.PresignGetCallerIdentity(ctx, &sts.GetCallerIdentityInput{}, func(po *sts.PresignOptions) {
		po.ClientOptions = append(po.ClientOptions, func(o *sts.Options) {
			o.APIOptions = append(o.APIOptions,
				smithyhttp.AddHeaderValue("x-k8s-aws-id", cluster),
				func(stack *middleware.Stack) error {
					return stack.Build.Add(middleware.BuildMiddlewareFunc("eksdoctorExpires", func(ctx context.Context, in middleware.BuildInput, next middleware.BuildHandler) (middleware.BuildOutput, middleware.Metadata, error) {
						if r, ok := in.Request.(*smithyhttp.Request); ok {
							q := r.URL.Query()
							q.Set("X-Amz-Expires", "60")
							r.URL.RawQuery = q.Encode()
						}
						return next.HandleBuild(ctx, in)
					}), middleware.After)
				})
		})
	})
	if err != nil {
		return "", fmt.Errorf("presigning sts:GetCallerIdentity: %w", err)
	}
	return "k8s-aws-v1." + base64.RawURLEncoding.EncodeToString([]byte(req.URL)), nil
}

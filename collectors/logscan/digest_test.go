package logscan

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "regenerate catalog/catalog.gen.json from the YAML catalog")

// TestCatalogDigest: the digest the binary reads is the YAML catalog (make catalog or
// go test ./collectors/logscan -run CatalogDigest -update regenerates it).
func TestCatalogDigest(t *testing.T) {
	sigs, comps, err := LoadCatalog(catalogFS)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Digest(sigs, comps)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.FromSlash(DigestPath)
	if *update {
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: regenerate it with go test ./collectors/logscan -run CatalogDigest -update", DigestPath)
	}
}

// BenchmarkLoadDigest measures what start-up pays for the catalog.
func BenchmarkLoadDigest(b *testing.B) {
	for i := 0; i < b.N; i++ {
		catalogOnce = sync.Once{}
		if len(Catalog()) == 0 {
			b.Fatal("empty catalog")
		}
	}
}

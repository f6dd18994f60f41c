package datasets

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The registry must list exactly the files of the mirror's manifests, with
// the same sizes, sums and URLs: MANIFEST.tsv (the data) and
// dimred_saved/MANIFEST.tsv (the author's saved fits, kept apart).
func TestRegistryMatchesManifest(t *testing.T) {
	dir := needMirror(t)
	var rows []string
	for _, m := range []string{"MANIFEST.tsv", filepath.Join("dimred_saved", "MANIFEST.tsv")} {
		b, err := os.ReadFile(filepath.Join(dir, m))
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, strings.Split(strings.TrimSpace(string(b)), "\n")[1:]...)
	}
	if len(rows) != len(Files()) {
		t.Errorf("the manifests have %d files, the registry %d", len(rows), len(Files()))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		f := strings.Split(row, "\t")
		if len(f) != 5 {
			t.Fatalf("MANIFEST row %q", row)
		}
		if seen[f[0]+"/"+f[1]] {
			t.Errorf("%s/%s listed twice", f[0], f[1])
		}
		seen[f[0]+"/"+f[1]] = true
		e, err := Lookup(f[0], f[1])
		if err != nil {
			t.Error(err)
			continue
		}
		size, _ := strconv.ParseInt(f[2], 10, 64)
		url := f[4]
		if url == "-" {
			url = ""
		}
		if e.Size != size || e.SHA256 != f[3] || e.URL != url {
			t.Errorf("%s/%s: registry %d %s %q, MANIFEST %d %s %q", f[0], f[1], e.Size, e.SHA256, e.URL, size, f[3], url)
		}
	}
}

func TestRegistryNamesAndURLs(t *testing.T) {
	for _, f := range Files() {
		if !safeName(f.Dataset) || !safeName(f.Name) {
			t.Errorf("unsafe registry name %q/%q", f.Dataset, f.Name)
		}
		if f.URL != "" && !strings.HasPrefix(f.URL, "https://") {
			t.Errorf("%s/%s: URL %q is not https", f.Dataset, f.Name, f.URL)
		}
		if len(f.SHA256) != 64 || f.Size <= 0 {
			t.Errorf("%s/%s: bad size or sum", f.Dataset, f.Name)
		}
	}
	for _, bad := range []string{"", ".", "..", "a/b", `a\b`, "../x"} {
		if safeName(bad) {
			t.Errorf("safeName(%q) = true", bad)
		}
	}
	if _, err := Path("oil", "nope.txt"); err == nil || !strings.Contains(err.Error(), "not in the registry") {
		t.Errorf("unknown file: %v", err)
	}
}

// Every registered file in the mirror resolves and matches its checksum.
func TestMirrorChecksums(t *testing.T) {
	dir := needMirror(t)
	isolate(t, dir)
	for _, f := range Files() {
		p, err := Path(f.Dataset, f.Name)
		if err != nil {
			t.Error(err)
			continue
		}
		if want := filepath.Join(dir, f.Dataset, f.Name); p != want {
			t.Errorf("Path(%s, %s) = %s, want %s", f.Dataset, f.Name, p, want)
		}
	}
}

// A relative DIMRED_DATA is resolved against the working directory.
func TestRelativeMirror(t *testing.T) {
	dir := needMirror(t)
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, dir)
	if err != nil {
		t.Skip("no relative path to the mirror")
	}
	isolate(t, rel)
	p, err := Path("six", "br1561_6.3.pgm")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(p) {
		t.Errorf("Path returned relative %s", p)
	}
}

// Fetch (scripts/fetch-data) resolves every registered file from the mirror.
func TestFetchFromMirror(t *testing.T) {
	dir := needMirror(t)
	cache := isolate(t, dir)
	seen := 0
	err := Fetch(&FetchSettings{Report: func(f File, path string, err error) {
		seen++
		if err != nil || path != filepath.Join(dir, f.Dataset, f.Name) {
			t.Errorf("%s/%s: %s, %v", f.Dataset, f.Name, path, err)
		}
	}})
	if err != nil || seen != len(Files()) {
		t.Errorf("Fetch: %v after %d of %d files", err, seen, len(Files()))
	}
	if ents, _ := os.ReadDir(cache); len(ents) != 0 {
		t.Errorf("Fetch wrote to the cache although the mirror has everything")
	}
	seen = 0
	Fetch(&FetchSettings{Report: func(File, string, error) { seen++ }}, "oil")
	if seen != 6 {
		t.Errorf("Fetch(oil) visited %d files, want 6", seen)
	}
}

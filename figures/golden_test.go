package figures

import (
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// regen is cmpimg's -regen flag ("go test ./figures -regen"), which also
// rewrites this package's golden PNGs in testdata/golden.
var regen = cmpimg.GenerateTestData

// goldenDPI keeps the committed golden images small; the drawing is
// compared, not the resolution.
const goldenDPI = 40

// goldenDelta is the per-pixel YIQ tolerance of cmpimg.EqualApprox: small
// enough to catch a moved line or a changed colour, large enough to ignore
// anti-aliasing noise.
const goldenDelta = 0.05

// checkGolden compares the figure, rendered at goldenDPI, with
// testdata/golden/<stem>.png; with -regen it rewrites the golden file. On a
// mismatch the new rendering is written to testdata/failed/ for inspection.
func checkGolden(t *testing.T, f *Figure) {
	t.Helper()
	checkSources(t, f)
	got, err := f.pngAt(goldenDPI)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "golden", FileStem(f.ID)+".png")
	if *regen {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("figure %s: no golden image (%v); run 'go test ./figures -run %s -regen' and inspect it", f.ID, err, t.Name())
	}
	ok, err := cmpimg.EqualApprox("png", got, want, goldenDelta)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		failed := filepath.Join("testdata", "failed", FileStem(f.ID)+".png")
		_ = os.MkdirAll(filepath.Dir(failed), 0o755)
		_ = os.WriteFile(failed, got, 0o644)
		t.Errorf("figure %s differs from %s; new rendering in %s (rerun with -regen if the change is intended)", f.ID, path, failed)
	}
}

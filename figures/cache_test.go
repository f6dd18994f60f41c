package figures

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// TestCached: an entry is computed once and then read back; another key
// (other data) computes afresh; DIMRED_NBCACHE=off reads and writes
// nothing.
func TestCached(t *testing.T) {
	if _, ok := CodeVersion(); !ok {
		t.Skip("module sources not found (a -trimpath build?): the cache is bypassed by design")
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	calls := 0
	f := func(v float64) func() ([]float64, error) {
		return func() ([]float64, error) { calls++; return []float64{v, math.NaN()}, nil }
	}
	key := func(x float64) *CacheKey {
		return NewCacheKey("test").Matrix(mat.NewDense(1, 1, []float64{x})).Ints([]int{1, 2})
	}
	v, hit, err := Cached(key(1), f(1))
	if err != nil || hit || calls != 1 || v[0] != 1 {
		t.Fatalf("first call: %v %v %v, %d computations", v, hit, err, calls)
	}
	v, hit, err = Cached(key(1), f(99))
	if err != nil || !hit || calls != 1 || v[0] != 1 || !math.IsNaN(v[1]) {
		t.Fatalf("second call: %v %v %v, %d computations; want the stored [1 NaN]", v, hit, err, calls)
	}
	v, hit, _ = Cached(key(2), f(2))
	if hit || calls != 2 || v[0] != 2 {
		t.Errorf("other data served %v from the cache", v)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "test-*.gob"))
	if len(files) != 2 {
		t.Errorf("%d cache files, want 2", len(files))
	}
	// A failed computation is not stored.
	_, _, err = Cached(key(3), func() ([]float64, error) { return nil, errors.New("boom") })
	if err == nil {
		t.Error("error lost")
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "test-*.gob")); len(files) != 2 {
		t.Errorf("a failed computation was stored")
	}
	t.Setenv(CacheEnv, "off")
	v, hit, _ = Cached(key(1), f(5))
	if hit || v[0] != 5 {
		t.Errorf("DIMRED_NBCACHE=off served %v from the cache", v)
	}
}

// TestCodeVersionSeesEdits: the code version is the hash of the sources,
// so an edit changes it; a source newer than the executable bypasses the
// cache.
func TestCodeVersionSeesEdits(t *testing.T) {
	v1, err := sourceHash()
	if err != nil {
		t.Skip(err)
	}
	v2, _ := sourceHash()
	if v1 != v2 || len(v1) != 64 {
		t.Fatalf("code version not stable: %q, %q", v1, v2)
	}
	exe, _ := os.Executable()
	fi, _ := os.Stat(exe)
	// Make the executable look older than the sources: the code version
	// must then be unknown (the program may predate an edit).
	old := time.Unix(1, 0)
	if err := os.Chtimes(exe, old, old); err != nil {
		t.Skip(err)
	}
	defer os.Chtimes(exe, fi.ModTime(), fi.ModTime())
	if v, err := sourceHash(); err == nil {
		t.Errorf("sources newer than the executable, yet code version %s", v)
	}
}

// TestCompareRecordsRoundTrip: the cache keeps the scores and the kind of
// each fit's error.
func TestCompareRecordsRoundTrip(t *testing.T) {
	X := mat.NewDense(2, 2, []float64{1, 2, 3, 4})
	in := []CompareScore{
		{Data: "a", Method: "m", X: X, NNErrors: 3, T5: 0.9, Score: math.NaN(), LogLikelihood: -1},
		{Data: "a", Method: "n", Err: errNotRun},
		{Data: "b", Method: "m", X: X, Err: fmt.Errorf("x: %w", dimred.ErrNotConverged)},
		{Data: "b", Method: "n", Err: fmt.Errorf("y: %w", dimred.ErrDisconnected)},
	}
	out := compareFromRecords(compareRecords(in))
	if !mat.Equal(out[0].X, X) || out[0].NNErrors != 3 || out[0].T5 != 0.9 || out[0].Err != nil {
		t.Errorf("score 0: %+v", out[0])
	}
	if !errors.Is(out[1].Err, errNotRun) || errors.Is(out[1].Err, dimred.ErrNotConverged) {
		t.Errorf("not-run error lost: %v", out[1].Err)
	}
	if !errors.Is(out[2].Err, dimred.ErrNotConverged) || out[2].Err.Error() != in[2].Err.Error() {
		t.Errorf("not-converged error lost: %v", out[2].Err)
	}
	if !errors.Is(out[3].Err, dimred.ErrDisconnected) {
		t.Errorf("disconnected error lost: %v", out[3].Err)
	}
}

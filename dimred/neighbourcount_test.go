package dimred

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// An explicit neighbour count k ≥ n is a property of the data size (a
// caller who fixes K = 10 and later fits 8 points has made no programmer
// error), so every neighbourhood method returns an error wrapping
// ErrTooFewPoints that names k and n, as LLE, Isomap and
// LaplacianEigenmaps already did. Provenance: an outside-in test of the
// public API found MVU, MEU, AcyclicLLE and DRILL panicking on K = n
// instead. A negative K is a programmer error and panics with the
// package's "dimred: " prefix; K = 0 is the documented default.
func TestNeighbourCountTooLarge(t *testing.T) {
	const n = 12
	Y := mat.DenseCopyOf(conformanceData().Slice(0, n, 0, 5))
	methods := []struct {
		name string
		new  func(k int) Embedder
	}{
		{"LLE", func(k int) Embedder { return &LLE{Q: 2, K: k} }},
		{"Isomap", func(k int) Embedder { return &Isomap{Q: 2, K: k} }},
		{"LaplacianEigenmaps", func(k int) Embedder { return &LaplacianEigenmaps{Q: 2, K: k} }},
		{"MVU", func(k int) Embedder { return &MVU{Q: 2, K: k} }},
		{"MEU", func(k int) Embedder { return &MEU{Q: 2, K: k} }},
		{"AcyclicLLE", func(k int) Embedder { return &AcyclicLLE{Q: 2, K: k} }},
		{"DRILL", func(k int) Embedder { return &DRILL{Q: 2, K: k} }},
	}
	for _, m := range methods {
		for _, k := range []int{n, n + 1, 100} {
			t.Run(m.name+"/k≥n", func(t *testing.T) {
				var err error
				if msg := panicMessage(func() { err = m.new(k).Fit(Y) }); msg != "" {
					t.Fatalf("k = %d, n = %d: Fit panicked: %s", k, n, msg)
				}
				if !errors.Is(err, ErrTooFewPoints) {
					t.Fatalf("k = %d, n = %d: err = %v, want ErrTooFewPoints", k, n, err)
				}
				for _, want := range []string{m.name, "k = " + strconv.Itoa(k), "have " + strconv.Itoa(n)} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not name %q", err, want)
					}
				}
			})
		}
		t.Run(m.name+"/k<0", func(t *testing.T) {
			checkPackagePanic(t, "K = -1", func() { m.new(-1).Fit(Y) })
		})
		t.Run(m.name+"/k=n−1", func(t *testing.T) {
			// The largest legal k: no panic, and no ErrTooFewPoints.
			var err error
			if msg := panicMessage(func() { err = m.new(n - 1).Fit(Y) }); msg != "" {
				t.Fatalf("k = n−1: Fit panicked: %s", msg)
			}
			if errors.Is(err, ErrTooFewPoints) {
				t.Errorf("k = n−1: err = %v", err)
			}
		})
	}
}

package dimred

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// panicText runs f and returns what it panicked with ("" if it returned).
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// Settings outside a model's domain are programmer errors and panic with a
// "dimred:" message naming the setting, the value and the rule — never a
// runtime error from deep inside the fit, and never a message whose
// stated rule the given values satisfy. Found by a review QA pass that fed
// hostile settings to TSNE and UMAP from outside the package:
//
//   - TSNE{Perplexity: 0.2} (any Perplexity < 1/3) panicked with "runtime
//     error: index out of range [0] with length 0": k = ⌊3·Perplexity⌋ = 0
//     neighbours. A perplexity 2^H is at least 1, so Perplexity < 1 is now
//     an impossible parameter, like a negative one.
//   - UMAP{Spread: 1e-300} panicked with "MinDist = 0, Spread = 1e-300
//     (want 0 ≤ MinDist ≤ Spread)", a rule those numbers satisfy: the check
//     compares the default MinDist 0.1, and the message printed the raw
//     fields. It now prints the values compared.
func TestImpossibleSettingsPanicMessages(t *testing.T) {
	Y := randMatrix(rand.New(rand.NewPCG(3, 1)), 40, 5)
	for _, tc := range []struct {
		name string
		fit  func() error
		want string // substring of the panic message
	}{
		{"TSNE Perplexity 1e-300", func() error { return (&TSNE{Perplexity: 1e-300, MaxIter: 10}).Fit(Y) }, "dimred: TSNE: Perplexity = 1e-300, want a finite number ≥ 1"},
		{"TSNE Perplexity 0.2", func() error { return (&TSNE{Perplexity: 0.2, MaxIter: 10}).Fit(Y) }, "Perplexity = 0.2, want a finite number ≥ 1"},
		{"TSNE Perplexity 0.5", func() error { return (&TSNE{Perplexity: 0.5, MaxIter: 10}).Fit(Y) }, "Perplexity = 0.5, want a finite number ≥ 1"},
		{"TSNE Perplexity -1", func() error { return (&TSNE{Perplexity: -1, MaxIter: 10}).Fit(Y) }, "Perplexity = -1, want a finite number ≥ 1"},
		{"UMAP Spread 1e-300", func() error { return (&UMAP{NNeighbors: 5, Spread: 1e-300, NEpochs: 5}).Fit(Y) }, "MinDist = 0.1, Spread = 1e-300 after defaults"},
		{"UMAP MinDist 5", func() error { return (&UMAP{NNeighbors: 5, MinDist: 5, NEpochs: 5}).Fit(Y) }, "MinDist = 5, Spread = 1 after defaults"},
	} {
		msg := panicText(func() { tc.fit() })
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: panic %q, want one containing %q", tc.name, msg, tc.want)
		}
	}
	// The smallest allowed perplexity still fits.
	if err := (&TSNE{Perplexity: 1, MaxIter: 10}).Fit(Y); err != nil {
		t.Errorf("TSNE Perplexity 1: %v", err)
	}
}

// Subsample's settings: a NaN Reg hung Fit forever (the reconstruction's
// fallback regulariser max(NaN, 10⁻³) is NaN, and its ×10 loop stops only
// above 10⁶), +Inf Reg panicked with "LLE local Gram matrix not
// factorisable", and a nil Method with a nil-pointer runtime error. Each is
// now a panic naming the setting. Found by a review QA pass; the fits run
// under a deadline so that the old hang fails the test instead of stalling
// it.
func TestSubsampleImpossibleSettings(t *testing.T) {
	Y := randMatrix(rand.New(rand.NewPCG(5, 1)), 60, 3)
	for _, tc := range []struct {
		name string
		s    *Subsample
		want string
	}{
		{"Reg NaN", &Subsample{Method: &PCA{Q: 2}, M: 20, Reg: math.NaN()}, "dimred: Subsample.Reg = NaN"},
		{"Reg +Inf", &Subsample{Method: &PCA{Q: 2}, M: 20, Reg: math.Inf(1)}, "dimred: Subsample.Reg = +Inf"},
		{"nil Method", &Subsample{M: 20}, "dimred: Subsample.Method is nil"},
		// n×0 data panicked with gonum's "mat: zero length in matrix
		// dimension" (the dimredtest suite's NoColumns check).
		{"no columns", &Subsample{Method: &PCA{Q: 2}, M: 20}, "dimred: Subsample: Y has no columns"},
	} {
		Y := mat.Matrix(Y)
		if tc.name == "no columns" {
			Y = noCols{60}
		}
		done := make(chan string, 1)
		go func() { done <- panicText(func() { tc.s.Fit(Y) }) }()
		select {
		case msg := <-done:
			if !strings.Contains(msg, tc.want) {
				t.Errorf("%s: panic %q, want one containing %q", tc.name, msg, tc.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: Fit still running after 30 s", tc.name)
		}
	}
	// Negative Reg (none) and −Inf are allowed and give a finite placement.
	for _, reg := range []float64{-1, math.Inf(-1)} {
		s := &Subsample{Method: &PCA{Q: 2}, M: 20, Reg: reg}
		if err := s.Fit(Y); err != nil {
			t.Fatalf("Reg %v: %v", reg, err)
		}
		var X mat.Dense
		s.LatentTo(&X)
		for _, v := range X.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("Reg %v: non-finite placement %v", reg, v)
			}
		}
	}
}

// TSNE's affinities are scale-free — each β_i adapts to its own distances
// and the PCA start is normalised — so data scaled by a power of two embed
// to the same bits. Found by a review QA pass: below about 1e-154 the
// squared distances underflowed (Y·1e-160 failed with "ErrNotConverged:
// the embedding diverged (learning rate 50 too large?)", the calibration's
// first β being k/mean d² = +Inf; Y·2^-600 had every distance 0 and was
// embedded as if all its points coincided). ProjectTo scales new points the
// same way.
func TestTSNETinyData(t *testing.T) {
	Y := randMatrix(rand.New(rand.NewPCG(7, 1)), 40, 5)
	Ynew := randMatrix(rand.New(rand.NewPCG(8, 1)), 3, 5)
	fit := func(Y, Ynew mat.Matrix) (*mat.Dense, *mat.Dense) {
		m := &TSNE{Perplexity: 5, MaxIter: 200}
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X, P mat.Dense
		m.LatentTo(&X)
		m.ProjectTo(&P, Ynew)
		return &X, &P
	}
	X0, P0 := fit(Y, Ynew)
	for _, e := range []int{-600, -1000} {
		Ys, Yns := ldexpDense(Y, e), ldexpDense(Ynew, e)
		X, P := fit(Ys, Yns)
		if !mat.Equal(X, X0) || !mat.Equal(P, P0) {
			t.Errorf("Y·2^%d: embedding differs from Y's by %.3g, projection by %.3g", e,
				maxAbsDiffDense(X, X0), maxAbsDiffDense(P, P0))
		}
	}
	// Not a power of two: the fit succeeds.
	var Ys mat.Dense
	Ys.Scale(1e-160, Y)
	m := &TSNE{Perplexity: 5, MaxIter: 200}
	if err := m.Fit(&Ys); err != nil {
		t.Fatalf("Y·1e-160: %v", err)
	}
}

func maxAbsDiffDense(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// An ErrNotConverged fit keeps its last estimate and is usable (package
// documentation), and Subsample relies on it: it places the other points
// after one. TSNE and UMAP returned ErrNotConverged for an embedding that
// diverged to NaN while leaving the model unfitted, so Subsample{Method:
// &TSNE{LearningRate: 1e300}} panicked "dimred: TSNE: model not fitted".
// A diverged embedding is now ErrOverflow, a failed fit. Found by a review
// QA pass.
func TestDivergedFitIsNotNotConverged(t *testing.T) {
	Y := randMatrix(rand.New(rand.NewPCG(9, 1)), 40, 5)
	for _, tc := range []struct {
		name string
		m    func() Embedder
	}{
		{"TSNE", func() Embedder { return &TSNE{Perplexity: 5, MaxIter: 100, LearningRate: 1e300} }},
		{"UMAP", func() Embedder { return &UMAP{NNeighbors: 5, NEpochs: 20, LearningRate: 1e300} }},
	} {
		m := tc.m()
		err := m.Fit(Y)
		if !errors.Is(err, ErrOverflow) || errors.Is(err, ErrNotConverged) {
			t.Errorf("%s with LearningRate 1e300: err = %v, want ErrOverflow", tc.name, err)
		}
		s := &Subsample{Method: tc.m(), M: 20}
		var serr error
		if msg := panicText(func() { serr = s.Fit(Y) }); msg != "" {
			t.Errorf("Subsample of %s with LearningRate 1e300 panicked: %s", tc.name, msg)
		} else if !errors.Is(serr, ErrOverflow) {
			t.Errorf("Subsample of %s with LearningRate 1e300: err = %v, want ErrOverflow", tc.name, serr)
		}
	}
}

// noCols is an n×0 matrix (gonum's Dense cannot be one).
type noCols struct{ n int }

func (z noCols) Dims() (int, int)    { return z.n, 0 }
func (z noCols) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z noCols) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

package kernel

import (
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// kpEvalOnly hides a kernel's bulk path, forcing the generic pairwise loop.
type kpEvalOnly struct{ k Kernel }

func (e kpEvalOnly) Eval(x, y []float64) float64 { return e.k.Eval(x, y) }

func TestRBFEval(t *testing.T) {
	k := RBF{LengthScale: 2}
	x, y := []float64{0, 0}, []float64{2, 0}
	if got, want := k.Eval(x, y), math.Exp(-0.5); math.Abs(got-want) > 1e-15 {
		t.Errorf("k at distance ℓ = %v, want e^{-1/2} = %v", got, want)
	}
	k.Variance = 3
	if got := k.Eval(x, x); got != 3 {
		t.Errorf("k(y,y) = %v, want σ² = 3", got)
	}
	// Parameterisations: inverseWidth = 1/ℓ², γ = 1/(2ℓ²).
	if l := RBFInverseWidth(5e-7).LengthScale; math.Abs(l-1414.2135623730951) > 1e-9 {
		t.Errorf("inverseWidth 5e-7 gives ℓ = %v, want 1414.21 (catalog §2.2)", l)
	}
	if l := RBFGamma(0.125).LengthScale; math.Abs(l-2) > 1e-15 {
		t.Errorf("γ = 1/8 gives ℓ = %v, want 2", l)
	}
}

func TestKernelBulkMatchesEval(t *testing.T) {
	A := testutil.RandDense(37, 5, 1)
	B := testutil.RandDense(23, 5, 2)
	basis := EQBasis{Centres: testutil.RandDense(4, 5, 3), LengthScale: 1.5}
	kernels := map[string]Kernel{
		"RBF":          RBF{Variance: 2, LengthScale: 1.3},
		"Linear":       Linear{},
		"Polynomial":   Polynomial{Degree: 3, Scale: 0.5, Offset: 1},
		"Poly-default": Polynomial{},
		"Feature":      FeatureKernel{Map: basis, Variance: 0.7},
	}
	for name, k := range kernels {
		for _, kk := range []Kernel{k, kpEvalOnly{k}} {
			var kab mat.Dense
			Cross(&kab, kk, A, B)
			var kaa mat.SymDense
			Gram(&kaa, kk, A)
			for i := 0; i < 37; i++ {
				for j := 0; j < 23; j++ {
					want := k.Eval(A.RawRowView(i), B.RawRowView(j))
					if got := kab.At(i, j); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
						t.Fatalf("%s cross [%d,%d] = %v, want %v", name, i, j, got, want)
					}
				}
				for j := 0; j < 37; j++ {
					want := k.Eval(A.RawRowView(i), A.RawRowView(j))
					if got := kaa.At(i, j); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
						t.Fatalf("%s Gram [%d,%d] = %v, want %v", name, i, j, got, want)
					}
				}
			}
		}
	}
}

func TestRBFGramLargeParallel(t *testing.T) {
	// Large enough to take the multi-core paths; widths on both sides of
	// rbfDirectMaxDim (direct squared differences, then the Gram route).
	var K mat.SymDense
	for _, p := range []int{3, rbfDirectMaxDim, rbfDirectMaxDim + 1, 100} {
		Y := testutil.RandDense(400, p, 4)
		k := RBF{LengthScale: 0.8 * math.Sqrt(float64(p)/3)}
		K.Reset()
		Gram(&K, k, Y)
		var C mat.Dense
		Cross(&C, k, Y, Y)
		for i := 0; i < 400; i += 7 {
			for j := 0; j < 400; j += 3 {
				want := k.Eval(Y.RawRowView(i), Y.RawRowView(j))
				if math.Abs(K.At(i, j)-want) > 1e-12 || math.Abs(C.At(i, j)-want) > 1e-12 {
					t.Fatalf("p=%d [%d,%d]: sym %v cross %v want %v", p, i, j, K.At(i, j), C.At(i, j), want)
				}
			}
		}
	}
	// The tiled parallel Gram (several 256-row tiles) for the other kernels.
	Y2 := testutil.RandDense(600, 7, 5)
	for _, kk := range []Kernel{Linear{}, Polynomial{Degree: 2, Offset: 1}} {
		var G mat.SymDense
		Gram(&G, kk, Y2)
		for i := 0; i < 600; i += 11 {
			for j := 0; j < 600; j += 5 {
				want := kk.Eval(Y2.RawRowView(i), Y2.RawRowView(j))
				if math.Abs(G.At(i, j)-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Fatalf("%T [%d,%d] = %v want %v", kk, i, j, G.At(i, j), want)
				}
			}
		}
	}
	// Mercer: the Gram matrix is positive semi-definite (book §4.2.1).
	vals, _, err := linalg.EigenSym(&K, 1, linalg.Smallest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vals[0] < -1e-10 {
		t.Errorf("smallest eigenvalue of an RBF Gram matrix %v < 0", vals[0])
	}
}

func TestImpliedSquaredDistances(t *testing.T) {
	Y := testutil.RandDense(30, 4, 5)
	k := RBF{LengthScale: 0.3}
	var K, D mat.SymDense
	Gram(&K, k, Y)
	ImpliedSquaredDistances(&D, &K)
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			want := 2 - 2*K.At(i, j) // unit-variance stationary kernel
			if math.Abs(D.At(i, j)-want) > 1e-14 {
				t.Fatalf("d[%d,%d] = %v, want 2 − 2k = %v", i, j, D.At(i, j), want)
			}
		}
	}
	// Linear kernel: implied distances are the squared Euclidean ones.
	var G, E mat.SymDense
	Gram(&G, Linear{}, Y)
	ImpliedSquaredDistances(&D, &G)
	linalg.PairwiseSquaredDistances(&E, Y)
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			if math.Abs(D.At(i, j)-E.At(i, j)) > 1e-12 {
				t.Fatalf("linear implied d[%d,%d] = %v, want %v", i, j, D.At(i, j), E.At(i, j))
			}
		}
	}
	// In place.
	ImpliedSquaredDistances(&G, &G)
	if math.Abs(G.At(3, 7)-E.At(3, 7)) > 1e-12 {
		t.Error("in-place implied distances wrong")
	}
}

func TestKernelBadInput(t *testing.T) {
	x := []float64{1, 2}
	testutil.MustPanic(t, "RBF ℓ = 0", func() { RBF{}.Eval(x, x) })
	testutil.MustPanic(t, "RBF ℓ < 0", func() { RBF{LengthScale: -1}.Eval(x, x) })
	testutil.MustPanic(t, "RBF σ² < 0", func() { RBF{LengthScale: 1, Variance: -1}.Eval(x, x) })
	testutil.MustPanic(t, "RBF ℓ = NaN bulk", func() {
		var K mat.SymDense
		Gram(&K, RBF{LengthScale: math.NaN()}, testutil.RandDense(3, 2, 1))
	})
	testutil.MustPanic(t, "RBFInverseWidth(0)", func() { RBFInverseWidth(0) })
	testutil.MustPanic(t, "RBFGamma(-1)", func() { RBFGamma(-1) })
	testutil.MustPanic(t, "Polynomial degree < 0", func() { Polynomial{Degree: -1}.Eval(x, x) })
	testutil.MustPanic(t, "RBF length mismatch", func() { RBF{LengthScale: 1}.Eval(x, []float64{1}) })
	testutil.MustPanic(t, "Cross column mismatch", func() {
		var K mat.Dense
		Cross(&K, RBF{LengthScale: 1}, testutil.RandDense(3, 2, 1), testutil.RandDense(3, 3, 1))
	})
	testutil.MustPanic(t, "Cross wrong dst", func() {
		K := mat.NewDense(2, 2, nil)
		Cross(K, Linear{}, testutil.RandDense(3, 2, 1), testutil.RandDense(3, 2, 1))
	})
	testutil.MustPanic(t, "Gram wrong dst", func() {
		K := mat.NewSymDense(2, nil)
		Gram(K, Linear{}, testutil.RandDense(3, 2, 1))
	})
	testutil.MustPanic(t, "EQBasis ℓ = 0", func() {
		var F mat.Dense
		EQBasis{Centres: mat.NewDense(1, 2, nil)}.FeaturesTo(&F, testutil.RandDense(3, 2, 1))
	})
	testutil.MustPanic(t, "EQBasis dimension mismatch", func() {
		var F mat.Dense
		EQBasis{Centres: mat.NewDense(1, 3, nil), LengthScale: 1}.FeaturesTo(&F, testutil.RandDense(3, 2, 1))
	})
	testutil.MustPanic(t, "EQBasis nil centres", func() {
		var F mat.Dense
		EQBasis{LengthScale: 1}.FeaturesTo(&F, testutil.RandDense(3, 2, 1))
	})
	book := EQBasis{Centres: mat.NewDense(3, 1, []float64{-1, 0, 1}), LengthScale: 1}
	for _, g := range []float64{-1, math.NaN(), math.Inf(1)} {
		testutil.MustPanic(t, fmt.Sprintf("FeatureKernel γ = %v", g), func() {
			FeatureKernel{Map: book, Variance: g}.Eval([]float64{0}, []float64{1})
		})
	}
	testutil.MustPanic(t, "UniformEQBasis M = 1", func() { UniformEQBasis(-1, 1, 1, 1) })
	testutil.MustPanic(t, "UniformEQBasis a > b", func() { UniformEQBasis(1, -1, 5, 1) })
	testutil.MustPanic(t, "UniformEQBasis infinite a", func() { UniformEQBasis(math.Inf(-1), 1, 5, 1) })
	testutil.MustPanic(t, "UniformEQBasis ℓ = 0", func() { UniformEQBasis(-1, 1, 5, 0) })
	testutil.MustPanic(t, "IntervalEQKernel ℓ = 0", func() { IntervalEQKernel(0, 1, -1, 1, 0, 1) })
	testutil.MustPanic(t, "IntervalEQKernel ℓ = Inf", func() { IntervalEQKernel(0, 1, -1, 1, math.Inf(1), 1) })
	testutil.MustPanic(t, "IntervalEQKernel a > b", func() { IntervalEQKernel(0, 1, 1, -1, 1, 1) })
}

type kpPanicKernel struct{}

func (kpPanicKernel) Eval(x, y []float64) float64 { panic("kernel says no") }

// A panic in a user kernel evaluated on worker goroutines reaches the
// caller, where it can be recovered.
func TestKernelPanicPropagates(t *testing.T) {
	Y := testutil.RandDense(500, 2, 1)
	testutil.MustPanic(t, "Gram", func() {
		var K mat.SymDense
		Gram(&K, kpPanicKernel{}, Y)
	})
	testutil.MustPanic(t, "Cross", func() {
		var K mat.Dense
		Cross(&K, kpPanicKernel{}, Y, Y)
	})
}

package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kpEvalOnly hides a kernel's bulk path, forcing the generic pairwise loop.
type kpEvalOnly struct{ k Kernel }

func (e kpEvalOnly) Eval(x, y []float64) float64 { return e.k.Eval(x, y) }

func kpRandDense(r, c int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}

func kpMustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

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
	A := kpRandDense(37, 5, 1)
	B := kpRandDense(23, 5, 2)
	basis := EQBasis{Centres: kpRandDense(4, 5, 3), LengthScale: 1.5}
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
			KernelMatrixTo(&kab, kk, A, B)
			var kaa mat.SymDense
			GramTo(&kaa, kk, A)
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
	// Large enough to take the multi-core paths.
	Y := kpRandDense(400, 3, 4)
	k := RBF{LengthScale: 0.8}
	var K mat.SymDense
	GramTo(&K, k, Y)
	var C mat.Dense
	KernelMatrixTo(&C, k, Y, Y)
	for i := 0; i < 400; i += 7 {
		for j := 0; j < 400; j += 3 {
			want := k.Eval(Y.RawRowView(i), Y.RawRowView(j))
			if math.Abs(K.At(i, j)-want) > 1e-12 || math.Abs(C.At(i, j)-want) > 1e-12 {
				t.Fatalf("[%d,%d]: sym %v cross %v want %v", i, j, K.At(i, j), C.At(i, j), want)
			}
		}
	}
	// The tiled parallel Gram (several 256-row tiles) for the other kernels.
	Y2 := kpRandDense(600, 7, 5)
	for _, kk := range []Kernel{Linear{}, Polynomial{Degree: 2, Offset: 1}} {
		var G mat.SymDense
		GramTo(&G, kk, Y2)
		for i := 0; i < 600; i += 11 {
			for j := 0; j < 600; j += 5 {
				want := kk.Eval(Y2.RawRowView(i), Y2.RawRowView(j))
				if math.Abs(G.At(i, j)-want) > 1e-10*math.Max(1, math.Abs(want)) {
					t.Fatalf("%T [%d,%d] = %v want %v", kk, i, j, G.At(i, j), want)
				}
			}
		}
	}
	// Mercer: the Gram matrix is positive semi-definite (book L2159).
	vals, _, err := EigenSym(&K, 1, Smallest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if vals[0] < -1e-10 {
		t.Errorf("smallest eigenvalue of an RBF Gram matrix %v < 0", vals[0])
	}
}

func TestImpliedSquaredDistances(t *testing.T) {
	Y := kpRandDense(30, 4, 5)
	k := RBF{LengthScale: 0.3}
	var K, D mat.SymDense
	GramTo(&K, k, Y)
	ImpliedSquaredDistancesTo(&D, &K)
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
	GramTo(&G, Linear{}, Y)
	ImpliedSquaredDistancesTo(&D, &G)
	PairwiseSquaredDistances(&E, Y)
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			if math.Abs(D.At(i, j)-E.At(i, j)) > 1e-12 {
				t.Fatalf("linear implied d[%d,%d] = %v, want %v", i, j, D.At(i, j), E.At(i, j))
			}
		}
	}
	// In place.
	ImpliedSquaredDistancesTo(&G, &G)
	if math.Abs(G.At(3, 7)-E.At(3, 7)) > 1e-12 {
		t.Error("in-place implied distances wrong")
	}
}

func TestKernelBadInput(t *testing.T) {
	x := []float64{1, 2}
	kpMustPanic(t, "RBF ℓ = 0", func() { RBF{}.Eval(x, x) })
	kpMustPanic(t, "RBF ℓ < 0", func() { RBF{LengthScale: -1}.Eval(x, x) })
	kpMustPanic(t, "RBF σ² < 0", func() { RBF{LengthScale: 1, Variance: -1}.Eval(x, x) })
	kpMustPanic(t, "RBF ℓ = NaN bulk", func() {
		var K mat.SymDense
		GramTo(&K, RBF{LengthScale: math.NaN()}, kpRandDense(3, 2, 1))
	})
	kpMustPanic(t, "RBFInverseWidth(0)", func() { RBFInverseWidth(0) })
	kpMustPanic(t, "RBFGamma(-1)", func() { RBFGamma(-1) })
	kpMustPanic(t, "Polynomial degree < 0", func() { Polynomial{Degree: -1}.Eval(x, x) })
	kpMustPanic(t, "RBF length mismatch", func() { RBF{LengthScale: 1}.Eval(x, []float64{1}) })
	kpMustPanic(t, "KernelMatrixTo column mismatch", func() {
		var K mat.Dense
		KernelMatrixTo(&K, RBF{LengthScale: 1}, kpRandDense(3, 2, 1), kpRandDense(3, 3, 1))
	})
	kpMustPanic(t, "KernelMatrixTo wrong dst", func() {
		K := mat.NewDense(2, 2, nil)
		KernelMatrixTo(K, Linear{}, kpRandDense(3, 2, 1), kpRandDense(3, 2, 1))
	})
	kpMustPanic(t, "GramTo wrong dst", func() {
		K := mat.NewSymDense(2, nil)
		GramTo(K, Linear{}, kpRandDense(3, 2, 1))
	})
	kpMustPanic(t, "EQBasis ℓ = 0", func() {
		var F mat.Dense
		EQBasis{Centres: mat.NewDense(1, 2, nil)}.FeaturesTo(&F, kpRandDense(3, 2, 1))
	})
	kpMustPanic(t, "EQBasis dimension mismatch", func() {
		var F mat.Dense
		EQBasis{Centres: mat.NewDense(1, 3, nil), LengthScale: 1}.FeaturesTo(&F, kpRandDense(3, 2, 1))
	})
}

type kpPanicKernel struct{}

func (kpPanicKernel) Eval(x, y []float64) float64 { panic("kernel says no") }

// A panic in a user kernel evaluated on worker goroutines reaches the
// caller, where it can be recovered.
func TestKernelPanicPropagates(t *testing.T) {
	Y := kpRandDense(500, 2, 1)
	kpMustPanic(t, "GramTo", func() {
		var K mat.SymDense
		GramTo(&K, kpPanicKernel{}, Y)
	})
	kpMustPanic(t, "KernelMatrixTo", func() {
		var K mat.Dense
		KernelMatrixTo(&K, kpPanicKernel{}, Y, Y)
	})
}

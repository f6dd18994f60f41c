package dimred

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// alignSigns flips the columns of got to match want's signs (eigenvectors
// are defined up to sign) and returns the largest absolute difference.
func kpAlignedMaxDiff(got, want mat.Matrix) float64 {
	r, c := want.Dims()
	worst := 0.0
	for j := 0; j < c; j++ {
		dot := 0.0
		for i := 0; i < r; i++ {
			dot += got.At(i, j) * want.At(i, j)
		}
		s := 1.0
		if dot < 0 {
			s = -1
		}
		for i := 0; i < r; i++ {
			worst = math.Max(worst, math.Abs(s*got.At(i, j)-want.At(i, j)))
		}
	}
	return worst
}

// Kernel PCA with the linear kernel is PCA: its latent positions are the
// principal component scores Ŷ V (gonum's stat.PC as the oracle).
func TestKernelPCALinearIsPCA(t *testing.T) {
	Y := testutil.RandDense(60, 5, 11)
	// Give the columns different scales so the spectrum is well separated.
	for j, s := range []float64{5, 3, 2, 1, 0.5} {
		for i := 0; i < 60; i++ {
			Y.Set(i, j, s*Y.At(i, j)+float64(j))
		}
	}
	kp := KernelPCA{Kernel: kernel.Linear{}, Q: 3}
	if err := kp.Fit(Y); err != nil {
		t.Fatal(err)
	}
	var X mat.Dense
	kp.LatentTo(&X)

	var pc stat.PC
	if !pc.PrincipalComponents(Y, nil) {
		t.Fatal("stat.PC failed")
	}
	var V mat.Dense
	pc.VectorsTo(&V)
	var Yc, scores mat.Dense
	linalg.CentreColumns(&Yc, Y)
	scores.Mul(&Yc, V.Slice(0, 5, 0, 3))
	if d := kpAlignedMaxDiff(&X, &scores); d > 1e-8 {
		t.Errorf("linear kernel PCA differs from PCA scores by %v", d)
	}
	// Eigenvalues: λ_c = (n−1)·var_c, since stat.PC uses the unbiased covariance.
	vars := pc.VarsTo(nil)
	for c, l := range kp.EigenvaluesTo(nil) {
		if math.Abs(l-59*vars[c]) > 1e-8*l {
			t.Errorf("λ_%d = %v, want (n−1)·var = %v", c+1, l, 59*vars[c])
		}
	}
	// Variance explained matches PCA's.
	tot := 0.0
	for _, v := range vars {
		tot += v
	}
	if f, want := kp.VarianceExplained(), (vars[0]+vars[1]+vars[2])/tot; math.Abs(f-want) > 1e-10 {
		t.Errorf("variance explained = %v, want %v", f, want)
	}
	if f, want := kp.EigenvaluesTo(nil)[0]/kp.Trace(), vars[0]/tot; math.Abs(f-want) > 1e-10 {
		t.Errorf("share of component 1 = %v, want %v", f, want)
	}
}

// At full rank X Xᵀ equals the centred kernel matrix; the latent distances
// are then the implied feature-space distances 2 − 2k_ij.
func TestKernelPCAFullRank(t *testing.T) {
	Y := testutil.RandDense(40, 3, 12)
	k := kernel.RBF{LengthScale: 0.7}
	for _, noCentre := range []bool{false, true} {
		kp := KernelPCA{Kernel: k, Q: 40, NoCentre: noCentre}
		if err := kp.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X, XXt mat.Dense
		kp.LatentTo(&X)
		XXt.Mul(&X, X.T())
		var K mat.SymDense
		kernel.Gram(&K, k, Y)
		want := mat.NewDense(40, 40, nil)
		want.Copy(&K)
		if !noCentre {
			H := mat.NewDense(40, 40, nil)
			for i := 0; i < 40; i++ {
				for j := 0; j < 40; j++ {
					H.Set(i, j, -1.0/40)
				}
				H.Set(i, i, 1-1.0/40)
			}
			want.Mul(H, want)
			want.Mul(want, H)
		}
		if !mat.EqualApprox(&XXt, want, 1e-10) {
			t.Errorf("NoCentre=%v: X Xᵀ ≠ K̃ (max diff %v)", noCentre, testutil.MaxAbsDiff(&XXt, want))
		}
		var D mat.SymDense
		linalg.PairwiseSquaredDistances(&D, &X)
		for i := 0; i < 40; i++ {
			for j := 0; j < 40; j++ {
				if w := 2 - 2*K.At(i, j); math.Abs(D.At(i, j)-w) > 1e-10 {
					t.Fatalf("NoCentre=%v: ‖x_i − x_j‖² = %v, want 2 − 2k = %v", noCentre, D.At(i, j), w)
				}
			}
		}
		if s := kp.VarianceExplained(); math.Abs(s-1) > 1e-10 {
			t.Errorf("NoCentre=%v: variance explained sums to %v at q = n", noCentre, s)
		}
		if noCentre && math.Abs(kp.Trace()-40) > 1e-12 {
			t.Errorf("tr K = %v, want n = 40", kp.Trace())
		}
	}
}

// ProjectTo on the training points returns their fitted latent positions.
func TestKernelPCAProjectTraining(t *testing.T) {
	Y := testutil.RandDense(50, 4, 13)
	for _, k := range []kernel.Kernel{kernel.RBF{LengthScale: 1.5}, kernel.Linear{}, kernel.Polynomial{Degree: 2, Offset: 1}} {
		for _, noCentre := range []bool{false, true} {
			kp := KernelPCA{Kernel: k, Q: 3, NoCentre: noCentre}
			if err := kp.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var X, P mat.Dense
			kp.LatentTo(&X)
			kp.ProjectTo(&P, Y)
			if d := testutil.MaxAbsDiff(&X, &P); d > 1e-9*math.Max(1, mat.Max(&X)) {
				t.Errorf("%T NoCentre=%v: ProjectTo(training) differs from latent by %v", k, noCentre, d)
			}
		}
	}
	// Linear kernel: projecting new points is PCA's projection (ŷ* V).
	kp := KernelPCA{Kernel: kernel.Linear{}, Q: 2}
	if err := kp.Fit(Y); err != nil {
		t.Fatal(err)
	}
	Ynew := testutil.RandDense(5, 4, 14)
	var P mat.Dense
	kp.ProjectTo(&P, Ynew)
	var pc stat.PC
	pc.PrincipalComponents(Y, nil)
	var V mat.Dense
	pc.VectorsTo(&V)
	mu := linalg.ColumnMeans(Y)
	var Yc, want mat.Dense
	Yc.CloneFrom(Ynew)
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			Yc.Set(i, j, Yc.At(i, j)-mu[j])
		}
	}
	want.Mul(&Yc, V.Slice(0, 4, 0, 2))
	// Align signs using the training scores.
	var X, S mat.Dense
	kp.LatentTo(&X)
	var Yt mat.Dense
	linalg.CentreColumns(&Yt, Y)
	S.Mul(&Yt, V.Slice(0, 4, 0, 2))
	for c := 0; c < 2; c++ {
		if mat.Dot(X.ColView(c), S.ColView(c)) < 0 {
			for i := 0; i < 5; i++ {
				want.Set(i, c, -want.At(i, c))
			}
		}
	}
	if d := testutil.MaxAbsDiff(&P, &want); d > 1e-8 {
		t.Errorf("linear ProjectTo differs from PCA projection by %v", d)
	}
}

// The iterative path (implicitly centred triangle operator) agrees with the
// dense one, centred and uncentred, including the trace.
func TestKernelPCAIterativePath(t *testing.T) {
	if testing.Short() {
		t.Skip("n = 700 eigenproblems")
	}
	Y := testutil.RandDense(700, 3, 15)
	k := kernel.RBF{LengthScale: 1}
	for _, noCentre := range []bool{false, true} {
		a := KernelPCA{Kernel: k, Q: 3, NoCentre: noCentre, Eigen: &linalg.EigenSettings{Method: linalg.EigenLanczos}}
		b := KernelPCA{Kernel: k, Q: 3, NoCentre: noCentre, Eigen: &linalg.EigenSettings{Method: linalg.EigenDense}}
		if err := a.Fit(Y); err != nil {
			t.Fatal(err)
		}
		if err := b.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var Xa, Xb mat.Dense
		a.LatentTo(&Xa)
		b.LatentTo(&Xb)
		if d := kpAlignedMaxDiff(&Xa, &Xb); d > 1e-7 {
			t.Errorf("NoCentre=%v: iterative and dense paths differ by %v", noCentre, d)
		}
		if math.Abs(a.Trace()-b.Trace()) > 1e-9*b.Trace() {
			t.Errorf("NoCentre=%v: trace %v vs %v", noCentre, a.Trace(), b.Trace())
		}
		var Pa mat.Dense
		a.ProjectTo(&Pa, Y)
		if d := testutil.MaxAbsDiff(&Pa, &Xa); d > 1e-8 {
			t.Errorf("NoCentre=%v: iterative ProjectTo(training) off by %v", noCentre, d)
		}
	}
}

func TestKernelPCAFitGram(t *testing.T) {
	Y := testutil.RandDense(30, 2, 16)
	k := kernel.RBF{LengthScale: 1}
	var K mat.SymDense
	kernel.Gram(&K, k, Y)
	a := KernelPCA{Kernel: k, Q: 2}
	b := KernelPCA{Q: 2}
	if err := a.Fit(Y); err != nil {
		t.Fatal(err)
	}
	if err := b.FitGram(&K); err != nil {
		t.Fatal(err)
	}
	var Xa, Xb, Pb mat.Dense
	a.LatentTo(&Xa)
	b.LatentTo(&Xb)
	if !mat.EqualApprox(&Xa, &Xb, 1e-12) {
		t.Error("FitGram differs from Fit")
	}
	b.ProjectKernelTo(&Pb, &K)
	if !mat.EqualApprox(&Xb, &Pb, 1e-10) {
		t.Error("ProjectKernelTo(K) differs from latent")
	}
	testutil.MustPanic(t, "ProjectTo after FitGram", func() { b.ProjectTo(&Pb, Y) })
	if K.At(0, 1) != k.Eval(Y.RawRowView(0), Y.RawRowView(1)) {
		t.Error("FitGram modified K")
	}
}

func TestKernelPCABadInput(t *testing.T) {
	Y := testutil.RandDense(10, 3, 17)
	Y.Set(4, 2, math.NaN())
	kp := KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 2}
	if err := kp.Fit(Y); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN in Y: err = %v, want ErrNaN", err)
	}
	if err := kp.Fit(testutil.RandDense(1, 3, 1)); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("one point: err = %v, want ErrTooFewPoints", err)
	}
	big := testutil.RandDense(5, 2, 1)
	big.Set(0, 0, 1e200)
	kp2 := KernelPCA{Kernel: kernel.Polynomial{Degree: 3}, Q: 2}
	if err := kp2.Fit(big); !errors.Is(err, ErrOverflow) {
		t.Errorf("overflowing kernel: err = %v, want ErrOverflow", err)
	}
	good := testutil.RandDense(10, 3, 18)
	testutil.MustPanic(t, "nil kernel", func() { (&KernelPCA{}).Fit(good) })
	// Q > n is a property of the data size (package doc): an error.
	if err := (&KernelPCA{Kernel: kernel.Linear{}, Q: 11}).Fit(good); !errors.Is(err, ErrTooFewPoints) {
		t.Errorf("Q > n: err = %v, want ErrTooFewPoints", err)
	}
	testutil.MustPanic(t, "Q = 0", func() { (&KernelPCA{Kernel: kernel.Linear{}}).Fit(good) })
	testutil.MustPanic(t, "Q < 0", func() { (&KernelPCA{Kernel: kernel.Linear{}, Q: -1}).Fit(good) })
	testutil.MustPanic(t, "non-positive width", func() { (&KernelPCA{Kernel: kernel.RBF{}, Q: 2}).Fit(good) })
	testutil.MustPanic(t, "unfitted", func() {
		var X mat.Dense
		(&KernelPCA{Kernel: kernel.Linear{}, Q: 2}).LatentTo(&X)
	})
	kp3 := KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 2}
	if err := kp3.Fit(good); err != nil {
		t.Fatal(err)
	}
	testutil.MustPanic(t, "ProjectTo column mismatch", func() {
		var P mat.Dense
		kp3.ProjectTo(&P, testutil.RandDense(2, 4, 1))
	})
	testutil.MustPanic(t, "LatentTo wrong dst", func() { kp3.LatentTo(mat.NewDense(3, 3, nil)) })
	testutil.MustPanic(t, "ProjectKernelTo wrong width", func() {
		var P mat.Dense
		kp3.ProjectKernelTo(&P, mat.NewDense(2, 9, nil))
	})
}

// A refit that fails must leave the model unfitted, not serving the old
// fit (DESIGN error policy); the kernel and centring in force at the last
// successful fit are the ones ProjectTo uses.
func TestKernelPCAFailedRefitUnfits(t *testing.T) {
	good := testutil.RandDense(10, 3, 18)
	bad := testutil.RandDense(10, 3, 19)
	bad.Set(2, 1, math.NaN())
	cases := []struct {
		name  string
		refit func(kp *KernelPCA) error
		want  error
	}{
		{"NaN in Y", func(kp *KernelPCA) error { return kp.Fit(bad) }, ErrNaN},
		{"one point", func(kp *KernelPCA) error { return kp.Fit(testutil.RandDense(1, 3, 1)) }, ErrTooFewPoints},
		{"FitGram one point", func(kp *KernelPCA) error { return kp.FitGram(mat.NewSymDense(1, []float64{1})) }, ErrTooFewPoints},
		{"FitGram NaN", func(kp *KernelPCA) error {
			K := mat.NewSymDense(3, []float64{1, 0, 0, 0, 1, math.NaN(), 0, math.NaN(), 1})
			return kp.FitGram(K)
		}, ErrNaN},
	}
	for _, c := range cases {
		kp := KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 2}
		if err := kp.Fit(good); err != nil {
			t.Fatal(err)
		}
		if err := c.refit(&kp); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
		testutil.MustPanic(t, c.name+": LatentTo after failed refit", func() {
			var X mat.Dense
			kp.LatentTo(&X)
		})
		testutil.MustPanic(t, c.name+": ProjectTo after failed refit", func() {
			var P mat.Dense
			kp.ProjectTo(&P, good)
		})
	}

	// Changing the fields after a fit does not change what ProjectTo does.
	kp := KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 3}
	if err := kp.Fit(good); err != nil {
		t.Fatal(err)
	}
	var X, P mat.Dense
	kp.LatentTo(&X)
	kp.Kernel, kp.NoCentre = kernel.Linear{}, true
	kp.ProjectTo(&P, good)
	if d := testutil.MaxAbsDiff(&X, &P); d > 1e-12 {
		t.Errorf("ProjectTo after changing kernel.Kernel/NoCentre: max diff %.3g from the fit's latent positions", d)
	}
}

// Every entry finite, but a row sum overflows: an error naming the row,
// not a silently uncentred fit.
func TestKernelPCARowSumOverflow(t *testing.T) {
	K := mat.NewSymDense(3, []float64{1e308, 1e308, 0, 1e308, 1e308, 0, 0, 0, 1})
	kp := KernelPCA{Q: 2}
	err := kp.FitGram(K)
	if !errors.Is(err, ErrOverflow) {
		t.Fatalf("err = %v, want ErrOverflow", err)
	}
	if !strings.Contains(err.Error(), "row 0") {
		t.Errorf("error %q does not name the row", err)
	}
}

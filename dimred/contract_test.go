package dimred

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// Regression tests of the library contract, found by calling the public
// API from outside (each failed on the code before its fix). The general
// checks run for every method in conformance_test.go (dimredtest).

// GPLVMScore.Score optimised the caller's Kernel in place: a second Score
// started from the first's optimum and gave another result.
func TestGPLVMScoreKeepsUserKernel(t *testing.T) {
	Y := conformanceData()
	X := mat.DenseCopyOf(Y.Slice(0, 40, 0, 2))
	k := kernel.Sum{&kernel.RBF{Variance: 1, LengthScale: 1}, &kernel.Bias{Variance: 0.1}, &kernel.White{Variance: 0.1}}
	s := &GPLVMScore{Kernel: k, MaxIter: 20, Tol: -1}
	r1, err := s.Score(X, Y)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		t.Fatal(err)
	}
	if g := k[0].(*kernel.RBF); g.Variance != 1 || g.LengthScale != 1 {
		t.Errorf("Score changed the caller's kernel to %+v", *g)
	}
	r2, err := s.Score(X, Y)
	if err != nil && !errors.Is(err, ErrNotConverged) {
		t.Fatal(err)
	}
	if r1.LogLikelihood != r2.LogLikelihood {
		t.Errorf("two Scores with one user kernel: %v then %v", r1.LogLikelihood, r2.LogLikelihood)
	}
}

// Isomap of data with a ~1e300 column returned +Inf eigenvalues and a +Inf
// centred kernel with no error; ClassicalMDS returns ErrOverflow on the
// same data. Now both do, with and without landmarks.
func TestIsomapOverflowIsError(t *testing.T) {
	Y := withHugeColumn(40, 5, 11)
	for _, m := range []*Isomap{{Q: 2, K: 8}, {Q: 2, K: 8, Landmarks: 15}, {Q: 2, K: 8, FullSpectrum: true}} {
		err := m.Fit(Y)
		if err == nil {
			vals := m.EigenvaluesTo(nil)
			for _, v := range vals {
				if math.IsInf(v, 0) {
					t.Errorf("Landmarks = %d: eigenvalue %v with no error", m.Landmarks, v)
				}
			}
			continue
		}
		checkOverflowErr(t, "Isomap", err)
	}
	checkOverflowErr(t, "ClassicalMDS", (&ClassicalMDS{Q: 2}).Fit(Y))
}

// Isomap.NegativeMass without the whole spectrum: the doc said NaN, the
// code panicked naming ClassicalMDS. Now it panics naming Isomap and
// FullSpectrum, as documented; with FullSpectrum it is a number.
func TestIsomapNegativeMass(t *testing.T) {
	m := &Isomap{Q: 2, K: 8}
	if err := m.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	msg := panicMessage(func() { m.NegativeMass() })
	if !strings.Contains(msg, "Isomap.NegativeMass") || !strings.Contains(msg, "FullSpectrum") {
		t.Errorf("NegativeMass without FullSpectrum: panic %q, want one naming Isomap.NegativeMass and FullSpectrum", msg)
	}
	m.FullSpectrum = true
	if err := m.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	if v := m.NegativeMass(); !(v >= 0 && v < 1) {
		t.Errorf("NegativeMass = %v, want in [0, 1)", v)
	}
}

// Isomap.ProjectTo of a finite row ~1e300 panicked blaming "+Inf in input"
// (an Inf the caller never passed); it now names the overflow.
func TestIsomapProjectHugeRow(t *testing.T) {
	m := &Isomap{Q: 2, K: 8}
	if err := m.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	Ynew := mat.DenseCopyOf(conformanceData().Slice(0, 2, 0, 5))
	Ynew.Set(1, 2, 1e300)
	msg := panicMessage(func() { m.ProjectTo(&mat.Dense{}, Ynew) })
	if !strings.Contains(msg, "overflows") || strings.Contains(msg, "Inf in input") {
		t.Errorf("panic %q, want one naming the overflow, not an Inf in the input", msg)
	}
}

// Collinear points with q = 2 > rank 1: classical MDS divided by √λ_2 for
// λ_2 = 1.7e-13 (rounding), and ProjectTo of the training rows was off by
// a factor 3e6 relative. The same for Isomap, which projects through MDS.
func TestMDSProjectCollinear(t *testing.T) {
	Y := mat.NewDense(40, 5, nil)
	for i := 0; i < 40; i++ {
		s := float64(i) + 0.3*math.Sin(float64(i*i))
		for j := 0; j < 5; j++ {
			Y.Set(i, j, s*float64(j+1)/5+float64(j))
		}
	}
	for _, m := range []Projector{&ClassicalMDS{Q: 2}, &Isomap{Q: 2, K: 8}} {
		if err := m.Fit(Y); err != nil {
			t.Fatal(err)
		}
		var X, P mat.Dense
		m.LatentTo(&X)
		m.ProjectTo(&P, Y)
		var d mat.Dense
		d.Sub(&X, &P)
		if rel := mat.Norm(&d, math.Inf(1)) / mat.Norm(&X, math.Inf(1)); rel > 1e-9 {
			t.Errorf("%T: ProjectTo(training rows) differs from LatentTo by %.3g relative", m, rel)
		}
	}
}

// Impossible settings are rejected with a panic naming the field, not
// reinterpreted (NaN regularisers and tolerances ran as defaults; negative
// landmarks ran full MDS).
func TestImpossibleSettingsPanic(t *testing.T) {
	Y := conformanceData()
	nan := math.NaN()
	for _, c := range []struct {
		name, field string
		fit         func()
	}{
		{"GPLVMScore.Jitter", "Jitter", func() { (&GPLVMScore{Jitter: nan}).Score(Y.Slice(0, 40, 0, 2), Y) }},
		{"LLE.Reg", "Reg", func() { (&LLE{Q: 2, Reg: nan}).Fit(Y) }},
		{"AcyclicLLE.Reg", "Reg", func() { (&AcyclicLLE{Q: 2, Reg: nan}).Fit(Y) }},
		{"Isomap.Epsilon", "Epsilon", func() { (&Isomap{Q: 2, Epsilon: nan}).Fit(Y) }},
		{"LaplacianEigenmaps.Epsilon", "Epsilon", func() { (&LaplacianEigenmaps{Q: 2, Epsilon: nan}).Fit(Y) }},
		{"ClassicalMDS.Landmarks", "Landmarks", func() { (&ClassicalMDS{Q: 2, Landmarks: -3}).Fit(Y) }},
		{"PCA Eigen.Tol", "Tol", func() { (&PCA{Q: 2, Eigen: &linalg.EigenSettings{Tol: nan}}).Fit(Y) }},
	} {
		msg := panicMessage(c.fit)
		checkPackagePanic(t, c.name, func() {
			if msg != "" {
				panic(msg)
			}
		})
		if msg != "" && !strings.Contains(msg, c.field) {
			t.Errorf("%s: panic %q does not name the field", c.name, msg)
		}
	}
}

// Too large a Q for the number of points is ErrTooFewPoints for every
// method whose Q is bounded by n (it panicked in 8 methods and succeeded in
// 2). FeatureSelection's Q counts kept coordinates, bounded by p only: the
// book's Fig 3.4 keeps up to 1000 pixels of 360 images.
func TestTooLargeQIsTooFewPoints(t *testing.T) {
	Y := mat.NewDense(4, 10, nil)
	for i := 0; i < 4; i++ {
		for j := 0; j < 10; j++ {
			Y.Set(i, j, math.Sin(float64(3*i+j*j)))
		}
	}
	if err := (&FeatureSelection{Q: 5}).Fit(Y); err != nil {
		t.Errorf("FeatureSelection: Q = 5 ≤ p on 4×10 data: %v", err)
	}
	for _, m := range []Embedder{&PCA{Q: 5}, &FeatureExtraction{Q: 5},
		&PrincipalCoordinates{Q: 5}, &ClassicalMDS{Q: 5}, &KernelPCA{Q: 5, Kernel: kernel.Linear{}},
		&MVU{Q: 5, K: 2}, &MEU{Q: 5, K: 2}, &AcyclicLLE{Q: 5, K: 2}, &DRILL{Q: 5, AllPairs: true}} {
		var err error
		if msg := panicMessage(func() { err = m.Fit(Y) }); msg != "" {
			t.Errorf("%T: Q = 5 on 4×10 data panicked: %s", m, msg)
			continue
		}
		if !errors.Is(err, ErrTooFewPoints) {
			t.Errorf("%T: Q = 5 on 4×10 data: err = %v, want ErrTooFewPoints", m, err)
		}
	}
}

// DRILL's documented outcomes: MaxIter too small for the first positive
// definite iterate is ErrSingular naming MaxIter (the doc promised
// ErrNotConverged, which would promise a usable fit); ρ = 0 on a graph too
// dense for the p features is ErrSingular suggesting ρ > 0.
func TestDRILLDocumentedErrors(t *testing.T) {
	Y := conformanceData()
	err := (&DRILL{K: 5, Q: 2, MaxIter: 1}).Fit(Y)
	if !errors.Is(err, ErrSingular) || !strings.Contains(err.Error(), "MaxIter = 1") {
		t.Errorf("MaxIter = 1: err = %v, want ErrSingular naming MaxIter", err)
	}
	err = (&DRILL{K: 8, Q: 2}).Fit(Y)
	if !errors.Is(err, ErrSingular) || !strings.Contains(err.Error(), "Rho > 0") {
		t.Errorf("ρ = 0, k = 8 on 40×5 data: err = %v, want ErrSingular suggesting Rho > 0", err)
	}
	if err := (&DRILL{K: 8, Q: 2, Rho: 0.01}).Fit(Y); err != nil {
		t.Errorf("ρ = 0.01, k = 8: %v", err)
	}
	checkPackagePanic(t, "DRILL.Tol = −1", func() { (&DRILL{K: 5, Q: 2, Tol: -1}).Fit(Y) })
}

// DRILL has a Monitor like the package's other iterative methods (it had
// none): it sees every sweep, and returning true stops the solver.
func TestDRILLMonitor(t *testing.T) {
	var sweeps []int
	d := &DRILL{K: 5, Q: 2, Monitor: func(iter int, change float64) bool {
		sweeps = append(sweeps, iter)
		return false
	}}
	if err := d.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	// Iterations also counts the Newton steps of the finish (at most a
	// few dozen), which the sweep Monitor does not see.
	consecutive := len(sweeps) > 0
	for i, s := range sweeps {
		consecutive = consecutive && s == i+1
	}
	if extra := d.Iterations() - len(sweeps); !consecutive || extra < 0 || extra > 50 {
		t.Errorf("Monitor saw %d sweeps (consecutive from 1: %v), Iterations() = %d", len(sweeps), consecutive, d.Iterations())
	}
}

// MVU implements SpectralModel (the package doc said so; it had no
// Implied): its implied covariance is the learnt kernel.
func TestMVUImplied(t *testing.T) {
	var m SpectralModel = &MVU{Q: 2, K: 5}
	if err := m.Fit(conformanceData()); err != nil {
		t.Fatal(err)
	}
	C := m.Implied().Covariance
	if C == nil || C.SymmetricDim() != 40 {
		t.Fatal("MVU.Implied has no 40×40 covariance")
	}
	vals := m.EigenvaluesTo(nil)
	tr := 0.0
	for _, v := range vals {
		tr += v
	}
	if got := mat.Trace(C); math.Abs(got-tr) > 1e-9*math.Abs(tr) {
		t.Errorf("tr K = %v, Σλ = %v", got, tr)
	}
}

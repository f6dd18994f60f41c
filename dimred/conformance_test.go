package dimred

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/kernel"
	"gonum.org/v1/gonum/mat"
)

// Every embedding method of the package is held to one contract (DESIGN.md,
// "API conventions"): the same checks run over the table below. A method
// added to the package joins by one line here.

// Compile-time assertions: each method implements Embedder, and those with
// an out-of-sample map implement Projector.
var (
	_ Projector = (*PCA)(nil)
	_ Projector = (*PPCA)(nil)
	_ Projector = (*FactorAnalysis)(nil)
	_ Embedder  = (*MixturePPCA)(nil)
	_ Embedder  = (*BayesianPCA)(nil)
	_ Embedder  = (*FeatureSelection)(nil)
	_ Projector = (*FeatureExtraction)(nil)
	_ Embedder  = (*PrincipalCoordinates)(nil)
	_ Projector = (*ClassicalMDS)(nil)
	_ Projector = (*KernelPCA)(nil)
	_ Embedder  = (*MVU)(nil) // no out-of-sample map
	_ Projector = (*GPLVM)(nil)
)

// conformanceCase is one method under the contract: new returns a fresh
// model whose latent dimension is q on conformanceData. projTol is the
// largest |ProjectTo(training rows) − LatentTo| allowed, relative to
// max |LatentTo| (Projectors only).
type conformanceCase struct {
	name    string
	q       int
	new     func() Embedder
	projTol float64
}

var conformanceCases = []conformanceCase{
	{"PCA", 2, func() Embedder { return &PCA{Q: 2} }, 1e-12},
	{"PCA/randomized", 2, func() Embedder { return &PCA{Q: 2, Method: PCARandomized} }, 1e-12},
	{"PPCA", 2, func() Embedder { return &PPCA{Q: 2} }, 1e-12},
	{"PPCA/EM", 2, func() Embedder { return &PPCA{Q: 2, Method: PPCAEM, Tol: 1e-9} }, 1e-12},
	{"FactorAnalysis", 2, func() Embedder { return &FactorAnalysis{Q: 2} }, 1e-12},
	{"MixturePPCA", 2, func() Embedder { return &MixturePPCA{M: 2, Q: 2} }, 0},
	{"BayesianPCA", 4, func() Embedder { return &BayesianPCA{Q: 4} }, 0},
	{"FeatureSelection", 2, func() Embedder { return &FeatureSelection{Q: 2} }, 0},
	{"FeatureExtraction", 2, func() Embedder { return &FeatureExtraction{Q: 2} }, 1e-12},
	{"PrincipalCoordinates", 2, func() Embedder { return &PrincipalCoordinates{Q: 2} }, 0},
	// Gower's add-a-point formula reproduces a fitted point exactly for
	// Euclidean distances, to the rounding of D and of the eigenpairs.
	{"ClassicalMDS", 2, func() Embedder { return &ClassicalMDS{Q: 2} }, 1e-9},
	// X* = K̃t U Λ^{−1/2} = U Λ^{1/2} for the training rows, to the
	// eigensolver's residual.
	{"KernelPCA/RBF", 2, func() Embedder { return &KernelPCA{Kernel: kernel.RBF{LengthScale: 2}, Q: 2} }, 1e-9},
	{"KernelPCA/Linear", 2, func() Embedder { return &KernelPCA{Kernel: kernel.Linear{}, Q: 2} }, 1e-9},
	{"MVU", 2, func() Embedder { return &MVU{Q: 2, K: 5} }, 0},
	// The posterior mean of a training row is its latent position.
	{"GTM", 2, func() Embedder { return &GTM{Q: 2, Grid: 6} }, 1e-12},
	{"DensityNetwork", 2, func() Embedder { return &DensityNetwork{Q: 2, Samples: 30, Hidden: 5} }, 1e-12},
	{"MEU", 2, func() Embedder { return &MEU{K: 5, Q: 2} }, 0},
	{"AcyclicLLE", 2, func() Embedder { return &AcyclicLLE{K: 4, Q: 2} }, 0},
	{"DRILL", 2, func() Embedder { return &DRILL{K: 5, Q: 2} }, 0},
	{"DRILL/AllPairs", 2, func() Embedder { return &DRILL{AllPairs: true, Rho: 0.05, Q: 2} }, 0},
	// ProjectTo maximises one point's predictive density from the nearest
	// training point; the fitted x_i maximise the joint likelihood, so the
	// projection moves the training rows a little, the less the nearer the
	// fit is to its optimum. With the length scale held (the default since
	// it was found to make the posterior unbounded) 30 iterations are far
	// from it (0.071 sparse); after 300 the measured difference is 2.4e-3
	// exact, 2.5e-3 sparse (relative).
	{"GPLVM", 2, func() Embedder { return &GPLVM{Q: 2, MaxIter: 300, Tol: -1} }, 0.02},
	{"GPLVM/sparse", 2, func() Embedder { return &GPLVM{Q: 2, Inducing: 10, MaxIter: 300, Tol: -1} }, 0.02},
}

// conformanceData is the shared 40×5 data set: a 2-D linear structure with
// small isotropic noise and distinct column scales, deterministic.
func conformanceData() *mat.Dense {
	rnd := rand.New(rand.NewPCG(40, 5))
	n, p := 40, 5
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		for j := 0; j < p; j++ {
			Y.Set(i, j, float64(j+1)*a+float64(p-j)*0.5*b+0.1*rnd.NormFloat64())
		}
	}
	return Y
}

// Fit never modifies Y.
func TestConformanceYUnmodified(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := conformanceData()
			orig := mat.DenseCopyOf(Y)
			if err := c.new().Fit(Y); err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(Y, orig) {
				t.Error("Fit modified Y")
			}
		})
	}
}

// LatentTo resizes an empty dst to n×q and panics on a wrong shape.
func TestConformanceLatentTo(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := conformanceData()
			n, _ := Y.Dims()
			m := c.new()
			if err := m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var X mat.Dense
			m.LatentTo(&X)
			if r, q := X.Dims(); r != n || q != c.q {
				t.Fatalf("LatentTo gave %d×%d, want %d×%d", r, q, n, c.q)
			}
			mustPanic(t, "LatentTo wrong shape", func() { m.LatentTo(mat.NewDense(n+1, c.q, nil)) })
		})
	}
}

// Use before a successful Fit panics.
func TestConformanceUnfitted(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			mustPanic(t, "LatentTo before Fit", func() {
				var X mat.Dense
				c.new().LatentTo(&X)
			})
		})
	}
}

// A nil Src means a fixed seed: two fits give bit-identical results.
func TestConformanceDeterministic(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			var X1, X2 mat.Dense
			for _, X := range []*mat.Dense{&X1, &X2} {
				m := c.new()
				if err := m.Fit(conformanceData()); err != nil {
					t.Fatal(err)
				}
				m.LatentTo(X)
			}
			if !mat.Equal(&X1, &X2) {
				t.Error("two fits with nil Src differ")
			}
		})
	}
}

// zeroRows is an n = 0 data matrix with p columns (gonum's Dense cannot be
// empty in one dimension only).
type zeroRows struct{ p int }

func (z zeroRows) Dims() (int, int)    { return 0, z.p }
func (z zeroRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroRows) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// panicMessage runs f and returns the message it panicked with ("" if it
// did not panic).
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "<empty panic>"
			}
		}
	}()
	f()
	return ""
}

// checkPackagePanic fails unless f panics with the package's own message:
// a "dimred: " prefix, once.
func checkPackagePanic(t *testing.T, what string, f func()) {
	t.Helper()
	msg := panicMessage(f)
	switch {
	case msg == "":
		t.Errorf("%s: no panic", what)
	case !strings.HasPrefix(msg, "dimred: "):
		t.Errorf("%s: panic %q lacks the package's \"dimred: \" prefix", what, msg)
	case strings.Count(msg, "dimred:") > 1:
		t.Errorf("%s: panic %q repeats the \"dimred:\" prefix", what, msg)
	}
}

// Use before a successful Fit panics with the package's message.
func TestConformanceUnfittedMessage(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			checkPackagePanic(t, "LatentTo before Fit", func() {
				var X mat.Dense
				m.LatentTo(&X)
			})
			if p, ok := m.(Projector); ok {
				checkPackagePanic(t, "ProjectTo before Fit", func() {
					var X mat.Dense
					p.ProjectTo(&X, conformanceData())
				})
			}
		})
	}
}

// setQ sets the model's Q field (every method has one) by reflection.
func setQ(m Embedder, q int) {
	reflect.ValueOf(m).Elem().FieldByName("Q").SetInt(int64(q))
}

// A failed Fit — an error or a recovered panic — leaves the model unfitted:
// after a good fit, each bad refit must make LatentTo (and ProjectTo) panic
// as before the first Fit, never serving the previous fit.
func TestConformanceFailedRefitUnfits(t *testing.T) {
	nanY := conformanceData()
	nanY.Set(7, 3, math.NaN())
	_, p := nanY.Dims()
	refits := []struct {
		name  string
		refit func(m Embedder) error
	}{
		{"NaN in Y", func(m Embedder) error { return m.Fit(nanY) }},
		{"one row", func(m Embedder) error { return m.Fit(mat.NewDense(1, p, nil)) }},
		{"zero rows", func(m Embedder) error { return m.Fit(zeroRows{p}) }},
		{"parameter panic (Q = −1)", func(m Embedder) (err error) {
			setQ(m, -1)
			msg := panicMessage(func() { err = m.Fit(conformanceData()) })
			if msg == "" {
				return errors.New("Fit with Q = −1 did not panic")
			}
			return nil
		}},
	}
	for _, c := range conformanceCases {
		for _, r := range refits {
			t.Run(c.name+"/"+r.name, func(t *testing.T) {
				m := c.new()
				if err := m.Fit(conformanceData()); err != nil {
					t.Fatal(err)
				}
				var err error
				if msg := panicMessage(func() { err = r.refit(m) }); msg != "" {
					t.Errorf("bad refit panicked, want an error: %s", msg)
					err = errors.New(msg)
				}
				if r.name == "parameter panic (Q = −1)" {
					if err != nil {
						t.Fatal(err)
					}
				} else if err == nil {
					t.Fatal("bad refit returned no error")
				}
				checkPackagePanic(t, "LatentTo after a failed refit", func() {
					var X mat.Dense
					m.LatentTo(&X)
				})
				if p, ok := m.(Projector); ok {
					checkPackagePanic(t, "ProjectTo after a failed refit", func() {
						var X mat.Dense
						p.ProjectTo(&X, conformanceData())
					})
				}
			})
		}
	}
}

// NaN or Inf in Y → an error wrapping ErrNaN that names the entry.
func TestConformanceNaN(t *testing.T) {
	for _, c := range conformanceCases {
		for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			t.Run(fmt.Sprintf("%s/%v", c.name, v), func(t *testing.T) {
				Y := conformanceData()
				Y.Set(11, 3, v)
				err := c.new().Fit(Y)
				if !errors.Is(err, ErrNaN) {
					t.Fatalf("err = %v, want ErrNaN", err)
				}
				if !strings.Contains(err.Error(), "Y[11,3]") {
					t.Errorf("error %q does not name the entry Y[11,3]", err)
				}
				if strings.Count(err.Error(), "dimred:") > 1 {
					t.Errorf("error %q repeats the \"dimred:\" prefix", err)
				}
			})
		}
	}
}

// 0 or 1 rows → an error wrapping ErrTooFewPoints (a data property, not a
// panic, whatever Q is).
func TestConformanceTooFewPoints(t *testing.T) {
	_, p := conformanceData().Dims()
	for _, c := range conformanceCases {
		for _, Y := range []mat.Matrix{zeroRows{p}, mat.NewDense(1, p, nil)} {
			n, _ := Y.Dims()
			t.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(t *testing.T) {
				var err error
				if msg := panicMessage(func() { err = c.new().Fit(Y) }); msg != "" {
					t.Fatalf("Fit panicked: %s", msg)
				}
				if !errors.Is(err, ErrTooFewPoints) {
					t.Errorf("err = %v, want ErrTooFewPoints", err)
				}
			})
		}
	}
}

// NaN in ProjectTo's input: one rule (see Projector) — a panic with the
// package's message naming the entry, except PPCA, which marginalises a
// missing entry and must return finite positions.
func TestConformanceProjectNaN(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			if err := m.Fit(conformanceData()); err != nil {
				t.Fatal(err)
			}
			p, ok := m.(Projector)
			if !ok {
				t.Skip("not a Projector")
			}
			Ynew := mat.DenseCopyOf(conformanceData().Slice(0, 3, 0, 5))
			Ynew.Set(1, 2, math.NaN())
			var X mat.Dense
			if _, isPPCA := m.(*PPCA); isPPCA {
				p.ProjectTo(&X, Ynew)
				if err := errs.CheckFinite(&X, "X"); err != nil {
					t.Errorf("PPCA.ProjectTo with a missing entry: %v", err)
				}
				return
			}
			msg := panicMessage(func() { p.ProjectTo(&X, Ynew) })
			checkPackagePanic(t, "ProjectTo with a NaN", func() { p.ProjectTo(&X, Ynew) })
			if msg != "" && !strings.Contains(msg, "Ynew[1,2]") {
				t.Errorf("panic %q does not name the entry Ynew[1,2]", msg)
			}
		})
	}
}

// ProjectTo of the training rows gives LatentTo's positions.
func TestConformanceProjectTraining(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := conformanceData()
			m := c.new()
			if err := m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			p, ok := m.(Projector)
			if !ok {
				t.Skip("not a Projector")
			}
			var X, P mat.Dense
			m.LatentTo(&X)
			p.ProjectTo(&P, Y)
			scale := mat.Norm(&X, math.Inf(1))
			var d mat.Dense
			d.Sub(&X, &P)
			if diff := mat.Norm(&d, math.Inf(1)) / scale; !(diff <= c.projTol) {
				t.Errorf("ProjectTo(training rows) differs from LatentTo by %.3g (relative), tolerance %g", diff, c.projTol)
			}
		})
	}
}

// A nil Src means a fixed seed: refitting the same model gives
// bit-identical results.
func TestConformanceRefitIdentical(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			var X1, X2 mat.Dense
			for _, X := range []*mat.Dense{&X1, &X2} {
				if err := m.Fit(conformanceData()); err != nil {
					t.Fatal(err)
				}
				m.LatentTo(X)
			}
			if !mat.Equal(&X1, &X2) {
				t.Error("two fits of one model with nil Src differ")
			}
		})
	}
}

// A zero Q is a programmer error (doc.go, "Conventions"): Fit panics with
// the package's message. BayesianPCA is the documented exception: its Q is
// only an upper bound that ARD prunes, and 0 means the largest useful one.
func TestConformanceZeroQ(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			setQ(m, 0)
			if _, ok := m.(*BayesianPCA); ok {
				if err := m.Fit(conformanceData()); err != nil {
					t.Fatalf("BayesianPCA with the default Q: %v", err)
				}
				return
			}
			checkPackagePanic(t, "Fit with Q = 0", func() { m.Fit(conformanceData()) })
		})
	}
}

// Finite data whose covariance, Gram or distance matrix overflows float64
// (a column ~1e300): an error wrapping ErrOverflow that names the overflow,
// never ErrNaN blaming the caller's data, nor a silent Inf. A method whose
// result is still representable (the RBF kernel of huge distances is 0
// there, exactly as in exact arithmetic) may instead succeed, with finite
// latent positions.
func TestConformanceOverflow(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := withHugeColumn(40, 5, 11)
			m := c.new()
			var err error
			if msg := panicMessage(func() { err = m.Fit(Y) }); msg != "" {
				t.Fatalf("Fit panicked: %s", msg)
			}
			if err == nil {
				var X mat.Dense
				m.LatentTo(&X)
				if e := errs.CheckFinite(&X, "X"); e != nil {
					t.Errorf("Fit succeeded with a non-finite result: %v", e)
				}
				return
			}
			checkOverflowErr(t, "Fit", err)
		})
	}
}

// The one dst rule on the extractors every method shares: EigenvaluesTo
// allocates a nil dst and panics with mat.ErrShape on another length;
// LoadingsTo resizes an empty dst and panics on another shape.
func TestConformanceDstRule(t *testing.T) {
	type eigenvaluer interface{ EigenvaluesTo([]float64) []float64 }
	type loader interface{ LoadingsTo(*mat.Dense) }
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			m := c.new()
			if err := m.Fit(conformanceData()); err != nil {
				t.Fatal(err)
			}
			if e, ok := m.(eigenvaluer); ok {
				v := e.EigenvaluesTo(nil)
				if len(v) == 0 {
					t.Fatal("EigenvaluesTo(nil) returned nothing")
				}
				if w := e.EigenvaluesTo(make([]float64, len(v))); !floatsEqual(v, w) {
					t.Errorf("EigenvaluesTo into a sized dst: %v, want %v", w, v)
				}
				if msg := panicMessage(func() { e.EigenvaluesTo(make([]float64, len(v)+1)) }); msg != mat.ErrShape.Error() {
					t.Errorf("EigenvaluesTo with a dst of another length: panic %q, want mat.ErrShape", msg)
				}
			}
			if l, ok := m.(loader); ok {
				var W mat.Dense
				l.LoadingsTo(&W)
				r, q := W.Dims()
				if msg := panicMessage(func() { l.LoadingsTo(mat.NewDense(r+1, q, nil)) }); msg != mat.ErrShape.Error() {
					t.Errorf("LoadingsTo with a dst of another shape: panic %q, want mat.ErrShape", msg)
				}
			}
		})
	}
}

func floatsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Chapter 5 spectral methods (appended by the ch5a branch).
var (
	_ Projector     = (*LaplacianEigenmaps)(nil)
	_ Projector     = (*LLE)(nil)
	_ Projector     = (*Isomap)(nil)
	_ SpectralModel = (*LaplacianEigenmaps)(nil)
	_ SpectralModel = (*LLE)(nil)
	_ SpectralModel = (*Isomap)(nil)
)

func init() {
	conformanceCases = append(conformanceCases,
		// LE's Nyström extension joins a training row to itself and its
		// k−1 nearest, not to its graph neighbours: approximate (measured
		// 0.11 here; the ProjectTo tests in spectral_test.go check the
		// extension itself). LLE and Isomap place training rows exactly.
		conformanceCase{"LaplacianEigenmaps", 2, func() Embedder { return &LaplacianEigenmaps{Q: 2, K: 8, T: 20} }, 0.25},
		conformanceCase{"LLE", 2, func() Embedder { return &LLE{Q: 2, K: 8} }, 1e-12},
		conformanceCase{"Isomap", 2, func() Embedder { return &Isomap{Q: 2, K: 8} }, 1e-9},
		conformanceCase{"Isomap/landmark", 2, func() Embedder { return &Isomap{Q: 2, K: 8, Landmarks: 15} }, 1e-9},
	)
}

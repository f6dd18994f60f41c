package dimred

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

// userSquaredDistances forms D_ij = Σ_k (y_ik − y_jk)² (plain distances
// when plain) entry by entry in float64, as a user would before calling
// FitDistances: at extreme scale the squares under- or overflow here,
// before the library sees them.
func userSquaredDistances(Y *mat.Dense, plain bool) *mat.SymDense {
	n, p := Y.Dims()
	D := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := 0.0
			if plain {
				// hypot-style, so that plain distances of data ~1e±200
				// are themselves representable.
				v := make([]float64, p)
				for k := range v {
					v[k] = Y.At(i, k) - Y.At(j, k)
				}
				s = mat.Norm(mat.NewVecDense(p, v), 2)
			} else {
				for k := 0; k < p; k++ {
					d := Y.At(i, k) - Y.At(j, k)
					s += d * d
				}
			}
			D.SetSym(i, j, s)
		}
	}
	return D
}

// ClassicalMDS is scale-equivariant: the configuration of sY is s times
// that of Y and the eigenvalues of B are s² times, at any scale whose
// results float64 can hold. Provenance: an outside-in test of the public
// API found Fit(1e-200·Y) returning X = 0 without an error (the squared
// distances underflowed to zero), and FitDistances of the corresponding
// squared distances doing the same. Reference: the same fit of the
// unscaled 30×3 data, scaled by s (relative tolerance 1e-10).
func TestClassicalMDSExtremeScale(t *testing.T) {
	Y0 := testutil.RandDense(30, 3, 11)
	type fitter func(m *ClassicalMDS, Y *mat.Dense) error
	fitY := func(m *ClassicalMDS, Y *mat.Dense) error { return m.Fit(Y) }
	fitD := func(m *ClassicalMDS, Y *mat.Dense) error { return m.FitDistances(userSquaredDistances(Y, false)) }
	fitPlain := func(m *ClassicalMDS, Y *mat.Dense) error {
		m.Plain = true
		return m.FitDistances(userSquaredDistances(Y, true))
	}
	const (
		scaled    = iota // X = s·X₀, λ = s²·λ₀
		zero             // D underflowed entirely: identical points, X = 0
		overflow         // ErrOverflow
		notFinite        // the user's D holds +Inf: ErrNaN
	)
	cases := []struct {
		how       string
		fit       fitter
		s         float64
		landmarks int
		want      int
		errHas    string // a substring the error must contain
	}{
		// Fit(Y) rescales Y by a power of two: correct at any scale whose
		// eigenvalues s²λ are finite.
		{how: "Fit", fit: fitY, s: 1e-200, want: scaled},
		{how: "Fit", fit: fitY, s: 1e-300, want: scaled},
		{how: "Fit", fit: fitY, s: 1e-160, want: scaled}, // was 8e-5 off: subnormal D
		{how: "Fit", fit: fitY, s: 1e-120, want: scaled},
		{how: "Fit", fit: fitY, s: 1e+120, want: scaled},
		{how: "Fit", fit: fitY, s: 1e+150, want: scaled},
		{how: "Fit/landmarks", fit: fitY, s: 1e-200, landmarks: 15, want: scaled},
		{how: "Fit/landmarks", fit: fitY, s: 1e+150, landmarks: 15, want: scaled},
		// s²λ₁ ~ 1e320 is beyond float64: the eigenvalues of B cannot be
		// reported (X, ~1e160, could, but EigenvaluesTo would be +Inf).
		{how: "Fit", fit: fitY, s: 1e+160, want: overflow, errHas: "λ_1"},
		// Squared distances given by the user, ~1e-200 (normal, but their
		// products underflow), ~1e+300 (their sums overflow).
		{how: "FitDistances", fit: fitD, s: 1e-100, want: scaled},
		{how: "FitDistances", fit: fitD, s: 1e+150, want: scaled},
		// ~1e-320: every squared distance is subnormal, its precision
		// lost in the user's own computation: ErrOverflow naming the entry.
		{how: "FitDistances", fit: fitD, s: 1e-160, want: overflow, errHas: "underflow"},
		// ~1e-400: every squared distance is exactly zero, which is the
		// squared distance matrix of identical points (documented).
		{how: "FitDistances", fit: fitD, s: 1e-200, want: zero},
		// ~1e+320: the user's squares overflowed to +Inf.
		{how: "FitDistances", fit: fitD, s: 1e+160, want: notFinite},
		// Plain distances ~1e-200 and ~1e+150 are representable, and
		// FitDistances squares them at a safe scale.
		{how: "FitDistances/Plain", fit: fitPlain, s: 1e-200, want: scaled},
		{how: "FitDistances/Plain", fit: fitPlain, s: 1e+150, want: scaled},
		{how: "FitDistances/Plain", fit: fitPlain, s: 1e+160, want: overflow, errHas: "λ_1"},
	}
	for _, c := range cases {
		for _, full := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/s=%g/full=%v", c.how, c.s, full), func(t *testing.T) {
				ref := &ClassicalMDS{Q: 2, FullSpectrum: full, Landmarks: c.landmarks}
				if err := c.fit(ref, Y0); err != nil {
					t.Fatal(err)
				}
				var X0 mat.Dense
				ref.LatentTo(&X0)
				lam0 := ref.EigenvaluesTo(nil)

				Y := mat.NewDense(30, 3, nil)
				Y.Scale(c.s, Y0)
				m := &ClassicalMDS{Q: 2, FullSpectrum: full, Landmarks: c.landmarks}
				err := c.fit(m, Y)
				switch c.want {
				case overflow, notFinite:
					want := ErrOverflow
					if c.want == notFinite {
						want = ErrNaN
					}
					if !errors.Is(err, want) || !strings.Contains(err.Error(), c.errHas) {
						t.Fatalf("err = %v, want %v naming %q", err, want, c.errHas)
					}
					mustPanic(t, "LatentTo after a failed fit", func() { m.LatentTo(nil) })
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				var X mat.Dense
				m.LatentTo(&X)
				if c.want == zero {
					if mx := mat.Norm(&X, math.Inf(1)); mx != 0 {
						t.Errorf("max|X| = %g, want 0 (D = 0: identical points)", mx)
					}
					return
				}
				want := mat.NewDense(30, 2, nil)
				want.Scale(c.s, &X0)
				scale := c.s * mat.Norm(&X0, math.Inf(1))
				if d := testutil.MaxAbsDiff(&X, want); !(d <= 1e-10*scale) {
					t.Errorf("X differs from s·X₀ by %.3g (relative %.3g)", d, d/scale)
				}
				lam := m.EigenvaluesTo(nil)
				for j, l0 := range lam0 {
					w := c.s * (c.s * l0)
					if math.Abs(w) < 0x1p-1000 {
						// s²λ is below float64's normal range: the reported
						// value is that number rounded, so only tiny.
						if !(math.Abs(lam[j]) < 0x1p-990) {
							t.Errorf("λ_%d = %g, want s²λ₀ = %g", j+1, lam[j], w)
						}
						continue
					}
					if math.Abs(lam[j]-w) > 1e-10*math.Abs(c.s*(c.s*lam0[0])) {
						t.Errorf("λ_%d = %g, want s²λ₀ = %g", j+1, lam[j], w)
					}
				}
				if full {
					if a1, _ := m.FitRatios(); math.Abs(a1-func() float64 { a, _ := ref.FitRatios(); return a }()) > 1e-10 {
						t.Errorf("FitRatios α₁ = %v, unscaled %v", a1, func() float64 { a, _ := ref.FitRatios(); return a }())
					}
				}
				// A fitted point is placed where LatentTo put it.
				var Xp mat.Dense
				if c.how == "FitDistances" || strings.HasPrefix(c.how, "FitDistances") {
					var Dnew mat.Dense
					Dnew.CloneFrom(userSquaredDistances(Y, m.Plain))
					m.ProjectDistancesTo(&Xp, Dnew.Slice(0, 5, 0, 30))
				} else {
					m.ProjectTo(&Xp, Y.Slice(0, 5, 0, 3))
				}
				if d := testutil.MaxAbsDiff(&Xp, want.Slice(0, 5, 0, 2)); !(d <= 1e-9*scale) {
					t.Errorf("projected fitted points differ from s·X₀ by %.3g (relative %.3g)", d, d/scale)
				}
			})
		}
	}
}

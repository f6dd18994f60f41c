package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

func rotation2(theta float64) *mat.Dense {
	c, s := math.Cos(theta), math.Sin(theta)
	return mat.NewDense(2, 2, []float64{c, -s, s, c})
}

func TestProcrustesRecoversTransform(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	X := randMatrix(rng, 30, 2)
	reflect := mat.NewDense(2, 2, []float64{1, 0, 0, -1})
	for _, tc := range []struct {
		name    string
		R       *mat.Dense
		s       float64
		opts    *ProcrustesOptions
		exact   bool // the optimum reproduces Y exactly
		wantDet float64
	}{
		{"rotation", rotation2(0.7), 1, nil, true, 1},
		{"rotation, scale asked", rotation2(-2), 1, &ProcrustesOptions{Scale: true}, true, 1},
		{"rotation+scale", rotation2(2.5), 3.5, &ProcrustesOptions{Scale: true}, true, 1},
		{"reflection allowed", func() *mat.Dense { var m mat.Dense; m.Mul(reflect, rotation2(1)); return &m }(), 1, nil, true, -1},
		{"reflection forbidden", func() *mat.Dense { var m mat.Dense; m.Mul(reflect, rotation2(1)); return &m }(), 1, &ProcrustesOptions{NoReflection: true}, false, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Y = s X R + 1 tᵀ
			var Y mat.Dense
			Y.Mul(X, tc.R)
			Y.Scale(tc.s, &Y)
			tr := []float64{5, -3}
			for i := 0; i < 30; i++ {
				Y.Set(i, 0, Y.At(i, 0)+tr[0])
				Y.Set(i, 1, Y.At(i, 1)+tr[1])
			}
			res, err := Procrustes(X, &Y, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if d := mat.Det(res.R); math.Abs(d-tc.wantDet) > 1e-12 {
				t.Errorf("det R = %g, want %g", d, tc.wantDet)
			}
			var rtr mat.Dense
			rtr.Mul(res.R.T(), res.R)
			if d := maxAbsDiff(&rtr, mat.NewDiagDense(2, []float64{1, 1})); d > 1e-12 {
				t.Errorf("RᵀR ≠ I: %g", d)
			}
			if !tc.exact {
				if res.RMS < 0.1 {
					t.Errorf("a rotation cannot undo a reflection, yet RMS = %g", res.RMS)
				}
				return
			}
			if res.RMS > 1e-10 {
				t.Errorf("RMS = %g", res.RMS)
			}
			if d := maxAbsDiff(res.R, tc.R); d > 1e-10 {
				t.Errorf("R = %v, want %v", mat.Formatted(res.R), mat.Formatted(tc.R))
			}
			if math.Abs(res.Scale-tc.s) > 1e-10 {
				t.Errorf("s = %g, want %g", res.Scale, tc.s)
			}
			if math.Abs(res.T[0]-tr[0]) > 1e-10 || math.Abs(res.T[1]-tr[1]) > 1e-10 {
				t.Errorf("t = %v, want %v", res.T, tr)
			}
		})
	}
}

func TestProcrustesNoScaleKeepsSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	X := randMatrix(rng, 20, 3)
	var Y mat.Dense
	Y.Scale(2, X)
	res, err := Procrustes(X, &Y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scale != 1 {
		t.Errorf("scale %g without Scale", res.Scale)
	}
	if d := maxAbsDiff(res.R, mat.NewDiagDense(3, []float64{1, 1, 1})); d > 1e-10 {
		t.Errorf("R should be I: %v", mat.Formatted(res.R))
	}
}

func TestProcrustesBadInput(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	Y := mat.NewDense(3, 2, []float64{0, 0, 1, 0, math.NaN(), 1})
	if _, err := Procrustes(X, Y, nil); !errors.Is(err, ErrNaN) {
		t.Errorf("NaN: got %v", err)
	}
	Z := mat.NewDense(3, 2, []float64{1, 1, 1, 1, 1, 1})
	if _, err := Procrustes(Z, X, &ProcrustesOptions{Scale: true}); !errors.Is(err, ErrSingular) {
		t.Errorf("zero spread with scaling: got %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("shape mismatch did not panic")
		}
	}()
	Procrustes(X, mat.NewDense(3, 3, nil), nil)
}

// NoReflection with Scale, against a hand computation: the optimal proper
// rotation must give up the reflection, and the scale must use the
// corrected trace tr(Σ) − 2σ_min (a mutant keeping tr Σ gives s = 3).
//
// X = [(1, 0), (−1, 0), (0, 2), (0, −2)] (centred, ‖X‖² = 10) and
// Y = 3 X diag(1, −1), a reflection. XᵀY = diag(6, −24): singular values
// 24, 6. Over rotations R(θ), tr(R(θ)ᵀ XᵀY) = 6cos θ − 24cos θ = −18 cos θ
// is largest at θ = π, R = −I, trace 18 = 24 − 6; s = 18/10 = 1.8; the
// residual is ‖Y‖² − s·18 = 90 − 32.4 = 57.6, RMS = √(57.6/4) = √14.4.
func TestProcrustesNoReflectionScaleHandComputed(t *testing.T) {
	X := mat.NewDense(4, 2, []float64{1, 0, -1, 0, 0, 2, 0, -2})
	Y := mat.NewDense(4, 2, []float64{3, 0, -3, 0, 0, -6, 0, 6})
	res, err := Procrustes(X, Y, &ProcrustesOptions{NoReflection: true, Scale: true})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Scale-1.8) > 1e-14 {
		t.Errorf("s = %.15g, want 1.8", res.Scale)
	}
	if d := testutil.MaxAbsDiff(res.R, mat.NewDense(2, 2, []float64{-1, 0, 0, -1})); d > 1e-14 {
		t.Errorf("R = %v, want −I", mat.Formatted(res.R))
	}
	if math.Abs(res.RMS-math.Sqrt(14.4)) > 1e-14 {
		t.Errorf("RMS = %.15g, want √14.4 = %.15g", res.RMS, math.Sqrt(14.4))
	}
	// With reflections allowed, R = diag(1, −1) and s = (24 + 6)/10 = 3 fit exactly.
	res, err = Procrustes(X, Y, &ProcrustesOptions{Scale: true})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(res.Scale-3) > 1e-14 || res.RMS > 1e-14 {
		t.Errorf("reflection allowed: s = %.15g, RMS = %g; want 3, 0", res.Scale, res.RMS)
	}
}

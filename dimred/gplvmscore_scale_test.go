package dimred

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
)

// The GP-LVM score is a maximised log likelihood, and the model with the
// default kernel is scale-equivariant: every term of
// K = α_r RBF + α_b + α_w I has a free variance, so K ↦ s²K maps the
// optimum for Y to the optimum for sY, and
//
//	S(sY) = S(Y) − np·log s
//
// (log|s²K| = log|K| + n log s² in the −(p/2) log|K| term; the trace term
// is unchanged). Provenance: an outside-in test of the public API found
// the score of 1e150·Y wrong by 8e7 nats (the optimiser, started at
// α_r = 1 in the data's units, stopped at once), and it was wrong at
// 1e±10 too. Reference: the score of the unscaled data, shifted by
// −np·log s. Tolerance 1e-6 nats per point (seen: 1e-7 in all): the
// optimisers of the two runs stop at the same optimum to their
// convergence tests (Tol 1e-9 nats per point per iteration, gradient
// 1e-6), not to round-off.
func TestGPLVMScoreScaleEquivariant(t *testing.T) {
	T, Y, _ := gpToyData(40, 4)
	n, p := Y.Dims()
	ref, err := (&GPLVMScore{}).Score(T, Y)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []float64{1e-300, 1e-150, 1e-10, 1e10, 1e150, 1e160, 1e300} {
		t.Run(fmt.Sprintf("s=%g", s), func(t *testing.T) {
			Ys := mat.NewDense(n, p, nil)
			Ys.Scale(s, Y)
			r, err := (&GPLVMScore{}).Score(T, Ys)
			if err != nil {
				t.Fatal(err)
			}
			want := ref.LogLikelihood - float64(n*p)*math.Log(s)
			if d := math.Abs(r.LogLikelihood - want); !(d <= 1e-6*float64(n)) {
				t.Errorf("S(sY) = %.10g, want S(Y) − np·log s = %.10g (off by %.3g)", r.LogLikelihood, want, d)
			}
			// The RBF's log variance moves by 2 log s, its length scale
			// not at all (to the optimiser's precision in θ).
			if d := r.Params[0] - ref.Params[0] - 2*math.Log(s); math.Abs(d) > 1e-3 {
				t.Errorf("rbf log variance %.6g, want %.6g + 2 log s", r.Params[0], ref.Params[0])
			}
			if d := r.Params[1] - ref.Params[1]; math.Abs(d) > 1e-3 {
				t.Errorf("rbf log length scale %.6g, want %.6g", r.Params[1], ref.Params[1])
			}
		})
	}
	// A caller's own kernel starts where the caller put it, in the data's
	// units: far from it the score is computed as given, and a
	// log-likelihood or jitter that overflows is ErrOverflow, never a
	// wrong finite number or ErrSingular.
	Ys := mat.NewDense(n, p, nil)
	Ys.Scale(1e160, Y)
	k := DefaultScoreKernel()
	_, err = (&GPLVMScore{Kernel: kernel.ParamKernel(k)}).Score(T, Ys)
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("own kernel, Y ×1e160: err = %v, want ErrOverflow", err)
	}
}

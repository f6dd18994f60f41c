package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gpToyData returns a 1-D latent curve t (n×1) mapped non-linearly to p
// features with noise, and a random X of the same shape.
func gpToyData(n, p int) (T, Y, R *mat.Dense) {
	rnd := rand.New(rand.NewPCG(11, 12))
	T, Y, R = mat.NewDense(n, 2, nil), mat.NewDense(n, p, nil), mat.NewDense(n, 2, nil)
	for i := range n {
		s := -2 + 4*float64(i)/float64(n-1)
		T.Set(i, 0, s)
		T.Set(i, 1, 0.3*math.Sin(2*s))
		R.Set(i, 0, rnd.NormFloat64())
		R.Set(i, 1, rnd.NormFloat64())
		for j := range p {
			Y.Set(i, j, math.Sin(s*float64(j+1)/2)+0.05*rnd.NormFloat64())
		}
	}
	return T, Y, R
}

// The gradient of the GP log marginal likelihood with respect to the log
// hyperparameters agrees with central finite differences.
func TestGPLVMScoreGradient(t *testing.T) {
	T, Y, _ := gpToyData(30, 4)
	ev := newGPEval(DefaultScoreKernel(), T, mat.DenseCopyOf(Y))
	theta := []float64{0.3, -0.2, -1.5, -2.5}
	g := make([]float64, 4)
	ev.eval(g, theta)
	const h = 1e-5
	for i := range theta {
		tp := append([]float64(nil), theta...)
		tp[i] += h
		fp := ev.eval(nil, tp)
		tp[i] -= 2 * h
		fm := ev.eval(nil, tp)
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-g[i]) > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("θ[%d]: analytic %.8g, finite difference %.8g", i, g[i], fd)
		}
	}
}

// The true latent curve scores far above a random embedding, the optimum
// beats the start, and its gradient vanishes.
func TestGPLVMScoreRanks(t *testing.T) {
	T, Y, R := gpToyData(60, 5)
	var s GPLVMScore
	good, err := s.Score(T, Y)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := s.Score(R, Y)
	if err != nil {
		t.Fatal(err)
	}
	if !(good.LogLikelihood > bad.LogLikelihood+50) {
		t.Errorf("score of true latent %v not well above random %v", good.LogLikelihood, bad.LogLikelihood)
	}
	Yc := mat.DenseCopyOf(Y)
	centreColumnsInPlace(Yc)
	ev := newGPEval(DefaultScoreKernel(), T, Yc)
	ev.jitter = scoreJitter(Yc, 0)
	start := ev.eval(nil, DefaultScoreKernel().Params(nil))
	if !(good.LogLikelihood > start) {
		t.Errorf("optimum %v not above start %v", good.LogLikelihood, start)
	}
	g := make([]float64, 4)
	if v := ev.eval(g, good.Params); math.Abs(v-good.LogLikelihood) > 1e-9*math.Abs(v) {
		t.Errorf("reported %v, re-evaluated %v", good.LogLikelihood, v)
	}
	for i, gi := range g {
		// The driver stops on a gain below 1e-9 nats per point, where the
		// gradient in the log hyperparameters is of order 1e-3.
		if math.Abs(gi) > 1e-2 {
			t.Errorf("gradient %d at optimum %v", i, gi)
		}
	}
}

func centreColumnsInPlace(Y *mat.Dense) {
	n, p := Y.Dims()
	for j := range p {
		var m float64
		for i := range n {
			m += Y.At(i, j)
		}
		m /= float64(n)
		for i := range n {
			Y.Set(i, j, Y.At(i, j)-m)
		}
	}
}

// On nearly noiseless data the white-noise variance heads to zero, where
// K is singular to round-off and gonum's line search stalls: with the
// default jitter, and without it (by the restart rule alone), the score is
// finite and reported as converged.
func TestGPLVMScoreNoiseless(t *testing.T) {
	n, p := 60, 10
	Y := mat.NewDense(n, p, nil)
	X := mat.NewDense(n, 2, nil)
	for i := range n {
		s := 2 * math.Pi * float64(i) / float64(n)
		X.Set(i, 0, math.Cos(s))
		X.Set(i, 1, math.Sin(s))
		for j := range p {
			Y.Set(i, j, math.Cos(s+float64(j)))
		}
	}
	var s GPLVMScore
	r, err := s.Score(X, Y)
	if err != nil {
		t.Fatalf("noiseless curve: %v", err)
	}
	if math.IsNaN(r.LogLikelihood) || math.IsInf(r.LogLikelihood, 0) {
		t.Fatalf("score %v", r.LogLikelihood)
	}
	t.Logf("score %.2f, θ %.3f, %d iterations", r.LogLikelihood, r.Params, r.Iterations)
	r0, err := (&GPLVMScore{Jitter: -1}).Score(X, Y)
	if err != nil {
		t.Fatalf("noiseless curve without jitter: %v", err)
	}
	if math.IsNaN(r0.LogLikelihood) || math.IsInf(r0.LogLikelihood, 0) {
		t.Fatalf("score without jitter %v", r0.LogLikelihood)
	}
}

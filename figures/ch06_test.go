package figures

import (
	"math"
	"strings"
	"testing"
)

// Book Fig 6.5 caption: "The new distribution over y (right) is
// multimodal". The pushed-through density has more than one mode for every
// weight draw we try, and integrates to one.
func TestFig6_5Multimodal(t *testing.T) {
	ys := linspace(-8, 8, 1601)
	for seed := uint64(1); seed <= 5; seed++ {
		p := PushedGaussian1D(ys, seed)
		if k := Modes(p); k < 2 {
			t.Errorf("seed %d: p(y) has %d mode(s), want > 1", seed, k)
		}
		mass := 0.0
		for _, v := range p {
			mass += v * (ys[1] - ys[0])
		}
		if math.Abs(mass-1) > 1e-3 {
			t.Errorf("seed %d: ∫p(y)dy = %v", seed, mass)
		}
	}
	f, err := Fig6_5GaussianThroughMap()
	if err != nil {
		t.Fatal(err)
	}
	if f.Numbers[0].Ours < 2 {
		t.Errorf("Fig 6.5 reports %v modes", f.Numbers[0].Ours)
	}
}

// Fig 6.13: p(1 | x) = σ(s x) for unit Gaussians s SD apart; at x = 0.5 the
// reference values (σ(0.5), σ(2), σ(8)) are 0.6225, 0.8808, 0.99966.
func TestFig6_13Posterior(t *testing.T) {
	for _, c := range []struct{ s, want, tol float64 }{{1, 0.6225, 5e-5}, {4, 0.8808, 5e-5}, {16, 0.99966, 5e-6}} {
		if got := ComponentPosterior(0.5, c.s); math.Abs(got-c.want) > c.tol {
			t.Errorf("separation %g: p(1|0.5) = %v, want %v", c.s, got, c.want)
		}
		for _, x := range []float64{-3, -0.2, 0, 1.7} {
			if got, want := ComponentPosterior(x, c.s), 1/(1+math.Exp(-c.s*x)); math.Abs(got-want) > 1e-12 {
				t.Errorf("separation %g, x = %g: %v, logistic %v", c.s, x, got, want)
			}
		}
	}
}

// Fig 6.12: the coarse grid's density ripples (bubbles), the fine grid's
// hardly.
func TestFig6_12Bubblewrap(t *testing.T) {
	f, err := Fig6_12Bubblewrap()
	if err != nil {
		t.Fatal(err)
	}
	fine, coarse := f.Numbers[0].Ours, f.Numbers[1].Ours
	if !(fine < 1.05 && coarse > 1.1) {
		t.Errorf("peak/midway ratios: fine %v, coarse %v", fine, coarse)
	}
}

func TestCh6SyntheticGolden(t *testing.T) {
	for _, fn := range []func() (*Figure, error){Fig6_1RBFBasis, Fig6_2SampledFunctions, Fig6_3Manifold, Fig6_4String,
		Fig6_5GaussianThroughMap, Fig6_6GaussianTo2D, Fig6_7GaussianTo3D, Fig6_9SampledGaussianTo2D, Fig6_12Bubblewrap, Fig6_13PosteriorSharpness} {
		f, err := fn()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.ReplaceAll(f.ID, ".", "_"), func(t *testing.T) { checkGolden(t, f) })
	}
}

// Fig 6.11 (stick man) and X6.1 (magnification factors) on the book's
// data: they run, and the factors are positive and vary over latent space.
func TestCh6DataFigures(t *testing.T) {
	f := ch2DataFigure(t, Fig6_11StickGTM)
	if len(f.Panels) != 3 {
		t.Errorf("Fig 6.11 has %d panels, want 3", len(f.Panels))
	}
	if testing.Short() {
		t.Skip("X6.1 fits a 20×20 GTM to the oil data")
	}
	x := ch2DataFigure(t, FigX6_1Magnification)
	lo, hi, nn := x.Numbers[0].Ours, x.Numbers[1].Ours, x.Numbers[4].Ours
	t.Logf("median factor at occupied grid points %v, at empty ones %v", x.Numbers[2].Ours, x.Numbers[3].Ours)
	if !(lo > 0 && hi > 2*lo) {
		t.Errorf("magnification factors in [%v, %v]", lo, hi)
	}
	// PCA gives 162 errors (Fig X2.4); a 20×20 GTM must do far better.
	if nn > 100 {
		t.Errorf("20×20 GTM: %v 1-NN errors", nn)
	}
}

package dimred_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// Oil flow (1000×12 training set): 1-NN errors in the 2-D latent space.
// Book Fig 6.10: GTM 10×10 / 20×20 / 30×30 → 74 / 44 / 11; Fig 6.8:
// density network with 100 / 400 samples → 22 / 16; PPCA (our reference
// computation) → 162. The book's runs used MATLAB's legacy random streams,
// which cannot be reproduced, so the test checks the structure: errors
// fall with the grid, and every model is far below PCA.
func TestOilNonlinearNNErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("fits five nonlinear models to the oil data")
	}
	ds, err := datasets.Oil("train")
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	nn := func(m dimred.Embedder) int {
		if err := m.Fit(ds.Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
			t.Fatal(err)
		}
		var X mat.Dense
		m.LatentTo(&X)
		return dimred.NearestNeighbourErrors(&X, ds.Labels)
	}
	// The reference setting (20 random RBF centres) varies a lot from seed
	// to seed: the mean over three seeds (PCG(s, 15)) gave 93, 30, 34, so
	// 20×20 and 30×30 are within the spread of each other, and only the
	// fall from 10×10 is checked. Bishop et al.'s deterministic basis (a
	// 6×6 grid of centres) must give the full order.
	gtm := func(g int) int {
		s := 0
		for seed := uint64(1); seed <= 3; seed++ {
			s += nn(&dimred.GTM{Q: 2, Grid: g, Src: rand.NewPCG(seed, 15)})
		}
		return (s + 1) / 3
	}
	g10, g20, g30 := gtm(10), gtm(20), gtm(30)
	grid := func(g int) int { return nn(&dimred.GTM{Q: 2, Grid: g, Basis: dimred.GTMGridCentres, NumBasis: 6}) }
	b10, b20, b30 := grid(10), grid(20), grid(30)
	t.Logf("GTM, grid of 6×6 centres, 10/20/30: %d %d %d", b10, b20, b30)
	if !(b10 >= b20 && b20 >= b30) {
		t.Errorf("GTM (grid centres) errors rise with the grid: %d, %d, %d", b10, b20, b30)
	}
	d100, d400 := nn(&dimred.DensityNetwork{Q: 2, Samples: 100}), nn(&dimred.DensityNetwork{Q: 2, Samples: 400})
	t.Logf("GTM 10/20/30 (mean of 3 seeds): %d %d %d (book 74 44 11); DN 100/400: %d %d (book 22 16)", g10, g20, g30, d100, d400)
	if !(g10 > g20 && g10 > g30) {
		t.Errorf("GTM (random centres) errors do not fall from the 10×10 grid: %d, %d, %d", g10, g20, g30)
	}
	for _, e := range []int{g10, g20, g30, b10, b20, b30, d100, d400} {
		if e > 100 {
			t.Errorf("%d errors: not far below PCA's 162", e)
		}
	}
	if d400 > d100+10 {
		t.Errorf("density network: %d errors with 400 samples, %d with 100", d400, d100)
	}
}

package dimred_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/mds"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// TestClassicalMDSEurodist is the small worked example: R's eurodist (21
// cities, road km). The top eigenvalues agree with R's
// cmdscale(eurodist, eig = TRUE) and with gonum's TorgersonScaling.
func TestClassicalMDSEurodist(t *testing.T) {
	d, err := datasets.Eurodist()
	if datasets.Skippable(err) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	m := &dimred.ClassicalMDS{Q: 2, Plain: true, FullSpectrum: true}
	if err := m.FitDistances(d.D); err != nil {
		t.Fatal(err)
	}
	vals := m.EigenvaluesTo(nil)
	// R: cmdscale(eurodist, eig = TRUE)$eig[1:2] = 19538377, 11856555
	if math.Abs(vals[0]-19538377) > 1 || math.Abs(vals[1]-11856555) > 1 {
		t.Errorf("λ₁, λ₂ = %.1f, %.1f; R gives 19538377, 11856555", vals[0], vals[1])
	}
	var tx mat.Dense
	teig := make([]float64, 21)
	mds.TorgersonScaling(&tx, teig, d.D)
	for i := range vals {
		if math.Abs(vals[i]-teig[i]) > 1e-6*vals[0] {
			t.Errorf("λ_%d = %g, Torgerson %g", i+1, vals[i], teig[i])
		}
	}
	if _, neg, _ := m.EigenvalueSigns(0); neg == 0 {
		t.Error("eurodist should have negative eigenvalues")
	}
}

// TestClassicalMDSRoadVariants checks the catalog's three road-distance
// variants (book-ch3-4.md §3.2, VERIFIED table).
func TestClassicalMDSRoadVariants(t *testing.T) {
	for _, tc := range []struct {
		sel                   datasets.CitySelection
		n                     int
		l1, l2, lmin          float64
		pos, neg, zero        int
		negMass, meanAbsErrKm float64
	}{
		{datasets.Cities53Zero, 53, 4.538e7, 3.404e7, -7.234e6, 26, 26, 1, 0.185, 149},
		{datasets.Cities48, 48, 4.070e7, 2.151e7, -5.853e6, 25, 22, 1, 0.174, 128},
		{datasets.Cities53, 53, 4.510e7, 3.367e7, -7.439e6, 27, 25, 1, 0.184, 144},
	} {
		t.Run(tc.sel.String(), func(t *testing.T) {
			d, err := datasets.EuropeRoads(tc.sel)
			if datasets.Skippable(err) {
				t.Skip(err)
			}
			if err != nil {
				t.Fatal(err)
			}
			m := &dimred.ClassicalMDS{Q: 2, Plain: true, FullSpectrum: true}
			if err := m.FitDistances(d.D); err != nil {
				t.Fatal(err)
			}
			v := m.EigenvaluesTo(nil)
			if len(v) != tc.n {
				t.Fatalf("%d eigenvalues, want %d", len(v), tc.n)
			}
			rel := func(got, want float64) bool { return math.Abs(got-want) <= 0.0005*math.Abs(want) }
			if !rel(v[0], tc.l1) || !rel(v[1], tc.l2) || !rel(v[tc.n-1], tc.lmin) {
				t.Errorf("λ₁ %.4g λ₂ %.4g λmin %.4g; want %.4g %.4g %.4g", v[0], v[1], v[tc.n-1], tc.l1, tc.l2, tc.lmin)
			}
			pos, neg, zero := m.EigenvalueSigns(0)
			if pos != tc.pos || neg != tc.neg || zero != tc.zero {
				t.Errorf("signs %d/%d/%d, want %d/%d/%d", pos, neg, zero, tc.pos, tc.neg, tc.zero)
			}
			if nm := m.NegativeMass(); math.Abs(nm-tc.negMass) > 0.001 {
				t.Errorf("negative mass %.4f, want %.3f", nm, tc.negMass)
			}
			var X mat.Dense
			m.LatentTo(&X)
			Dx := mat.NewSymDense(tc.n, nil)
			linalg.PairwiseSquaredDistances(Dx, &X)
			e := 0.0
			for i := 0; i < tc.n; i++ {
				for j := i + 1; j < tc.n; j++ {
					e += math.Abs(math.Sqrt(Dx.At(i, j)) - d.D.At(i, j))
				}
			}
			e /= float64(tc.n*(tc.n-1)) / 2
			if math.Abs(e-tc.meanAbsErrKm) > 1 {
				t.Errorf("2-D mean |d̂−d| = %.1f km, want %.0f", e, tc.meanAbsErrKm)
			}
		})
	}
}

// ExampleClassicalMDS embeds four points on a line from their squared
// distances and reports the spectrum of B = −½HDH.
func ExampleClassicalMDS() {
	D := mat.NewSymDense(4, []float64{
		0, 1, 4, 9,
		1, 0, 1, 4,
		4, 1, 0, 1,
		9, 4, 1, 0,
	})
	m := &dimred.ClassicalMDS{Q: 1, FullSpectrum: true}
	if err := m.FitDistances(D); err != nil {
		panic(err)
	}
	var X mat.Dense
	m.LatentTo(&X)
	fmt.Printf("X = %.2f\n", mat.Col(nil, 0, &X))
	pos, neg, zero := m.EigenvalueSigns(0)
	fmt.Printf("λ₁ = %.2f; %d positive, %d negative, %d zero\n", m.EigenvaluesTo(nil)[0], pos, neg, zero)
	fmt.Printf("negative mass %.2f\n", m.NegativeMass())
	// Output:
	// X = [1.50 0.50 -0.50 -1.50]
	// λ₁ = 5.00; 1 positive, 0 negative, 3 zero
	// negative mass 0.00
}

// ExampleProcrustes aligns a reflected, rotated, scaled and shifted copy of
// a triangle back onto the original.
func ExampleProcrustes() {
	Y := mat.NewDense(3, 2, []float64{0, 0, 2, 0, 0, 1})
	// X = 0.5 · Y · (a reflection) + (3, 4)
	X := mat.NewDense(3, 2, []float64{3, 4, 3, 5, 3.5, 4})
	res, err := dimred.Procrustes(X, Y, &dimred.ProcrustesOptions{Scale: true})
	if err != nil {
		panic(err)
	}
	fmt.Printf("scale %.2f, det R %.0f, exact fit %v\n", res.Scale, mat.Det(res.R), res.RMS < 1e-12)
	for i := 0; i < 3; i++ {
		fmt.Printf("(%.2f, %.2f)\n", math.Round(res.Aligned.At(i, 0)*100)/100+0, math.Round(res.Aligned.At(i, 1)*100)/100+0)
	}
	// Output:
	// scale 2.00, det R -1, exact fit true
	// (0.00, 0.00)
	// (2.00, 0.00)
	// (0.00, 1.00)
}

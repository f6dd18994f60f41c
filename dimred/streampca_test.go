package dimred

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// StreamingPCA over blocks of any size, and over accumulators merged from
// separate workers, gives PCA's eigenvalues and directions, also for data
// far from the origin (offset 1e6, where Σyyᵀ − nμμᵀ would lose about
// 12 of 16 digits).
func TestStreamingPCAMatchesPCA(t *testing.T) {
	rnd := rand.New(rand.NewPCG(51, 52))
	const n, p, q = 1000, 12, 3
	for _, offset := range []float64{0, 1e6} {
		Y := mat.NewDense(n, p, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				Y.Set(i, j, offset+rnd.NormFloat64()*float64(p-j))
			}
		}
		full := PCA{Q: q, Method: PCACovariance}
		if err := full.Fit(Y); err != nil {
			t.Fatal(err)
		}
		want := full.EigenvaluesTo(nil)
		var Uw mat.Dense
		full.LoadingsTo(&Uw)
		for _, blocks := range [][]int{{n}, {1, 999}, {137, 263, 300, 300}} {
			// Two workers: the first half of the blocks in a, the rest in b.
			var a, b StreamingPCA
			r0 := 0
			for k, sz := range blocks {
				acc := &a
				if k >= (len(blocks)+1)/2 {
					acc = &b
				}
				if err := acc.Add(Y.Slice(r0, r0+sz, 0, p)); err != nil {
					t.Fatal(err)
				}
				r0 += sz
			}
			if err := a.Merge(&b); err != nil {
				t.Fatal(err)
			}
			a.Q = q
			if err := a.Solve(); err != nil {
				t.Fatal(err)
			}
			if a.N() != n {
				t.Fatalf("N = %d, want %d", a.N(), n)
			}
			got := a.EigenvaluesTo(nil)
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-9*want[0] {
					t.Errorf("offset %g blocks %v: λ_%d = %.12g, PCA %.12g", offset, blocks, i+1, got[i], want[i])
				}
			}
			var U mat.Dense
			a.LoadingsTo(&U)
			if ang := linalg.SubspaceAngle(&U, &Uw); ang > 1e-8 {
				t.Errorf("offset %g blocks %v: directions differ by %g rad", offset, blocks, ang)
			}
			var X, Xw mat.Dense
			a.ProjectTo(&X, Y)
			full.LatentTo(&Xw)
			if !mat.EqualApprox(&X, &Xw, 1e-6*math.Sqrt(want[0])) {
				t.Errorf("offset %g blocks %v: scores differ from PCA's", offset, blocks)
			}
		}
	}
	var s StreamingPCA
	if err := s.Add(mat.NewDense(1, 3, []float64{1, math.NaN(), 2})); err == nil {
		t.Error("NaN block accepted")
	}
	s.Q = 1
	if err := s.Solve(); err == nil {
		t.Error("Solve with no rows did not fail")
	}
}

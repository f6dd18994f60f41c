package sdp

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// MVUDual's multipliers certify the optimum: Σ w d² equals the dual and
// primal objectives (strong duality), the weighted Laplacian L(w) has
// λ₁ = 0 and λ₂ ≥ 1 (dual feasibility, up to the tolerance), and the
// leading eigenvectors of K are eigenvectors of L(w) with eigenvalue one
// (complementary slackness) — MVU's embedding is the bottom of a learnt
// Laplacian. With inequalities the multipliers are nonnegative.
func TestMVUDualCertificate(t *testing.T) {
	y := noisySwissRoll(60, 10, 0.1, 3)
	pairs, sq := knn(y, 6)
	n := 60
	for _, ineq := range []bool{false, true} {
		var k *mat.SymDense
		var w []float64
		var r Result
		var err error
		if ineq {
			k, _, w, r, err = MVUDual(n, nil, nil, pairs, sq, nil)
		} else {
			k, w, _, r, err = MVUDual(n, pairs, sq, nil, nil, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(w) != len(pairs) {
			t.Fatalf("%d multipliers for %d pairs", len(w), len(pairs))
		}
		L := mat.NewSymDense(n, nil)
		var dual float64
		for t2, p := range pairs {
			i, j, v := p.I, p.J, w[t2]
			L.SetSym(i, i, L.At(i, i)+v)
			L.SetSym(j, j, L.At(j, j)+v)
			L.SetSym(i, j, L.At(i, j)-v)
			dual += v * sq[t2]
			if ineq && v < -1e-9 {
				t.Errorf("inequality multiplier %d = %g < 0", t2, v)
			}
		}
		tr := mat.Trace(k)
		if math.Abs(dual-r.DualObj) > 1e-9*tr || math.Abs(dual-tr) > 1e-6*tr {
			t.Errorf("ineq %v: Σ w d² = %.10g, dual objective %.10g, tr K %.10g", ineq, dual, r.DualObj, tr)
		}
		var es mat.EigenSym
		if !es.Factorize(L, false) {
			t.Fatal("eigen")
		}
		lv := es.Values(nil)
		if math.Abs(lv[0]) > 1e-8 || lv[1] < 1-1e-5 {
			t.Errorf("ineq %v: λ₁(L(w)) = %.3g, λ₂ = %.8f (want 0, ≥ 1)", ineq, lv[0], lv[1])
		}
		var ek mat.EigenSym
		if !ek.Factorize(k, true) {
			t.Fatal("eigen K")
		}
		kv := ek.Values(nil)
		var U mat.Dense
		ek.VectorsTo(&U)
		for c := n - 1; c >= 0 && kv[c] > 1e-3*kv[n-1]; c-- {
			u := U.ColView(c)
			var lu mat.VecDense
			lu.MulVec(L, u)
			lu.SubVec(&lu, u)
			if res := lu.Norm(2); res > 1e-3 {
				t.Errorf("ineq %v: eigenvector %d of K (λ = %.3g): ‖L(w)u − u‖ = %.3g", ineq, n-1-c, kv[c], res)
			}
		}
	}
}

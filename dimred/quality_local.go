package dimred

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// TrustworthinessPoints returns each point's share of the trustworthiness
// T(k) of the embedding X (n×q) of Y (n×p),
//
//	t_i = 1 − 2/(k (2n − 3k − 1)) Σ_{j∈U_k(i)} (r(i, j) − k),
//
// with U_k(i) and r as in Trustworthiness, so that T(k) is the mean of the
// t_i: a per-point measure of intrusions (points brought close that were
// far), for colouring a scatter by local distortion. t_i can be negative
// for a point all of whose embedding neighbours are far in Y. Panics and
// errors as Trustworthiness.
func TrustworthinessPoints(Y, X mat.Matrix, k int) ([]float64, error) {
	return preservationPoints(Y, X, k, "Y", "X")
}

// ContinuityPoints returns each point's share c_i of the continuity C(k)
// (Continuity is their mean): extrusions, points that were neighbours in Y
// and are not in X, by their rank in X.
func ContinuityPoints(Y, X mat.Matrix, k int) ([]float64, error) {
	return preservationPoints(X, Y, k, "X", "Y")
}

func preservationPoints(ref, emb mat.Matrix, k int, refName, embName string) ([]float64, error) {
	r, e, err := checkPreservation(ref, emb, k, refName, embName)
	if err != nil {
		return nil, err
	}
	n, _ := r.Dims()
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	s := penaltyRows(r, e, k, rows)
	nf, kf := float64(n), float64(k)
	c := 2 / (kf * (2*nf - 3*kf - 1))
	for i := range s {
		s[i] = 1 - c*s[i]
	}
	return s, nil
}

// SampledTrustworthiness estimates T(k) for data too large for the n² work
// of Trustworthiness — n = 50 000 and more — from m query points drawn
// without replacement from src (nil: a fixed seed): T̂ is the mean of their
// t_i (see TrustworthinessPoints), each computed exactly against all n
// points, in O(m·n·(p+q)) time and O(n) memory per worker. It returns T̂
// and its standard error sd(t_i)/√m·√(1 − m/n) (zero when m = n, where T̂
// is T(k) exactly). m ≥ n computes every point.
func SampledTrustworthiness(Y, X mat.Matrix, k, m int, src rand.Source) (t, stderr float64, err error) {
	r, e, err := checkPreservation(Y, X, k, "Y", "X")
	if err != nil {
		return 0, 0, err
	}
	n, _ := r.Dims()
	if m < 2 {
		panic(fmt.Sprintf("dimred: SampledTrustworthiness: m = %d, want ≥ 2", m))
	}
	m = min(m, n)
	if src == nil {
		src = rand.NewPCG(1, 2)
	}
	rows := rand.New(src).Perm(n)[:m]
	s := penaltyRows(r, e, k, rows)
	nf, kf := float64(n), float64(k)
	c := 2 / (kf * (2*nf - 3*kf - 1))
	var mean, m2 float64
	for i, v := range s {
		ti := 1 - c*v
		d := ti - mean
		mean += d / float64(i+1)
		m2 += d * (ti - mean)
	}
	sd := math.Sqrt(m2 / float64(m-1))
	return mean, sd / math.Sqrt(float64(m)) * math.Sqrt(1-float64(m)/nf), nil
}

// MRRE returns the mean relative rank errors of the embedding X (n×q) of
// Y (n×p) at neighbourhood size k (Lee & Verleysen 2009, "Quality
// assessment of dimensionality reduction: rank-based criteria", after Lee
// & Verleysen 2007, §6.2): with ρ_ij the rank of j among i's neighbours in
// Y and r_ij in X (1 = nearest, ties by lower index),
//
//	intrusions  W_n(k) = (1/H_k) Σ_i Σ_{j ∈ n_i^k} |ρ_ij − r_ij| / ρ_ij,
//	extrusions  W_ν(k) = (1/H_k) Σ_i Σ_{j ∈ ν_i^k} |ρ_ij − r_ij| / r_ij,
//
// n_i^k being i's k nearest neighbours in X, ν_i^k in Y, and
// H_k = n Σ_{l=1}^{k} |n − 2l| / l the largest value the sums can take. Both
// are 0 for a perfect embedding; lower is better (ZADU and pyDRMetrics
// report 1 − W). Panics and errors as Trustworthiness.
func MRRE(Y, X mat.Matrix, k int) (intrusions, extrusions float64, err error) {
	r, e, err := checkPreservation(Y, X, k, "Y", "X")
	if err != nil {
		return 0, 0, err
	}
	n, _ := r.Dims()
	const block = 64
	nb := (n + block - 1) / block
	wn := make([]float64, nb)
	wv := make([]float64, nb)
	parallel.For(nb, 1, func(lo, hi int) {
		dr := make([]float64, n)
		de := make([]float64, n)
		nearR := make([]nbItem, 0, k)
		nearE := make([]nbItem, 0, k)
		for b := lo; b < hi; b++ {
			var sn, sv float64
			for i := b * block; i < min(n, (b+1)*block); i++ {
				rowDistances(dr, r, i)
				rowDistances(de, e, i)
				nearR = kSmallest(nearR[:0], dr, i, k)
				nearE = kSmallest(nearE[:0], de, i, k)
				for m, c := range nearE { // j ∈ n_i^k: r_ij = m+1
					rho := rankOf(dr, i, c.j)
					sn += math.Abs(float64(rho-(m+1))) / float64(rho)
				}
				for m, c := range nearR { // j ∈ ν_i^k: ρ_ij = m+1
					rk := rankOf(de, i, c.j)
					sv += math.Abs(float64(m+1-rk)) / float64(rk)
				}
			}
			wn[b], wv[b] = sn, sv
		}
	})
	var H float64
	for l := 1; l <= k; l++ {
		H += math.Abs(float64(n-2*l)) / float64(l)
	}
	H *= float64(n)
	for b := range wn {
		intrusions += wn[b]
		extrusions += wv[b]
	}
	return intrusions / H, extrusions / H, nil
}

// rankOf returns j's rank among i's neighbours in the distance row d:
// 1 + #{l ≠ i : (d_l, l) < (d_j, j)}.
func rankOf(d []float64, i, j int) int {
	dj, rank := d[j], 1
	for l, dl := range d {
		if l != i && (dl < dj || dl == dj && l < j) {
			rank++
		}
	}
	return rank
}

// checkPreservation is the common validation of the rank-based measures.
func checkPreservation(ref, emb mat.Matrix, k int, refName, embName string) (*mat.Dense, *mat.Dense, error) {
	n, _ := ref.Dims()
	ne, _ := emb.Dims()
	if n != ne {
		panic(mat.ErrShape)
	}
	if k < 1 || 2*k >= n {
		panic(fmt.Sprintf("dimred: neighbourhood size k = %d outside [1, n/2) for n = %d", k, n))
	}
	if err := errs.CheckFinite(ref, refName); err != nil {
		return nil, nil, err
	}
	if err := errs.CheckFinite(emb, embName); err != nil {
		return nil, nil, err
	}
	return rankScaled(ref), rankScaled(emb), nil
}

// penaltyRows returns, for each row i in rows, Σ_{j∈U_k(i)} (r(i, j) − k)
// with neighbourhoods in emb and ranks in ref (see Trustworthiness), in
// parallel over blocks of rows; distances as blockSquaredDistances does
// (summed directly for up to 16 columns, by one matrix product above).
func penaltyRows(r, e *mat.Dense, k int, rows []int) []float64 {
	n, p := r.Dims()
	_, q := e.Dims()
	out := make([]float64, len(rows))
	const block = 64
	nb := (len(rows) + block - 1) / block
	parallel.ForWork(nb, len(rows)*n*(p+q), func(lo, hi int) {
		dr := make([]float64, block*n)
		de := make([]float64, block*n)
		sub := mat.NewDense(block, p, nil)
		embNear := make([]nbItem, 0, k)
		refNear := make([]nbItem, 0, k)
		for b := lo; b < hi; b++ {
			t0, t1 := b*block, min(len(rows), (b+1)*block)
			if p > 16 {
				for t := t0; t < t1; t++ {
					sub.SetRow(t-t0, r.RawRowView(rows[t]))
				}
				D := mat.NewDense(t1-t0, n, dr[:(t1-t0)*n])
				linalg.SquaredDistances(D, sub.Slice(0, t1-t0, 0, p), r)
			}
			for t := t0; t < t1; t++ {
				i := rows[t]
				rowR := dr[(t-t0)*n : (t-t0+1)*n]
				rowE := de[:n]
				if p <= 16 {
					rowDistances(rowR, r, i)
				}
				rowDistances(rowE, e, i)
				embNear = kSmallest(embNear[:0], rowE, i, k)
				refNear = kSmallest(refNear[:0], rowR, i, k)
				kth := refNear[k-1]
				s := 0.0
				for _, c := range embNear {
					if !kth.less(nbItem{rowR[c.j], c.j}) {
						continue
					}
					s += float64(rankOf(rowR, i, c.j) - k)
				}
				out[t] = s
			}
		}
	})
	return out
}

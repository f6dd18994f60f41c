package dimred

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// sparseAffinity is a symmetric n×n matrix of neighbour affinities in
// compressed rows: row i's neighbours are Index[Ptr[i]:Ptr[i+1]] in
// increasing order, with values Val.
type sparseAffinity struct {
	n        int
	ptr, idx []int
	val      []float64
}

// exactNeighbours returns each row's k nearest other rows of y and their
// squared distances, nearest first, ties by lower index. The candidates come
// from the library's fast search (kd-tree or blocked products), k+extra of
// them; their distances are then recomputed by the textbook sum in column
// order and re-ranked, so the result does not depend on the processor's
// vector instructions or the number of threads: a neighbour set differs only
// where the fast search misorders two points whose distances agree to its
// rounding over a margin of extra places, which does not happen for data of
// ordinary scale.
func exactNeighbours(y *mat.Dense, k int) (idx []int, d2 []float64, err error) {
	return exactNeighboursContext(context.Background(), y, k)
}

// exactNeighboursContext is exactNeighbours under ctx.
func exactNeighboursContext(ctx context.Context, y *mat.Dense, k int) (idx []int, d2 []float64, err error) {
	n, p := y.Dims()
	extra := min(n-1-k, max(5, k/4))
	nb, err := neighbours.Search{}.KNearestContext(ctx, y, k+extra)
	if err != nil {
		return nil, nil, err
	}
	kk := k + extra
	idx = make([]int, n*k)
	d2 = make([]float64, n*k)
	parallel.ForWork(n, n*kk*p, func(lo, hi int) {
		c := make([]cand, kk)
		for i := lo; i < hi; i++ {
			yi := y.RawRowView(i)
			js, _ := nb.Of(i)
			for m, j := range js {
				yj := y.RawRowView(j)
				s := 0.0
				for a := 0; a < p; a++ {
					t := yi[a] - yj[a]
					s += t * t
				}
				c[m] = cand{s, j}
			}
			sort.Slice(c, func(a, b int) bool { return c[a].less(c[b]) })
			for m := 0; m < k; m++ {
				idx[i*k+m], d2[i*k+m] = c[m].j, c[m].d
			}
		}
	})
	for _, v := range d2 {
		if math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("%w: squared distances between neighbours exceed the float64 range (rescale the data)", ErrOverflow)
		}
	}
	return idx, d2, nil
}

// neighboursAmong returns, for each row of yn (m×p), its k nearest rows of
// y (n×p, k ≤ n) and their squared distances, m·k row-major, nearest first
// with ties to the lower index — the out-of-sample search of TSNE's and
// UMAP's ProjectTo. Candidates come from blocked products
// (linalg.SquaredDistances, 256 rows at a time), k plus a margin of them
// by partial selection, and are re-ranked by their textbook distances, as
// in exactNeighbours.
func neighboursAmong(yn, y *mat.Dense, k int) (idx []int, d2 []float64) {
	mm, p := yn.Dims()
	n, _ := y.Dims()
	kk := min(n, k+max(5, k/4))
	idx = make([]int, mm*k)
	d2 = make([]float64, mm*k)
	const block = 256
	for r0 := 0; r0 < mm; r0 += block {
		r1 := min(mm, r0+block)
		var D mat.Dense
		linalg.SquaredDistances(&D, yn.Slice(r0, r1, 0, p), y)
		parallel.ForWork(r1-r0, (r1-r0)*n*4, func(lo, hi int) {
			c := make([]cand, n)
			for r := lo; r < hi; r++ {
				row := D.RawRowView(r)
				for j := range c {
					c[j] = cand{row[j], j}
				}
				selectCands(c, kk)
				yi := yn.RawRowView(r0 + r)
				for t := 0; t < kk; t++ {
					yj := y.RawRowView(c[t].j)
					s := 0.0
					for a := range yi {
						u := yi[a] - yj[a]
						s += u * u
					}
					c[t].d = s
				}
				cs := c[:kk]
				sort.Slice(cs, func(a, b int) bool { return cs[a].less(cs[b]) })
				for t := 0; t < k; t++ {
					idx[(r0+r)*k+t], d2[(r0+r)*k+t] = cs[t].j, cs[t].d
				}
			}
		})
	}
	return idx, d2
}

// perplexityRows returns, for each row i, the conditional probabilities
//
//	p_{j|i} = exp(−β_i d²_ij) / Σ_{l∈N(i)} exp(−β_i d²_il),   j ∈ N(i),
//
// over its k neighbours N(i), with the precision β_i found by bisection so
// that the perplexity 2^{H(P_i)} equals perp (van der Maaten & Hinton 2008,
// §2): H(P_i) = log Σ exp(−β d²) + β Σ p d² in nats, matched to log(perp)
// to 1e-5 nats in at most 200 halvings. d2 is n·k, row-major.
func perplexityRows(d2 []float64, n, k int, perp float64) []float64 {
	P := make([]float64, n*k)
	target := math.Log(perp)
	parallel.ForWork(n, n*k*50, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := d2[i*k : (i+1)*k]
			p := P[i*k : (i+1)*k]
			dmin := d[0]
			for _, v := range d {
				dmin = math.Min(dmin, v)
			}
			if math.IsInf(dmin, 1) {
				// Every neighbour infinitely far (a new point beyond the
				// float64 range of the training data): all equally likely.
				for m := range p {
					p[m] = 1 / float64(k)
				}
				continue
			}
			beta, blo, bhi := 1.0, 0.0, math.Inf(1)
			// Scale the first guess to the data: β·(mean d² − min d²) ≈ 1.
			mean := 0.0
			for _, v := range d {
				mean += v - dmin
			}
			if mean > 0 {
				beta = float64(k) / mean
			}
			for it := 0; it < 200; it++ {
				sum, sd := 0.0, 0.0
				for m, v := range d {
					e := detExp(-beta * (v - dmin))
					p[m] = e
					sum += e
					sd += e * (v - dmin)
				}
				h := math.Log(sum) + beta*sd/sum
				for m := range p {
					p[m] /= sum
				}
				diff := h - target
				if math.Abs(diff) < 1e-5 {
					break
				}
				if diff > 0 { // too flat: sharpen
					blo = beta
					if math.IsInf(bhi, 1) {
						beta *= 2
					} else {
						beta = (beta + bhi) / 2
					}
				} else {
					bhi = beta
					beta = (beta + blo) / 2
				}
			}
		}
	})
	return P
}

// symmetrise returns P = (P_c + P_cᵀ)/(2n), the joint affinities of
// symmetric SNE (van der Maaten & Hinton 2008, eq. 4 and §3.1), from the
// conditional rows of perplexityRows; Σ_ij p_ij = 1.
func symmetrise(idx []int, pc []float64, n, k int) *sparseAffinity {
	type entry struct {
		i, j int
		v    float64
	}
	es := make([]entry, 0, 2*n*k)
	for i := 0; i < n; i++ {
		for m := 0; m < k; m++ {
			j, v := idx[i*k+m], pc[i*k+m]
			es = append(es, entry{i, j, v}, entry{j, i, v})
		}
	}
	sort.Slice(es, func(a, b int) bool {
		return es[a].i < es[b].i || es[a].i == es[b].i && es[a].j < es[b].j
	})
	A := &sparseAffinity{n: n, ptr: make([]int, n+1)}
	scale := 1 / (2 * float64(n))
	for t := 0; t < len(es); {
		u := t
		v := 0.0
		for u < len(es) && es[u].i == es[t].i && es[u].j == es[t].j {
			v += es[u].v // at most two terms: exact and order-free
			u++
		}
		A.idx = append(A.idx, es[t].j)
		A.val = append(A.val, v*scale)
		A.ptr[es[t].i+1]++
		t = u
	}
	for i := 0; i < n; i++ {
		A.ptr[i+1] += A.ptr[i]
	}
	return A
}

// detExp is exp(x) computed in the same operations on every amd64
// processor (math.Exp switches to fused multiply–adds where the processor
// has them, which changes the last bit): Cody–Waite reduction x = k·ln2 + r
// and the rational approximation of exp(r) of FreeBSD's e_exp.c, as in Go's
// math package's portable code: within 1 ulp of exp(x), so within 2 ulp of
// math.Exp (tested).
func detExp(x float64) float64 {
	const (
		ln2Hi  = 6.93147180369123816490e-01
		ln2Lo  = 1.90821492927058770002e-10
		log2e  = 1.44269504088896338700e+00
		p1     = 1.66666666666666657415e-01
		p2     = -2.77777777770155933842e-03
		p3     = 6.61375632143793436117e-05
		p4     = -1.65339022054652515390e-06
		p5     = 4.13813679705723846039e-08
		over   = 7.09782712893383973096e+02
		under  = -7.45133219101941108420e+02
		nearly = 1.0 / (1 << 28)
	)
	// One range test sends NaN, ±Inf, the overflow and underflow ranges
	// and the tiny arguments to the special cases.
	if !(x >= under && x <= over) || (-nearly < x && x < nearly) {
		switch {
		case math.IsNaN(x) || math.IsInf(x, 1):
			return x
		case math.IsInf(x, -1):
			return 0
		case x > over:
			return math.Inf(1)
		case x < under:
			return 0
		}
		return 1 + x
	}
	// Every product is converted explicitly, which forbids the compiler to
	// fuse it with the following addition (Go spec, "Floating-point
	// operators"), so the result is the same with any GOAMD64 level.
	kx := float64(log2e * x)
	var k int
	if x < 0 {
		k = int(kx - 0.5)
	} else {
		k = int(kx + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	poly := p4 + float64(t*p5)
	poly = p3 + float64(t*poly)
	poly = p2 + float64(t*poly)
	poly = p1 + float64(t*poly)
	c := r - float64(t*poly)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	// y ∈ [0.70, 1.42], so for −1021 ≤ k ≤ 1022 the product y·2^k is a
	// normal number and exact: it is math.Ldexp(y, k), without Ldexp's
	// handling of subnormal and overflowing results.
	if k >= -1021 && k <= 1022 {
		return y * math.Float64frombits(uint64(k+1023)<<52)
	}
	return math.Ldexp(y, k)
}

// checkEmbedData is the common start of the neighbour-embedding fits: Y
// finite, at least minN rows, and a dense copy.
func checkEmbedData(method string, Y mat.Matrix, minN int) (*mat.Dense, error) {
	n, p := Y.Dims()
	if p == 0 {
		panic(fmt.Sprintf("dimred: %s: Y has no columns", method))
	}
	if n < minN {
		return nil, fmt.Errorf("%w: %s needs at least %d points, got %d", ErrTooFewPoints, method, minN, n)
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return nil, errs.Wrap(err, method)
	}
	return mat.DenseCopyOf(Y), nil
}

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/progress"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// NotConvergedError reports an iterative eigensolver that reached its
// iteration limit before every wanted eigenpair met the tolerance. It wraps
// ErrNotConverged; test with errors.Is(err, ErrNotConverged) and recover the
// details with errors.As.
type NotConvergedError struct {
	// Products is the number of operator applications (matrix–vector
	// products) made.
	Products int
	// Bound is the residual bound that was sought, Tol·‖A‖ with ‖A‖
	// estimated by the largest Ritz value in magnitude.
	Bound float64
	// Residuals holds ‖A v_i − λ_i v_i‖ reached for each returned pair, in
	// the order of the returned eigenvalues.
	Residuals []float64
}

func (e *NotConvergedError) Error() string {
	worst := 0.0
	for _, r := range e.Residuals {
		worst = math.Max(worst, r)
	}
	return fmt.Sprintf("%v: eigensolver stopped after %d products with largest residual %.3g > bound %.3g (residuals %.3g)",
		ErrNotConverged, e.Products, worst, e.Bound, e.Residuals)
}

// Unwrap returns ErrNotConverged.
func (e *NotConvergedError) Unwrap() error { return ErrNotConverged }

// productError reports a non-finite entry of the operator product w (the
// product numbered by count) as ErrNaN: the operator, not the iteration,
// produced it.
func productError(w []float64, count int) error {
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: operator product %d has entry %d = %v", ErrNaN, count, i, v)
		}
	}
	return fmt.Errorf("%w: operator product %d has infinite norm", ErrNaN, count)
}

// lanczosParams are the resolved settings of blockLanczos.
type lanczosParams struct {
	tol         float64 // relative residual tolerance
	maxProducts int     // limit on operator applications
	block       int     // block size b
	ncv         int     // maximum basis size
	rnd         *rand.Rand
	products    *int // if not nil, receives the number of products made
	// ph, if not nil, is the caller's progress phase: checked for
	// cancellation before every block product and told the products
	// made (an abandoned run returns no pairs; the caller reports
	// ph.Err()).
	ph     *progress.Phase
	phBase int // products made before this run, for ph (a sequence of runs)
}

// blockLanczos computes k eigenpairs at one end of the spectrum of the
// symmetric operator op by thick-restart block Lanczos with full
// reorthogonalisation (a symmetric block Krylov–Schur method).
//
// The basis V (rows are orthonormal n-vectors) grows a block of b vectors at
// a time. For each new block P the product W = A P is orthogonalised twice
// against the whole basis (classical Gram–Schmidt, BLAS-3); the
// coefficients are the entries Vᵀ A P of the projected matrix T = Vᵀ A V,
// which is thus formed explicitly rather than assumed block tridiagonal (the
// second pass is skipped when the first removed little, by the
// Daniel–Gragg–Kaufman–Stewart criterion). The
// remainder R = W − V Vᵀ W is factorised R = L Q (Q orthonormal rows) and Q
// is the next block, so A V = V T + Rᵀ E_P and the residual of a Ritz pair
// (θ, V y) is exactly ‖Lᵀ y_P‖. When the basis is full it is compressed to
// the l Ritz vectors nearest the wanted end (T becomes diag(θ)), Q is
// appended and the iteration continues (Wu & Simon's thick restart; Stewart's
// Krylov–Schur). Directions that vanish in R (an invariant subspace) are
// replaced by random vectors, so eigenvalues of multiplicity up to b are
// found and a start block deficient in an eigenvector cannot stall the
// search.
func blockLanczos(op SymOperator, k int, end EigenEnd, p lanczosParams) ([]float64, *mat.Dense, error) {
	n := op.Size()
	b := max(1, min(p.block, n))
	ncv := min(n, max(p.ncv, k+2*b))
	if ncv < n && ncv-b < k {
		ncv = min(n, k+b)
	}
	keep := k + (ncv-k)/2
	keep = max(k, min(keep, ncv-b))

	V := make([]float64, ncv*n)  // basis rows
	V2 := make([]float64, ncv*n) // restart buffer
	W := make([]float64, b*n)    // products and residual block
	Q := make([]float64, b*n)    // next block
	L := make([]float64, b*b)    // R = L Q, row-major bp×bq
	T := make([]float64, ncv*ncv)
	coef := make([]float64, ncv*b)

	// Start block: Gaussian rows, orthonormalised.
	for i := range W {
		W[i] = p.rnd.NormFloat64()
	}
	wnorm := make([]float64, b)
	for i := range wnorm {
		wnorm[i] = floats.Norm(W[i*n:(i+1)*n], 2)
	}
	bq := qrRows(W, b, wnorm, nil, 0, Q, L, b, n, n, p.rnd)
	copy(V, Q[:bq*n])
	nb, known := bq, 0
	products := 0
	anorm := 0.0
	pcost := productNanos(op)
	work := 0.0

	var es mat.EigenSym
	var theta []float64
	var Y mat.Dense
	var res []float64
	for {
		// Multiply the pending block.
		bp := nb - known
		if p.ph.Set(p.phBase+products) != nil {
			return nil, nil, p.ph.Err()
		}
		P := V[known*n : nb*n]
		mulBlock(op, W[:bp*n], P, bp)
		products += bp
		for i := 0; i < bp; i++ {
			wnorm[i] = floats.Norm(W[i*n:(i+1)*n], 2)
			if math.IsNaN(wnorm[i]) || math.IsInf(wnorm[i], 0) {
				return nil, nil, productError(W[i*n:(i+1)*n], products-bp+i+1)
			}
		}
		for i := range coef[:nb*bp] {
			coef[i] = 0
		}
		orthoAgainst(V, nb, W, bp, n, coef)
		// Second pass unless every row kept ≥ 1/√2 of its norm (the DGKS
		// criterion: then one pass is orthogonal to working precision).
		for i := 0; i < bp; i++ {
			if floats.Norm(W[i*n:(i+1)*n], 2) < math.Sqrt2/2*wnorm[i] {
				orthoAgainst(V, nb, W, bp, n, coef)
				break
			}
		}
		// coef is nb×bp: coef[j*bp+c] = v_jᵀ A p_c.
		for j := 0; j < nb; j++ {
			for c := 0; c < bp; c++ {
				t := coef[j*bp+c]
				T[j*ncv+known+c] = t
				T[(known+c)*ncv+j] = t
			}
		}
		// Symmetrise the new diagonal block exactly.
		for c := 0; c < bp; c++ {
			for d := c + 1; d < bp; d++ {
				m := 0.5 * (T[(known+c)*ncv+known+d] + T[(known+d)*ncv+known+c])
				T[(known+c)*ncv+known+d] = m
				T[(known+d)*ncv+known+c] = m
			}
		}
		known = nb

		// Next block (needed whether or not the Ritz pairs are examined).
		room := n - nb
		bq = qrRows(W, bp, wnorm, V, nb, Q, L, b, n, room, p.rnd)

		// Solving the projected problem costs O(nb³); on a cheap operator
		// (a sparse Laplacian) doing it after every block would cost more
		// than the products. So the Ritz pairs are examined only once the
		// work since the last look (products and orthogonalisation, by the
		// operator's cost model) has reached the cost of a look, or when
		// they are needed anyway: a restart, an exhausted space or budget.
		// The extra basis growth this can cost is at most one look's worth
		// of work. Operators without a cost model are examined every block.
		work += float64(bp)*pcost + lanczosOrthoNanos*float64(nb*n*bp)
		if pcost > 0 && work < lanczosFactorNanos*math.Pow(float64(nb), 3) &&
			nb+bq <= ncv && bq > 0 && products < p.maxProducts && nb >= k {
			copy(V[nb*n:], Q[:bq*n])
			nb += bq
			continue
		}
		work = 0

		// Ritz pairs of T.
		ts := mat.NewSymDense(nb, nil)
		for i := 0; i < nb; i++ {
			for j := i; j < nb; j++ {
				ts.SetSym(i, j, T[i*ncv+j])
			}
		}
		if !es.Factorize(ts, true) {
			return nil, nil, fmt.Errorf("%w: projected eigenproblem of size %d failed", ErrNotConverged, nb)
		}
		theta = es.Values(nil)
		Y.Reset()
		es.VectorsTo(&Y)
		for _, t := range theta {
			anorm = math.Max(anorm, math.Abs(t))
		}
		wanted := ritzOrder(theta, end)
		res = res[:0]
		converged := true
		bound := p.tol * anorm
		for _, j := range wanted[:min(k, nb)] {
			r := 0.0
			for c := 0; c < bq; c++ {
				s := 0.0
				for i := 0; i < bp; i++ {
					s += Y.At(nb-bp+i, j) * L[i*b+c]
				}
				r += s * s
			}
			r = math.Sqrt(r)
			res = append(res, r)
			if !(r <= bound) {
				converged = false
			}
		}
		if nb < k {
			converged = false
		}
		if converged || bq == 0 || products >= p.maxProducts {
			if p.products != nil {
				*p.products = products
			}
			if nb < k {
				return nil, nil, &NotConvergedError{Products: products, Bound: bound, Residuals: res}
			}
			vals, vecs := ritzVectors(V, nb, n, theta, &Y, wanted[:k])
			FixSigns(vecs)
			if converged || bq == 0 && nb == n {
				return vals, vecs, nil
			}
			return vals, vecs, &NotConvergedError{Products: products, Bound: bound, Residuals: append([]float64(nil), res...)}
		}
		if nb+bq > ncv {
			// Thick restart: compress to the keep Ritz vectors nearest the
			// wanted end.
			l := keep
			Yl := mat.NewDense(nb, l, nil)
			for c, j := range wanted[:l] {
				for i := 0; i < nb; i++ {
					Yl.Set(i, c, Y.At(i, j))
				}
			}
			combineRows(V2, Yl.RawMatrix(), V, nb, l, n)
			V, V2 = V2, V
			for i := range T {
				T[i] = 0
			}
			for c, j := range wanted[:l] {
				T[c*ncv+c] = theta[j]
			}
			nb, known = l, l
		}
		copy(V[nb*n:], Q[:bq*n])
		nb += bq
	}
}

// The cost model that decides how often blockLanczos solves its projected
// eigenproblem, in rough nanoseconds on one current x86 core; it changes how
// often convergence is tested, never what converged means. Measured on the
// development machine: mat.EigenSym with vectors 0.26 ms at nb = 50
// (≈ 2 ns·nb³); the orthogonalisation's products at about 10 GFlop/s
// (4 flops per basis entry and vector), a conservative rate for them.
const (
	lanczosFactorNanos = 2.0
	lanczosOrthoNanos  = 0.4
)

// costedOperator is implemented by operators that know their cost per
// product of one vector, in the units of lanczosFactorNanos.
type costedOperator interface {
	productNanos() float64
}

// productNanos returns op's cost per vector product, or 0 if unknown.
func productNanos(op SymOperator) float64 {
	if c, ok := op.(costedOperator); ok {
		return c.productNanos()
	}
	return 0
}

// ritzOrder returns the indices of theta (ascending) ordered from the wanted
// end inwards (also used by eigenDense for mat.EigenSym's ascending values).
func ritzOrder(theta []float64, end EigenEnd) []int {
	m := len(theta)
	idx := make([]int, m)
	for i := range idx {
		if end == Largest {
			idx[i] = m - 1 - i
		} else {
			idx[i] = i
		}
	}
	return idx
}

// ritzVectors forms the n×len(cols) matrix of Ritz vectors V ᵀY[:, cols] and
// their values.
func ritzVectors(V []float64, nb, n int, theta []float64, Y *mat.Dense, cols []int) ([]float64, *mat.Dense) {
	k := len(cols)
	Yk := mat.NewDense(nb, k, nil)
	vals := make([]float64, k)
	for c, j := range cols {
		vals[c] = theta[j]
		for i := 0; i < nb; i++ {
			Yk.Set(i, c, Y.At(i, j))
		}
	}
	rows := make([]float64, k*n)
	combineRows(rows, Yk.RawMatrix(), V, nb, k, n)
	vecs := mat.NewDense(n, k, nil)
	for c := 0; c < k; c++ {
		for i := 0; i < n; i++ {
			vecs.Set(i, c, rows[c*n+i])
		}
	}
	return vals, vecs
}

// basisChunks splits the n columns of the Lanczos basis into slabs of
// about width columns (one if n < 2·width) for the basis products. The
// slabs depend on n alone, not on the number of cores, and each product
// chooses its kernel from its whole size (gemmBlock), so the partial sums
// of orthoAgainst and every entry of the products — and with them the
// eigenvectors — are the same bits on any number of threads (they had
// followed GOMAXPROCS from n = 4096 on, and UMAP's spectral start with
// them).
func basisChunks(n, width int) []int {
	s := max(1, n/width)
	b := make([]int, s+1)
	for t := range b {
		b[t] = t * n / s
	}
	return b
}

// forSlabs runs f on every slab of bounds, the slabs dealt out in
// contiguous runs to at most GOMAXPROCS goroutines.
func forSlabs(bounds []int, f func(t, lo, hi int)) {
	s := len(bounds) - 1
	parallel.For(s, 1, func(t0, t1 int) {
		for t := t0; t < t1; t++ {
			f(t, bounds[t], bounds[t+1])
		}
	})
}

// combineRows sets dst (l×n rows) = Yᵀ V[0:nb] with Y nb×l, in parallel over
// column slabs of V.
func combineRows(dst []float64, Y blas64.General, V []float64, nb, l, n int) {
	flops := 2 * float64(l) * float64(nb) * float64(n)
	forSlabs(basisChunks(n, 1024), func(_, lo, hi int) {
		w := hi - lo
		Vc := blas64.General{Rows: nb, Cols: w, Stride: n, Data: V[lo:]}
		D := blas64.General{Rows: l, Cols: w, Stride: n, Data: dst[lo:]}
		gemmBlock(flops, blas.Trans, blas.NoTrans, 1, Y, Vc, 0, D)
	})
}

// orthoAgainst removes from the bp rows of W their components along the nb
// orthonormal rows of V (one classical Gram–Schmidt pass, BLAS-3) and adds
// the coefficients C = V Wᵀ (nb×bp, row-major) to coef. Work is split over
// column slabs (basisChunks) on all cores; the slabs' partial sums of C are
// added in slab order.
func orthoAgainst(V []float64, nb int, W []float64, bp, n int, coef []float64) {
	if nb == 0 || bp == 0 {
		return
	}
	chunks := basisChunks(n, 2048)
	nch := len(chunks) - 1
	part := make([]float64, nch*nb*bp)
	forSlabs(chunks, func(t, lo, hi int) {
		w := hi - lo
		Vc := blas64.General{Rows: nb, Cols: w, Stride: n, Data: V[lo:]}
		Wc := blas64.General{Rows: bp, Cols: w, Stride: n, Data: W[lo:]}
		C := blas64.General{Rows: nb, Cols: bp, Stride: bp, Data: part[t*nb*bp:]}
		gemmNTSerial(1, Vc, Wc, 0, C)
	})
	C := make([]float64, nb*bp)
	for t := 0; t < nch; t++ {
		floats.Add(C, part[t*nb*bp:(t+1)*nb*bp])
	}
	floats.Add(coef[:nb*bp], C)
	Cg := blas64.General{Rows: nb, Cols: bp, Stride: bp, Data: C}
	flops := 2 * float64(nb) * float64(bp) * float64(n)
	forSlabs(chunks, func(t, lo, hi int) {
		w := hi - lo
		Vc := blas64.General{Rows: nb, Cols: w, Stride: n, Data: V[lo:]}
		Wc := blas64.General{Rows: bp, Cols: w, Stride: n, Data: W[lo:]}
		gemmBlock(flops, blas.Trans, blas.NoTrans, -1, Cg, Vc, 1, Wc)
	})
}

// qrRows orthonormalises the bp rows of R, which are already orthogonal to
// the nb rows of V up to rounding, against each other (Gram–Schmidt applied
// twice), writing the orthonormal rows to Q and the coefficients to L
// (row-major with leading dimension ldl): R_i = Σ_j L[i][j] Q_j. wnorm[i] is
// the norm of row i before it was projected off V. A row that shrank below
// 1e-8·wnorm[i] is projected off V once more, since rounding in the earlier
// passes is then no longer negligible; a row below 1e-14·wnorm[i] has
// vanished (an invariant subspace) and is replaced by a random vector
// orthogonal to V and Q with zero coefficient, while room (n − nb) allows.
// It returns the number of rows written to Q.
func qrRows(R []float64, bp int, wnorm []float64, V []float64, nb int, Q, L []float64, ldl, n, room int, rnd *rand.Rand) int {
	for i := range L {
		L[i] = 0
	}
	bq := 0
	tmp := make([]float64, n)
	scratch := make([]float64, max(1, nb))
	within := func(li []float64) {
		for pass := 0; pass < 2; pass++ {
			for j := 0; j < bq; j++ {
				qj := Q[j*n : (j+1)*n]
				d := floats.Dot(qj, tmp)
				if li != nil {
					li[j] += d
				}
				floats.AddScaled(tmp, -d, qj)
			}
		}
	}
	offV := func() {
		if nb > 0 {
			orthoAgainst(V, nb, tmp, 1, n, scratch)
		}
	}
	for i := 0; i < bp && bq < room; i++ {
		li := L[i*ldl : i*ldl+ldl]
		copy(tmp, R[i*n:(i+1)*n])
		within(li)
		nrm := floats.Norm(tmp, 2)
		if nrm < 1e-8*wnorm[i] {
			offV()
			within(li)
			nrm = floats.Norm(tmp, 2)
		}
		if nrm > 1e-14*wnorm[i] && nrm > 0 {
			li[bq] = nrm
			floats.Scale(1/nrm, tmp)
			copy(Q[bq*n:(bq+1)*n], tmp)
			bq++
			continue
		}
		for attempt := 0; attempt < 3; attempt++ {
			for t := range tmp {
				tmp[t] = rnd.NormFloat64()
			}
			orig := floats.Norm(tmp, 2)
			offV()
			within(nil)
			offV()
			within(nil)
			if nrm := floats.Norm(tmp, 2); nrm > 1e-6*orig {
				floats.Scale(1/nrm, tmp)
				copy(Q[bq*n:(bq+1)*n], tmp)
				bq++
				break
			}
		}
	}
	return bq
}

// Cost models (costedOperator), from single-vector products timed on the
// development machine; see lanczosFactorNanos.

// productNanos: the fused triangle pass reads n²/2 entries, ≈ 0.065 n² ns
// (65 µs at n = 1000 on two cores).
func (o *upperSymOp) productNanos() float64 { return 0.065 * float64(o.n) * float64(o.n) }

// productNanos: a gather per stored entry, ≈ 1 ns each, plus the rows.
func (c *CSR) productNanos() float64 { return float64(c.NNZ()) + float64(c.N) }

// productNanos: the inner product and two centrings.
func (d DoubleCentred) productNanos() float64 {
	if c := productNanos(d.A); c > 0 {
		return c + 4*float64(d.A.Size())
	}
	return 0
}

// productNanos: d products with A and their recurrences.
func (o chebOp) productNanos() float64 {
	if c := productNanos(o.a); c > 0 {
		return float64(o.d) * (c + 4*float64(o.a.Size()))
	}
	return 0
}

// productNanos: one product with A and a scaling.
func (o negOp) productNanos() float64 {
	if c := productNanos(o.a); c > 0 {
		return c + float64(o.a.Size())
	}
	return 0
}

// productNanos: one fused pass over the m×n matrix, ≈ 0.5 ns per entry.
func (g gramOp) productNanos() float64 { return 0.5 * float64(g.a.Rows) * float64(g.a.Cols) }

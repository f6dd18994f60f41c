package linalg

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Chebyshev-filtered Lanczos for the ends of the spectrum of a sparse
// matrix.
//
// For a sparse Laplacian the wanted smallest eigenvalues are tiny and
// clustered relative to λ_max (k = 10 kNN graph of a swiss roll, n = 16000:
// λ₂ = 6.8e-4, λ₃ = 2.8e-3, λ_max ≈ 30), so plain Lanczos needs hundreds of
// basis vectors, and its full reorthogonalisation (O(n·m) per vector), not
// the sparse products (O(nnz)), dominates the cost. Lanczos is therefore run
// on the polynomial filter
//
//	P = T_d(σ(A)),  σ(λ) = ((h + a) − 2λ) / (h − a),
//
// where T_d is the Chebyshev polynomial of degree d, h ≥ λ_max is the
// Gershgorin bound and a is a cut-off above the wanted eigenvalues: P maps
// [a, h] into [−1, 1] and grows fastest possible (among degree-d
// polynomials) below a, so the wanted eigenvalues become the largest of P
// and are well separated. Each product with P costs d sparse products, but
// the basis needed shrinks by about d, and with it the reorthogonalisation.
// a is the (k+q)-th smallest Ritz value of a short Lanczos run, which by
// Cauchy interlacing is ≥ λ_{k+q} ≥ λ_k, so the wanted eigenvalues always
// lie below the cut-off. The eigenpairs are finally refined and checked by
// Rayleigh–Ritz with A itself, so the tolerance applies to ‖A v − λ v‖.
// Eigenvectors are those of A; the ordering is preserved because T_d(σ(λ))
// is decreasing in λ below a.

// chebDeg is the filter degree d.
const chebDeg = 32

// chebOp is P = T_d(σ(A)).
type chebOp struct {
	a    SymOperator
	d    int
	c, w float64 // σ(λ) = (c − 2λ)/w
}

func (o chebOp) Size() int                 { return o.a.Size() }
func (o chebOp) MulVecTo(dst, x []float64) { o.mulBlockTo(dst, x, 1) }

func (o chebOp) mulBlockTo(dst, x []float64, b int) {
	m := b * o.a.Size()
	t0 := make([]float64, m)
	t1 := make([]float64, m)
	ax := make([]float64, m)
	copy(t0, x[:m])
	mulBlock(o.a, ax, t0, b)
	for i := range t1 {
		t1[i] = (o.c*t0[i] - 2*ax[i]) / o.w
	}
	for j := 2; j <= o.d; j++ {
		mulBlock(o.a, ax, t1, b)
		for i := range t0 {
			t0[i] = 2*(o.c*t1[i]-2*ax[i])/o.w - t0[i]
		}
		t0, t1 = t1, t0
	}
	if o.d == 0 {
		copy(dst[:m], x[:m])
		return
	}
	copy(dst[:m], t1)
}

// negOp is −A.
type negOp struct{ a SymOperator }

func (o negOp) Size() int { return o.a.Size() }
func (o negOp) MulVecTo(dst, x []float64) {
	o.a.MulVecTo(dst, x)
	floats.Scale(-1, dst)
}
func (o negOp) mulBlockTo(dst, x []float64, b int) {
	mulBlock(o.a, dst, x, b)
	floats.Scale(-1, dst[:b*o.a.Size()])
}

// gershgorin returns max_i Σ_j |A_ij| ≥ max |λ(A)|.
func (c *CSR) gershgorin() float64 {
	g := 0.0
	for i := 0; i < c.N; i++ {
		s := 0.0
		for _, v := range c.Val[c.RowPtr[i]:c.RowPtr[i+1]] {
			s += math.Abs(v)
		}
		g = math.Max(g, s)
	}
	return g
}

// errChebUnsuitable makes the caller fall back to plain Lanczos.
var errChebUnsuitable = errors.New("chebyshev filter unsuitable")

// chebyshevLanczos computes k eigenpairs at the end of the spectrum of the
// sparse symmetric c with the filter above.
func chebyshevLanczos(c *CSR, k int, end EigenEnd, p lanczosParams) ([]float64, *mat.Dense, error) {
	n := c.N
	var op SymOperator = c
	if end == Largest {
		op = negOp{c}
	}
	h := c.gershgorin()
	// Short Lanczos run for the cut-off and ‖A‖.
	q := max(k, 4)
	m := min(n, 40+2*k)
	pre := p
	pre.block, pre.ncv, pre.maxProducts, pre.tol = 1, m, m, 1e-3
	theta, _, err := blockLanczos(op, min(m, k+q), Smallest, pre)
	if p.ph.Err() != nil {
		return nil, nil, p.ph.Err()
	}
	if theta == nil {
		return nil, nil, err
	}
	a := theta[len(theta)-1]
	// ‖A‖ estimate: the Ritz values cover the spectrum's ends from inside.
	anorm := math.Max(math.Abs(theta[0]), math.Abs(a))
	// The filter needs a gap between the wanted eigenvalues and the cut-off
	// (none when λ_k is repeated up to λ_{k+q}, e.g. the zero eigenvalue of
	// a graph with many components).
	if !(a < 0.5*h) || h <= 0 || !(a-theta[k-1] > 1e-6*h) {
		return nil, nil, errChebUnsuitable
	}
	// The largest magnitude Ritz value from the other end.
	top, _, _ := blockLanczos(negOp{op}, 1, Smallest, lanczosParams{tol: 1e-2, maxProducts: 30, block: 1, ncv: 30, rnd: p.rnd})
	if top != nil {
		anorm = math.Max(anorm, math.Abs(top[0]))
	}
	products := m + 30
	cop := chebOp{a: op, d: chebDeg, c: h + a, w: h - a}
	tolP := p.tol
	for attempt := 0; attempt < 3; attempt++ {
		pp := p
		pp.tol = tolP
		pp.maxProducts = max(1, (p.maxProducts-products)/chebDeg)
		used := 0
		pp.products = &used
		pp.phBase = products
		_, V, err := blockLanczos(cop, k, Largest, pp)
		if p.ph.Err() != nil {
			return nil, nil, p.ph.Err()
		}
		products += used*chebDeg + k
		if V == nil {
			break
		}
		vals, vecs, r := rayleighRitz(op, V)
		ok := true
		for _, ri := range r {
			if !(ri <= p.tol*anorm) {
				ok = false
			}
		}
		if ok {
			if end == Largest {
				floats.Scale(-1, vals)
			}
			FixSigns(vecs)
			return vals, vecs, nil
		}
		worst := floats.Max(r)
		tolP *= math.Max(1e-4, math.Min(0.1, 0.1*p.tol*anorm/worst))
		if err != nil {
			break
		}
	}
	// Let plain Lanczos try with the full budget.
	return nil, nil, errChebUnsuitable
}

// rayleighRitz returns the Ritz pairs of op on span(V) (orthonormal
// columns), ascending, with their residual norms.
func rayleighRitz(op SymOperator, V *mat.Dense) ([]float64, *mat.Dense, []float64) {
	n, k := V.Dims()
	x := make([]float64, k*n)
	for j := 0; j < k; j++ {
		mat.Col(x[j*n:(j+1)*n], j, V)
	}
	ax := make([]float64, k*n)
	mulBlock(op, ax, x, k)
	H := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			H.SetSym(i, j, 0.5*(floats.Dot(x[i*n:(i+1)*n], ax[j*n:(j+1)*n])+floats.Dot(x[j*n:(j+1)*n], ax[i*n:(i+1)*n])))
		}
	}
	var es mat.EigenSym
	es.Factorize(H, true)
	vals := es.Values(nil)
	var Z mat.Dense
	es.VectorsTo(&Z)
	vecs := mat.NewDense(n, k, nil)
	res := make([]float64, k)
	r := make([]float64, n)
	v := make([]float64, n)
	for c := 0; c < k; c++ {
		for i := range r {
			r[i], v[i] = 0, 0
		}
		for j := 0; j < k; j++ {
			z := Z.At(j, c)
			floats.AddScaled(v, z, x[j*n:(j+1)*n])
			floats.AddScaled(r, z, ax[j*n:(j+1)*n])
		}
		floats.AddScaled(r, -vals[c], v)
		res[c] = floats.Norm(r, 2)
		vecs.SetCol(c, v)
	}
	return vals, vecs, res
}

package linalg

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"github.com/dimredbook/book/dimred/internal/rng"
	"github.com/dimredbook/book/dimred/internal/vec"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// SVDMethod selects the algorithm of TruncatedSVD.
type SVDMethod int

const (
	// SVDAuto uses the dense SVD when PreferDense(min(m, n), k) and
	// SVDExact otherwise.
	SVDAuto SVDMethod = iota
	// SVDExact computes the leading singular triplets to the eigensolver's
	// tolerance: block Lanczos on the implicit Gram operator AᵀA (n×n, when
	// n ≤ m) or AAᵀ (m×m, when m < n), whichever is smaller, applied as two
	// products with A and never formed.
	SVDExact
	// SVDRandomized uses the randomized range finder of Halko, Martinsson
	// and Tropp (2011, SIAM Review 53:217, Algs 4.4 and 5.1) with power
	// iterations: Q = orth((AAᵀ)^q A Ω), Ω n×(k+oversample) Gaussian, then
	// the SVD of the small matrix QᵀA.
	SVDRandomized
	// SVDDense computes the full thin SVD (mat.SVD) and truncates it.
	SVDDense
)

// SVDSettings tunes TruncatedSVD; nil or the zero value selects defaults.
type SVDSettings struct {
	Method     SVDMethod
	Oversample int         // extra random directions for SVDRandomized; 0 means 10
	PowerIters int         // power iterations for SVDRandomized; 0 means 4, negative means none
	Tol        float64     // SVDExact: eigen-residual tolerance of EigenSettings; 0 means its default
	Src        rand.Source // nil means a fixed seed
}

// TruncatedSVD returns the k largest singular values s (descending) of the
// m×n matrix a and the corresponding left and right singular vectors, U
// (m×k) and V (n×k), so that a ≈ U diag(s) Vᵀ. Each column of V has its
// entry of largest magnitude positive. 1 ≤ k ≤ min(m, n), else it panics.
//
// SVDExact's accuracy: the Gram eigenvectors have residuals ≤ Tol·σ_1², so
// triplets with σ_i well above √Tol·σ_1 are accurate to about Tol·σ_1²/σ_i
// and those below it only to about √Tol·σ_1 (use SVDDense if the small end
// matters). For rank-deficient A the columns of U (or V) beyond the rank
// are an arbitrary orthonormal completion. For SVDRandomized the HMT bound
// E‖A − QQᵀA‖ ≤ [1 + 9√(k+p)·√min(m,n)]^{1/(2q+1)} σ_{k+1} holds with
// oversampling p ≥ 2 and q power iterations (HMT Cor. 10.10).
func TruncatedSVD(a mat.Matrix, k int, s *SVDSettings) (sv []float64, u, v *mat.Dense, err error) {
	m, n := a.Dims()
	if k < 1 || k > min(m, n) {
		panic(fmt.Sprintf("dimred: TruncatedSVD k = %d outside [1, %d]", k, min(m, n)))
	}
	if s == nil {
		s = &SVDSettings{}
	}
	if err := errs.CheckFinite(a, "A"); err != nil {
		return nil, nil, nil, err
	}
	// Work at unit scale: AᵀA of an A with entries near 1e200 would
	// overflow although its singular values are representable. Scaling by
	// a power of two is exact; ordinary data are left untouched.
	a, scale := UnitScale(a)
	method := s.Method
	if method == SVDAuto {
		if PreferDense(min(m, n), k) {
			method = SVDDense
		} else {
			method = SVDExact
		}
	}
	src := rng.FitSource(s.Src)
	switch method {
	case SVDDense:
		sv, u, v, err = svdDense(a, k)
	case SVDExact:
		sv, u, v, err = svdExact(dense.AsDense(a), k, s.Tol, src)
	case SVDRandomized:
		sv, u, v = svdRandomized(dense.AsDense(a), k, s, rand.New(src))
	default:
		panic("dimred: unknown SVDMethod")
	}
	if errors.Is(err, ErrNaN) {
		// A was checked finite above: a non-finite product overflowed.
		return nil, nil, nil, fmt.Errorf("%w: the products with AᵀA (‖A‖² beyond float64): %v", ErrOverflow, err)
	}
	if err != nil && u == nil {
		return nil, nil, nil, err
	}
	for i, x := range sv {
		sv[i] *= scale
		if math.IsNaN(sv[i]) || math.IsInf(sv[i], 0) {
			return nil, nil, nil, fmt.Errorf("%w: singular value %d = %v·%v of a finite A is beyond float64", ErrOverflow, i+1, x, scale)
		}
	}
	signPairs(u, v)
	return sv, u, v, err
}

func svdDense(a mat.Matrix, k int) ([]float64, *mat.Dense, *mat.Dense, error) {
	m, n := a.Dims()
	var svd mat.SVD
	if !svd.Factorize(a, mat.SVDThin) {
		return nil, nil, nil, fmt.Errorf("%w: dense SVD failed", ErrNotConverged)
	}
	all := svd.Values(nil)
	var uu, vv mat.Dense
	svd.UTo(&uu)
	svd.VTo(&vv)
	return all[:k], mat.DenseCopyOf(uu.Slice(0, m, 0, k)), mat.DenseCopyOf(vv.Slice(0, n, 0, k)), nil
}

// gramOp is the implicit n×n operator AᵀA (trans false) or the m×m operator
// AAᵀ (trans true) of a dense A, applied to blocks with two BLAS-3 products
// split over column chunks on all cores.
//
// With mean set (only for trans false) the operator is that of the
// column-centred Â = A − 1 μᵀ, ÂᵀÂ x = Aᵀ(Ax − 1 μᵀx) − μ 1ᵀ(Ax − 1 μᵀx),
// applied without forming Â.
type gramOp struct {
	a     blas64.General
	trans bool
	mean  []float64
}

// MulBlockTo applies op to the b vectors stored as the rows of x (b×n,
// row-major) and stores the results as the rows of dst, using the
// operator's block product when it has one (dense, double-centred and
// centred-Gram operators read their matrix once per block, which makes a
// block of b vectors cost about as much as one). x and dst must not
// overlap; len(x) and len(dst) must be at least b·n.
func MulBlockTo(op SymOperator, dst, x []float64, b int) {
	n := op.Size()
	if len(x) < b*n || len(dst) < b*n {
		panic(mat.ErrShape)
	}
	mulBlock(op, dst, x, b)
}

// CentredGramOperator returns the p×p operator of ÂᵀÂ, Â = A − 1 μᵀ the
// n×p matrix A with μ subtracted from every row, applied to blocks of
// vectors in one fused pass over A on all cores without forming Â or ÂᵀÂ
// (n·S for the sample covariance S of PCA when μ is the column mean). A
// nil mean gives AᵀA. len(mean) must be p; A is not copied and must not
// change while the operator is in use.
func CentredGramOperator(A *mat.Dense, mean []float64) SymOperator {
	raw := A.RawMatrix()
	if mean != nil && len(mean) != raw.Cols {
		panic(mat.ErrShape)
	}
	return gramOp{a: blas64.General{Rows: raw.Rows, Cols: raw.Cols, Stride: raw.Stride, Data: raw.Data}, mean: mean}
}

func (g gramOp) Size() int {
	if g.trans {
		return g.a.Rows
	}
	return g.a.Cols
}

func (g gramOp) MulVecTo(dst, x []float64) { g.mulBlockTo(dst, x, 1) }

func (g gramOp) mulBlockTo(dst, x []float64, b int) {
	m, n := g.a.Rows, g.a.Cols
	if !g.trans {
		if b <= gramFusedMaxBlock {
			g.fusedGramTo(dst, x, b)
			return
		}
		// Zᵀ = Xᵀ Aᵀ (b×m), then Dᵀ = Zᵀ A (b×n).
		z := make([]float64, b*m)
		xt := blas64.General{Rows: b, Cols: n, Stride: n, Data: x}
		rowsTimes(g.a, xt, z, m)
		if g.mean != nil {
			for v := 0; v < b; v++ {
				c := floats.Dot(g.mean, x[v*n:(v+1)*n])
				for i := range z[v*m : (v+1)*m] {
					z[v*m+i] -= c
				}
			}
		}
		zt := blas64.General{Rows: b, Cols: m, Stride: m, Data: z}
		timesCols(zt, g.a, dst, n)
		if g.mean != nil {
			for v := 0; v < b; v++ {
				floats.AddScaled(dst[v*n:(v+1)*n], -vec.Sum(z[v*m:(v+1)*m]), g.mean)
			}
		}
		return
	}
	// Zᵀ = Xᵀ A (b×n), then Dᵀ = Zᵀ Aᵀ (b×m).
	z := make([]float64, b*n)
	xt := blas64.General{Rows: b, Cols: m, Stride: m, Data: x}
	timesCols(xt, g.a, z, n)
	zt := blas64.General{Rows: b, Cols: n, Stride: n, Data: z}
	rowsTimes(g.a, zt, dst, m)
}

// fusedGramTo sets dst = AᵀA x for the b vectors stored as rows of x
// (b×n) in one pass over A: each row a_i is read once and serves a dot
// product z_v = a_iᵀx_v and an update d_v += z_v a_i for every vector,
// while it is in cache. A top-q Lanczos run on a tall A (PCA: n ≫ p)
// applies blocks of a few vectors, where two separate matrix products run
// at matrix–vector speed and read A twice. Rows are split between the
// cores, each accumulating into its own b×n buffer.
func (g gramOp) fusedGramTo(dst, x []float64, b int) {
	m, n := g.a.Rows, g.a.Cols
	chunks := parallel.ChunkBounds(m, 512)
	w := len(chunks) - 1
	acc := make([][]float64, w)
	acc[0] = dst[:b*n]
	clear(acc[0])
	// Centring: z_v,i = a_iᵀx_v − μᵀx_v; the sums Σ_i z_v,i per worker.
	mx := make([]float64, b)
	if g.mean != nil {
		for v := range mx {
			mx[v] = floats.Dot(g.mean, x[v*n:(v+1)*n])
		}
	}
	zsum := make([]float64, w*b)
	parallel.RunChunks(chunks, func(t, lo, hi int) {
		if t > 0 {
			acc[t] = make([]float64, b*n)
		}
		d := acc[t]
		zs := zsum[t*b : (t+1)*b]
		for i := lo; i < hi; i++ {
			row := g.a.Data[i*g.a.Stride : i*g.a.Stride+n]
			for v := 0; v < b; v++ {
				if z := vec.Dot(row, x[v*n:(v+1)*n]) - mx[v]; z != 0 {
					vec.Axpy(d[v*n:(v+1)*n], z, row)
					zs[v] += z
				}
			}
		}
	})
	for t := 1; t < w; t++ {
		floats.Add(dst[:b*n], acc[t])
	}
	if g.mean != nil {
		for v := 0; v < b; v++ {
			s := 0.0
			for t := 0; t < w; t++ {
				s += zsum[t*b+v]
			}
			floats.AddScaled(dst[v*n:(v+1)*n], -s, g.mean)
		}
	}
}

// rowsTimes sets D (b×m, stride m) = X Aᵀ for X b×n, split over row chunks
// of A (columns of D).
func rowsTimes(a blas64.General, x blas64.General, d []float64, m int) {
	parallel.For(a.Rows, 256, func(lo, hi int) {
		ac := blas64.General{Rows: hi - lo, Cols: a.Cols, Stride: a.Stride, Data: a.Data[lo*a.Stride:]}
		dc := blas64.General{Rows: x.Rows, Cols: hi - lo, Stride: m, Data: d[lo:]}
		Gemm(blas.NoTrans, blas.Trans, 1, x, ac, 0, dc)
	})
}

// timesCols sets D (b×n, stride n) = X A for X b×m, split over column
// chunks of A.
func timesCols(x blas64.General, a blas64.General, d []float64, n int) {
	parallel.For(a.Cols, 256, func(lo, hi int) {
		ac := blas64.General{Rows: a.Rows, Cols: hi - lo, Stride: a.Stride, Data: a.Data[lo:]}
		dc := blas64.General{Rows: x.Rows, Cols: hi - lo, Stride: n, Data: d[lo:]}
		Gemm(blas.NoTrans, blas.NoTrans, 1, x, ac, 0, dc)
	})
}

// svdExact finds the top-k eigenpairs of the smaller Gram operator and
// recovers the other side's vectors by one product with A.
func svdExact(a *mat.Dense, k int, tol float64, src rand.Source) ([]float64, *mat.Dense, *mat.Dense, error) {
	m, n := a.Dims()
	raw := a.RawMatrix()
	g := gramOp{a: blas64.General{Rows: m, Cols: n, Stride: raw.Stride, Data: raw.Data}, trans: m < n}
	es := &EigenSettings{Method: EigenLanczos, Tol: tol, Src: src}
	if PreferDense(g.Size(), k) {
		es.Method = EigenDense
	}
	_, w, err := EigenSymOp(g, k, Largest, es)
	if w == nil {
		return nil, nil, nil, err
	}
	// Other side: A w_i = σ_i u_i (or Aᵀ w_i = σ_i v_i). σ_i = ‖A w_i‖ is
	// more accurate than √λ_i for small σ_i. The columns are orthonormalised
	// (Gram–Schmidt twice, which leaves well-separated ones unchanged up to
	// rounding); those of σ_i ≲ √Tol·σ_1 are noise and become an
	// orthonormal completion.
	var other mat.Dense
	if g.trans {
		other.Mul(a.T(), w)
	} else {
		other.Mul(a, w)
	}
	r, _ := other.Dims()
	sv := make([]float64, k)
	rows := make([]float64, k*r)
	wn := make([]float64, k)
	for j := 0; j < k; j++ {
		mat.Col(rows[j*r:(j+1)*r], j, &other)
		sv[j] = floats.Norm(rows[j*r:(j+1)*r], 2)
	}
	for j := range wn {
		wn[j] = sv[0]
	}
	q := make([]float64, k*r)
	L := make([]float64, k*k)
	qrRows(rows, k, wn, nil, 0, q, L, k, r, r, rand.New(src))
	ou := mat.NewDense(r, k, nil)
	for j := 0; j < k; j++ {
		ou.SetCol(j, q[j*r:(j+1)*r])
	}
	if g.trans {
		return sv, w, ou, err
	}
	return sv, ou, w, err
}

// svdRandomized is HMT's randomized range finder with power iterations
// (subspace iteration with a QR after every product, their Alg. 4.4)
// followed by the direct SVD of B = QᵀA (Alg. 5.1). PCA has its own
// adaptive subspace iteration on the implicitly centred Gram operator
// (dimred's pcaRandomized), which never forms the centred matrix.
func svdRandomized(a *mat.Dense, k int, s *SVDSettings, rnd *rand.Rand) ([]float64, *mat.Dense, *mat.Dense) {
	m, n := a.Dims()
	p := s.Oversample
	if p <= 0 {
		p = 10
	}
	q := s.PowerIters
	if q == 0 {
		q = 4
	}
	if q < 0 {
		q = 0
	}
	l := min(k+p, min(m, n))
	omega := rng.NormalDense(rnd, n, l)
	var Y, Z mat.Dense
	Y.Mul(a, omega)
	Qm := orthonormalCols(&Y, rnd)
	for it := 0; it < q; it++ {
		Z.Mul(a.T(), Qm)
		Qn := orthonormalCols(&Z, rnd)
		Y.Reset()
		Y.Mul(a, Qn)
		Qm = orthonormalCols(&Y, rnd)
	}
	var B mat.Dense
	B.Mul(Qm.T(), a) // l×n
	var svd mat.SVD
	svd.Factorize(&B, mat.SVDThin)
	all := svd.Values(nil)
	var ub, vb mat.Dense
	svd.UTo(&ub)
	svd.VTo(&vb)
	var u mat.Dense
	u.Mul(Qm, ub.Slice(0, l, 0, k))
	return all[:k], &u, mat.DenseCopyOf(vb.Slice(0, n, 0, k))
}

// orthonormalCols returns an orthonormal basis of the columns of y (the Q
// of a thin QR, by Gram–Schmidt twice; gonum's QR would form the full
// square Q). Columns that vanish are replaced by random orthogonal ones.
func orthonormalCols(y *mat.Dense, rnd *rand.Rand) *mat.Dense {
	r, c := y.Dims()
	rows := make([]float64, c*r)
	wn := make([]float64, c)
	for j := 0; j < c; j++ {
		mat.Col(rows[j*r:(j+1)*r], j, y)
		wn[j] = floats.Norm(rows[j*r:(j+1)*r], 2)
	}
	q := make([]float64, c*r)
	L := make([]float64, c*c)
	bq := qrRows(rows, c, wn, nil, 0, q, L, c, r, r, rnd)
	out := mat.NewDense(r, c, nil)
	for j := 0; j < bq; j++ {
		out.SetCol(j, q[j*r:(j+1)*r])
	}
	return out
}

// signPairs applies the sign convention to V (largest-magnitude entry of
// each column positive, by FixSigns) and flips the matching columns of U,
// keeping U diag(s) Vᵀ unchanged.
func signPairs(u, v *mat.Dense) {
	ru, _ := u.Dims()
	for j, f := range FixSigns(v) {
		if f {
			for i := 0; i < ru; i++ {
				u.Set(i, j, -u.At(i, j))
			}
		}
	}
}

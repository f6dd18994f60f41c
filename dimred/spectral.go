package dimred

import (
	"context"
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// The unifying view of the spectral methods (Lawrence, "A unifying
// probabilistic perspective for spectral dimensionality reduction", 2012;
// book §5.3–5.6): each neighbourhood-graph method solves a symmetric
// eigenproblem on an implied n×n matrix, and that matrix is either
//
//   - a sparse precision L of a Gaussian random field, L ⪰ 0, L 1 = 0 —
//     Laplacian eigenmaps (L = V − A or its normalised form) and LLE
//     (L = M Mᵀ = (I − W)ᵀ(I − W)) — whose bottom non-trivial eigenvectors
//     are the embedding, or
//   - a dense centred covariance B = H K H — Isomap (K = −½ D_G^{∘2}), MVU
//     (K from the semi-definite program) — whose top eigenvectors are.
//
// The two are one picture: with K = (L + γI)⁻¹ the top eigenvectors of
// H K H are the bottom non-trivial eigenvectors of L, for any γ > 0
// (paper §2.6, eq. 6), so every method is classical MDS on the covariance
// of a GRF. ImpliedCovariance forms that covariance for any SpectralModel.

// SpectralModel is implemented by the neighbourhood-graph spectral methods
// (LaplacianEigenmaps, LLE, Isomap, and MVU). Implied returns the matrix
// the method's eigenproblem is posed on.
type SpectralModel interface {
	Embedder
	// EigenvaluesTo returns the eigenvalues of the implied matrix that
	// the embedding was read from (see each method's doc).
	EigenvaluesTo(dst []float64) []float64
	// Implied returns the fitted model's implied precision or covariance.
	Implied() ImpliedMatrix
}

// ImpliedMatrix is the matrix a spectral method diagonalises: exactly one
// of Precision and Covariance is set.
type ImpliedMatrix struct {
	// Precision is a sparse GRF precision (graph Laplacian) L, n×n,
	// symmetric, L 1 = 0 or, for the normalised Laplacian, L V^{1/2} 1 = 0;
	// the embedding is its bottom eigenvectors after the trivial one.
	Precision *linalg.CSR
	// Null is the trivial null vector of Precision: nil means 1 (L 1 = 0);
	// the normalised Laplacian's is V^{1/2} 1.
	Null []float64
	// Covariance is a dense centred covariance B = H K H, n×n; the
	// embedding is its top eigenvectors scaled by √λ.
	Covariance *mat.SymDense
}

// ImpliedCovariance returns the n×n covariance of the Gaussian random field
// a fitted spectral model implies: B itself for a covariance model, and
// for a precision model
//
//	K = H (L + γ I)⁻¹ H,   H = I − n⁻¹ 1 1ᵀ,
//
// (paper eq. 6), with H generalised to the projection I − v₀v₀ᵀ/‖v₀‖² off
// the null vector v₀ of L when L 1 ≠ 0 (the normalised Laplacian). γ > 0 is the base-density precision; the top eigenvectors
// of K are the bottom non-trivial eigenvectors of L for every γ > 0, so
// classical MDS on K recovers the method's embedding directions (the
// paper's thesis). The inverse is dense, O(n³): for notebooks and tests,
// not large n. It panics if γ ≤ 0 and a precision is to be inverted.
func ImpliedCovariance(m SpectralModel, gamma float64) (*mat.SymDense, error) {
	im := m.Implied()
	if im.Covariance != nil {
		return mat.NewSymDense(im.Covariance.SymmetricDim(), append([]float64(nil), im.Covariance.RawSymmetric().Data...)), nil
	}
	if !(gamma > 0) {
		panic("dimred: ImpliedCovariance needs γ > 0")
	}
	L := im.Precision
	n := L.N
	A := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		cols, vals := L.Row(i)
		for t, j := range cols {
			if j >= i {
				A.SetSym(i, j, vals[t])
			}
		}
		A.SetSym(i, i, A.At(i, i)+gamma)
	}
	var ch mat.Cholesky
	if !ch.Factorize(A) {
		return nil, fmt.Errorf("%w: L + γI not positive definite (γ = %g)", ErrSingular, gamma)
	}
	K := mat.NewSymDense(n, nil)
	if err := ch.InverseTo(K); err != nil {
		return nil, fmt.Errorf("%w: (L + γI)⁻¹: %v", ErrSingular, err)
	}
	// P K P with P = I − ûûᵀ, û = v₀/‖v₀‖:
	// K − û(Kû)ᵀ − (Kû)ûᵀ + (ûᵀKû) ûûᵀ.
	u := make([]float64, n)
	if im.Null == nil {
		for i := range u {
			u[i] = 1
		}
	} else {
		copy(u, im.Null)
	}
	nrm := 0.0
	for _, v := range u {
		nrm += v * v
	}
	nrm = math.Sqrt(nrm)
	for i := range u {
		u[i] /= nrm
	}
	ku := make([]float64, n)
	mat.NewVecDense(n, ku).MulVec(K, mat.NewVecDense(n, u))
	uku := 0.0
	for i := range u {
		uku += u[i] * ku[i]
	}
	B := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			B.SetSym(i, j, K.At(i, j)-u[i]*ku[j]-ku[i]*u[j]+uku*u[i]*u[j])
		}
	}
	return B, nil
}

// defaultSpectralK is the neighbour count of the spectral methods when K
// is zero.
const defaultSpectralK = 10

// spectralK returns the neighbour count k (default 10). A negative k or
// q ≤ 0 is a programmer error and panics; data too small for them
// (n < q + 2, or k ≥ n) is an error wrapping ErrTooFewPoints.
func spectralK(name string, q, k, n int) (int, error) {
	if q <= 0 {
		panic(fmt.Sprintf("dimred: %s q = %d must be positive", name, q))
	}
	if k < 0 {
		panic(fmt.Sprintf("dimred: %s k = %d must be positive", name, k))
	}
	if n < q+2 {
		return 0, fmt.Errorf("%w: %s with q = %d needs n ≥ q + 2 = %d points, have %d", ErrTooFewPoints, name, q, q+2, n)
	}
	return neighbourK(name, "neighbours", k, defaultSpectralK, n)
}

// neighbourK is the one neighbour-count rule of every neighbourhood
// method (LLE, Isomap, LaplacianEigenmaps, MVU, MEU, AcyclicLLE, DRILL):
// k = 0 means the method's default def; a negative k is a programmer
// error and panics; k ≥ n, default or explicit, is an error wrapping
// ErrTooFewPoints naming k and n — whether k is too large depends on the
// size of the data, which the caller who set K may not control. noun
// names what k counts ("neighbours", "parents").
func neighbourK(name, noun string, k, def, n int) (int, error) {
	if k < 0 {
		panic(fmt.Sprintf("dimred: %s k = %d must be positive (0 means %d)", name, k, def))
	}
	the := ""
	if k == 0 {
		k, the = def, "the default "
	}
	if k >= n {
		return 0, fmt.Errorf("%w: %s with %sk = %d %s needs n > k points, have %d", ErrTooFewPoints, name, the, k, noun, n)
	}
	return k, nil
}

// bottomEigen returns the q+1 smallest eigenpairs of the symmetric sparse
// L (ascending) through the package's sparse eigensolver. The caller
// drops the first (trivial) pair.
func bottomEigen(ctx context.Context, name string, L *linalg.CSR, q int, s *linalg.EigenSettings) ([]float64, *mat.Dense, error) {
	vals, vecs, err := linalg.EigenSymOpContext(ctx, L, q+1, linalg.Smallest, s)
	if err != nil {
		return nil, nil, errs.Wrap(err, name+" eigensolve")
	}
	return vals, vecs, nil
}

// checkGraph returns an error wrapping ErrOverflow when an edge length of
// g overflowed (finite data of huge magnitude), and applies the policy pol
// when g (the neighbourhood graph of the rows of Y) has more than one
// component (see neighbours.DisconnectedPolicy):
//
//   - RefuseDisconnected: an error wrapping ErrDisconnected;
//   - LargestComponent: kept lists the rows of the largest component (the
//     caller refits on them, fitKept); g is returned unchanged;
//   - ConnectComponents: the graph with the components' shortest joining
//     edges added, and those edges.
//
// A connected g is returned as it is, with kept and added nil.
func checkGraph(name string, g *linalg.CSR, Y mat.Matrix, pol neighbours.DisconnectedPolicy) (out *linalg.CSR, added []neighbours.Edge, kept []int, err error) {
	pol.Valid()
	for i := 0; i < g.N; i++ {
		cols, vals := g.Row(i)
		for t, v := range vals {
			// Every method squares its neighbour distances (heat kernel,
			// local Gram matrix, distance constraints, MDS on geodesics).
			if math.IsInf(v*v, 0) || math.IsNaN(v) {
				return nil, nil, nil, errs.Overflowf("%s: the squared distance between points %d and %d (%v²) overflows", name, i, cols[t], v)
			}
		}
	}
	cerr := neighbours.CheckConnected(g)
	if cerr == nil {
		return g, nil, nil, nil
	}
	switch pol {
	case LargestComponent:
		kept, _ = neighbours.LargestComponentOf(g)
		return g, nil, kept, nil
	case ConnectComponents:
		out, added = neighbours.ConnectGraph(g, Y)
		for _, e := range added {
			if math.IsInf(e.Dist*e.Dist, 0) {
				return nil, nil, nil, errs.Overflowf("%s: the squared distance between points %d and %d (%v²) joining two components overflows", name, e.I, e.J, e.Dist)
			}
		}
		return out, added, nil, nil
	}
	return nil, nil, nil, errs.Wrap(cerr, name+" neighbourhood graph")
}

// The policies of neighbours.DisconnectedPolicy, re-exported so that a
// method's Disconnected field reads dimred.LargestComponent.
const (
	RefuseDisconnected = neighbours.RefuseDisconnected
	LargestComponent   = neighbours.LargestComponent
	ConnectComponents  = neighbours.ConnectComponents
)

// selectRows returns the rows idx of Y as a new len(idx)×p matrix.
func selectRows(Y mat.Matrix, idx []int) *mat.Dense {
	_, p := Y.Dims()
	out := mat.NewDense(len(idx), p, nil)
	for r, i := range idx {
		for c := 0; c < p; c++ {
			out.Set(r, c, Y.At(i, c))
		}
	}
	return out
}

// keptRows returns a copy of kept, or 0, …, n−1 when kept is nil (every
// row embedded): the Kept result of the neighbourhood methods.
func keptRows(kept []int, n int) []int {
	if kept != nil {
		return append([]int(nil), kept...)
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// exactSquared recomputes the squared distances between y and the rows idx
// of Y directly (the blocked norm expansion that found the neighbours
// leaves round-off ~1e-16‖y‖², enough to blur a coincident point).
func exactSquared(d2 []float64, y []float64, Y *mat.Dense, idx []int) {
	for t, j := range idx {
		row := Y.RawRowView(j)
		s := 0.0
		for c, v := range y {
			e := v - row[c]
			s += e * e
		}
		d2[t] = s
	}
}

// checkSpectralY panics on a Y with no columns and returns ErrNaN for a
// non-finite entry.
func checkSpectralY(name string, Y mat.Matrix) error {
	if _, p := Y.Dims(); p == 0 {
		panic(noColumns(name))
	}
	return errs.CheckFinite(Y, "Y")
}

// noColumns is the panic message of an n×0 Y: there are no features to
// measure distances in (the linear methods panic on Q > p for the same
// input).
func noColumns(name string) string {
	return fmt.Sprintf("dimred: %s: Y has no columns (p = 0)", name)
}

// dropLowest copies columns 1..q of vecs (dropping column 0, the
// eigenvector of the smallest eigenvalue, whatever it is), each scaled by
// sc, into a new n×q. This is what Lawrence's MATLAB spectralUpdateX
// (GPmat mltools) does; when the null space of the Laplacian has more
// than one dimension, column 0 is an arbitrary vector of it and the
// result keeps part of the constant vector (see LLE.DropLowest).
func dropLowest(vecs *mat.Dense, q int, sc float64) *mat.Dense {
	n, _ := vecs.Dims()
	X := mat.NewDense(n, q, nil)
	for c := 0; c < q; c++ {
		for i := 0; i < n; i++ {
			X.Set(i, c, sc*vecs.At(i, c+1))
		}
	}
	return X
}

// nontrivial returns sc·Q E, n×q: the bottom non-trivial eigenvectors of
// the symmetric L, read from its q+1 bottom eigenvectors vecs (n×(q+1),
// orthonormal) with the known null vector u of L projected out (u nil
// means 1, L 1 = 0). With c = Vᵀû (û = u/‖u‖), Q = V Z for an orthonormal
// basis Z of c⊥ in ℝ^{q+1} is the part of span(V) orthogonal to û (a
// Householder reflection maps e₀ to c/‖c‖; its other columns are Z), and
// E diagonalises the Rayleigh quotient QᵀLQ (ascending, a Rayleigh–Ritz
// step), so the columns come ordered by xᵀLx/xᵀx.
//
// Dropping "eigenvector 0" instead (dropLowest) is only right when the
// null space of L is one-dimensional: when it is larger (LLE with several
// closed classes of the directed neighbour graph; a graph whose edge
// weights underflow) the eigensolver returns an arbitrary basis of it and
// the constant vector leaks into the embedding. Here Σ_i u_i x_ic = 0 for
// every c (Roweis & Saul's centring Σ_i x_i = 0 when u = 1) whatever basis
// the eigensolver chose.
func nontrivial(L *linalg.CSR, vecs *mat.Dense, u []float64, q int, sc float64) *mat.Dense {
	n, k := vecs.Dims()
	if k != q+1 {
		panic(fmt.Sprintf("dimred: nontrivial needs q+1 = %d vectors, have %d", q+1, k))
	}
	uh := make([]float64, n)
	nu := 0.0
	for i := range uh {
		v := 1.0
		if u != nil {
			v = u[i]
		}
		uh[i] = v
		nu += v * v
	}
	nu = math.Sqrt(nu)
	c := make([]float64, k)
	cn := 0.0
	for j := 0; j < k; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			s += vecs.At(i, j) * uh[i]
		}
		c[j] = s / nu
		cn += c[j] * c[j]
	}
	cn = math.Sqrt(cn)
	// Householder H = I − 2 h hᵀ/‖h‖², h = ĉ − e₀, maps e₀ ↔ ĉ; its
	// columns 1..q are an orthonormal basis of ĉ⊥. (ĉ = e₀ or no overlap
	// at all — u outside the computed span — leave Z = [e₁ … e_q].)
	Z := mat.NewDense(k, q, nil)
	for j := 0; j < q; j++ {
		Z.Set(j+1, j, 1)
	}
	if cn > 0 {
		h := make([]float64, k)
		hh := 0.0
		for j := range h {
			h[j] = c[j] / cn
		}
		h[0]--
		for _, v := range h {
			hh += v * v
		}
		if hh > 0 {
			for j := 0; j < q; j++ {
				for a := 0; a < k; a++ {
					Z.Set(a, j, Z.At(a, j)-2*h[a]*h[j+1]/hh)
				}
			}
		}
	}
	var Q mat.Dense
	Q.Mul(vecs, Z)
	// Rayleigh–Ritz: diagonalise Qᵀ L Q.
	LQ := mat.NewDense(n, q, nil)
	col, out := make([]float64, n), make([]float64, n)
	for j := 0; j < q; j++ {
		mat.Col(col, j, &Q)
		L.MulVecTo(out, col)
		LQ.SetCol(j, out)
	}
	var H mat.Dense
	H.Mul(Q.T(), LQ)
	Hs := mat.NewSymDense(q, nil)
	for a := 0; a < q; a++ {
		for b := a; b < q; b++ {
			Hs.SetSym(a, b, 0.5*(H.At(a, b)+H.At(b, a)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(Hs, true) {
		// A q×q symmetric eigenproblem of finite entries converges.
		panic("dimred: Rayleigh–Ritz eigendecomposition failed")
	}
	var E, X mat.Dense
	eig.VectorsTo(&E)
	X.Mul(&Q, &E)
	X.Scale(sc, &X)
	return &X
}

// fixColumnSigns makes the entry of largest magnitude in each column of X
// positive (the package's sign convention).
func fixColumnSigns(X *mat.Dense) {
	n, q := X.Dims()
	for c := 0; c < q; c++ {
		best, bi := 0.0, 0
		for i := 0; i < n; i++ {
			if a := math.Abs(X.At(i, c)); a > best {
				best, bi = a, i
			}
		}
		if X.At(bi, c) < 0 {
			for i := 0; i < n; i++ {
				X.Set(i, c, -X.At(i, c))
			}
		}
	}
}

package dimred

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// MEU is maximum entropy unfolding (book §5.3; Lawrence 2012, "A unifying
// probabilistic perspective for spectral dimensionality reduction", §2).
// Of all densities over the n×p data matrix Y whose expected squared
// distances between neighbours match the observed ones, ⟨d_ij⟩ = d_ij for
// j ∈ N(i), with a base density N(0, γ⁻¹I), the one of maximum entropy is
// the Gaussian random field
//
//	p(Y) = ∏_{j=1}^p |L+γI|^{1/2} (2π)^{−n/2} exp(−½ y_{:,j}ᵀ (L+γI) y_{:,j}),
//
// independent across the p features, whose precision is the graph
// Laplacian L of the Lagrange multipliers λ_ij (L_ij = −λ_ij on edges,
// L_ii = Σ_j λ_ij, so L1 = 0). Its log-likelihood is
//
//	log p(Y) = (p/2) log|L+γI| − ½ tr((L+γI) Y Yᵀ) − (np/2) log 2π;
//
// the book's eq. (5.2) and the paper's eq. (3) write the normaliser
// |L+γI|^{1/2}, which the product over features makes |L+γI|^{p/2}. The
// multipliers are fitted by maximum likelihood; the gradient is
//
//	∂log p/∂λ_ij = (p/2)(k_ii − 2k_ij + k_jj) − ½ d_ij,   K = (L+γI)⁻¹,
//
// since ⟨d_ij⟩ = ⟨‖y_i − y_j‖²⟩ = p(k_ii − 2k_ij + k_jj) under the field
// (the book and paper state ⟨d_ij⟩ = (p/2)(…), off by the factor 2).
//
// As in the paper's experiments the multipliers are kept positive, an
// "attractive" network that keeps L+γI positive definite: one multiplier
// κ = exp(a) > 0 per directed k-nearest-neighbour edge i→j (started at
// κ = 1), the edge weight of the pair being λ_ij = κ_{i→j} + κ_{j→i}.
// With positivity the moment constraints become inequalities and need not
// all hold at the optimum. The fit maximises over a with the package's
// L-BFGS driver, where the reference code runs scaled conjugate gradients
// for a fixed 1000 (stick man) or 2000 (robot) iterations; both climb the
// same likelihood, L-BFGS stops on the driver's convergence rule.
//
// The embedding is the top q eigenvectors of the centred implied
// covariance B = H K H, X = U_q Λ_q^{1/2}, the principal coordinates of the
// field (paper §2.5.1). With K = n−1 (every pair a neighbour) and data for
// which the unconstrained optimum has positive multipliers, the fit
// matches every squared distance and B = Ŷ Ŷᵀ/p: MEU recovers PCA.
//
// Each likelihood evaluation factorises and inverts the dense n×n matrix
// L+γI, O(n³): a few milliseconds at n = 215.
type MEU struct {
	K     int     // neighbours per point (k); 0 means 6; n−1 means every pair
	Q     int     // q, latent dimension; must be set (≥ 1)
	Gamma float64 // γ, precision of the base density; 0 means 1e-4

	MaxIter int                                 // L-BFGS iterations; 0 means 2000
	Tol     float64                             // gain per point per iteration; 0 means 1e-9
	Monitor func(iter int, logLik float64) bool // sees the log-likelihood

	n, q   int
	logLik float64
	iters  int
	lap    *mat.SymDense // L
	cov    *mat.SymDense // K = (L+γI)⁻¹
	x      *mat.Dense
	vals   []float64
}

var _ Embedder = (*MEU)(nil)

// meuModel holds the fixed data of one MEU fit and evaluates its
// likelihood as a function of the log multipliers.
type meuModel struct {
	n, p  int
	gamma float64
	from  []int     // directed edge e: from[e] → to[e]
	to    []int     //
	d     []float64 // d_e = ‖ŷ_from − ŷ_to‖²
	trS   float64   // tr ŶŶᵀ
	A     *mat.SymDense
	Kinv  *mat.SymDense
	chol  mat.Cholesky
}

func newMEUModel(Y mat.Matrix, nb *neighbours.Neighbours, gamma float64) *meuModel {
	n, p := Y.Dims()
	Yc := mat.DenseCopyOf(Y)
	centreColumns(Yc)
	m := &meuModel{n: n, p: p, gamma: gamma, A: mat.NewSymDense(n, nil), Kinv: mat.NewSymDense(n, nil)}
	for i := 0; i < n; i++ {
		r := Yc.RawRowView(i)
		for _, v := range r {
			m.trS += v * v
		}
		idx, _ := nb.Of(i)
		for _, j := range idx {
			m.from = append(m.from, i)
			m.to = append(m.to, j)
			m.d = append(m.d, sqDistRows(r, Yc.RawRowView(j)))
		}
	}
	return m
}

func centreColumns(Y *mat.Dense) {
	n, p := Y.Dims()
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for j, v := range Y.RawRowView(i) {
			mean[j] += v
		}
	}
	for i := 0; i < n; i++ {
		r := Y.RawRowView(i)
		for j := range r {
			r[j] -= mean[j] / float64(n)
		}
	}
}

func sqDistRows(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// laplacian stores L + γI for multipliers κ_e = exp(a_e) in m.A and
// returns Σ_e κ_e d_e = tr(L ŶŶᵀ).
func (m *meuModel) laplacian(a []float64) float64 {
	m.A.Zero()
	var trLS float64
	for i := 0; i < m.n; i++ {
		m.A.SetSym(i, i, m.gamma)
	}
	for e, ae := range a {
		k := math.Exp(ae)
		i, j := m.from[e], m.to[e]
		m.A.SetSym(i, j, m.A.At(i, j)-k)
		m.A.SetSym(i, i, m.A.At(i, i)+k)
		m.A.SetSym(j, j, m.A.At(j, j)+k)
		trLS += k * m.d[e]
	}
	return trLS
}

// eval returns log p(Y) at log multipliers a and, if grad is non-nil, its
// gradient κ_e((p/2)(k_ii − 2k_ij + k_jj) − ½ d_e).
func (m *meuModel) eval(grad, a []float64) float64 {
	trLS := m.laplacian(a)
	if !m.chol.Factorize(m.A) {
		for i := range grad {
			grad[i] = 0
		}
		return math.Inf(-1)
	}
	p := float64(m.p)
	ll := 0.5*p*m.chol.LogDet() - 0.5*(trLS+m.gamma*m.trS) - 0.5*float64(m.n)*p*math.Log(2*math.Pi)
	if grad != nil {
		if err := m.chol.InverseTo(m.Kinv); err != nil {
			return math.Inf(-1)
		}
		for e, ae := range a {
			i, j := m.from[e], m.to[e]
			dk := m.Kinv.At(i, i) - 2*m.Kinv.At(i, j) + m.Kinv.At(j, j)
			grad[e] = math.Exp(ae) * (0.5*p*dk - 0.5*m.d[e])
		}
	}
	return ll
}

// Fit fits the multipliers to the rows of Y (n×p, not modified) and
// computes the embedding. It returns an error wrapping ErrNaN for
// non-finite data, ErrTooFewPoints for n < 3 or k ≥ n, ErrOverflow if the
// likelihood cannot be evaluated, or ErrNotConverged when MaxIter is
// reached (the model is then fitted with the last iterate). It panics if
// K < 0 or q ∉ [1, n−1].
func (m *MEU) Fit(Y mat.Matrix) error {
	m.reset()
	checkSettings("MEU", m)
	n, _ := Y.Dims()
	if n < 3 {
		return fmt.Errorf("%w: MEU needs at least 3 points, have %d", ErrTooFewPoints, n)
	}
	q, gamma := m.Q, m.Gamma
	if gamma == 0 {
		gamma = 1e-4
	}
	k, err := neighbourK("MEU", "neighbours", m.K, 6, n)
	if err != nil {
		return err
	}
	if err := checkQ("MEU", q, n, q+1); err != nil {
		return err
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		panic(fmt.Sprintf("dimred: MEU.Gamma = %v must be positive", gamma))
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	nb, err := neighbours.KNearest(Y, k)
	if err != nil {
		return err
	}
	mod := newMEUModel(Y, nb, gamma)
	if math.IsInf(mod.trS, 0) || math.IsNaN(mod.trS) {
		return errs.Overflowf("MEU: tr ŶŶᵀ = %v", mod.trS)
	}
	a := make([]float64, len(mod.d)) // κ = 1
	it := newIteration("MEU L-BFGS", m.MaxIter, m.Tol, m.Monitor, 2000, 1e-9).perPoint(n)
	iters, obj, ferr := it.maximise(a, 1e-6, mod.eval)
	if ferr != nil && !isNotConverged(ferr) {
		return ferr
	}
	mod.laplacian(a)
	lap := mat.NewSymDense(n, nil)
	lap.CopySym(mod.A)
	for i := 0; i < n; i++ {
		lap.SetSym(i, i, lap.At(i, i)-gamma)
	}
	if !mod.chol.Factorize(mod.A) {
		return fmt.Errorf("%w: MEU: L+γI not positive definite at the optimum", ErrSingular)
	}
	cov := mat.NewSymDense(n, nil)
	if err := mod.chol.InverseTo(cov); err != nil {
		return fmt.Errorf("%w: MEU: %v", ErrSingular, err)
	}
	x, vals, err := covarianceEmbedding(cov, q)
	if err != nil {
		return err
	}
	m.n, m.q, m.logLik, m.iters, m.lap, m.cov, m.x, m.vals = n, q, obj, iters, lap, cov, x, vals
	return ferr
}

func (m *MEU) reset() { m.x, m.lap, m.cov, m.vals, m.n, m.q = nil, nil, nil, nil, 0, 0 }

func (m *MEU) mustFit() {
	if m.x == nil {
		panic("dimred: MEU used before a successful Fit")
	}
}

// LatentTo stores the embedding X (n×q) in dst: a nil or empty dst is
// resized, a wrong shape panics.
func (m *MEU) LatentTo(dst *mat.Dense) { m.mustFit(); copyLatent(dst, m.x) }

// LogLikelihood returns log p(Y) at the fitted multipliers.
func (m *MEU) LogLikelihood() float64 { m.mustFit(); return m.logLik }

// Iterations returns the number of L-BFGS iterations of the fit.
func (m *MEU) Iterations() int { m.mustFit(); return m.iters }

// CovarianceTo stores K = (L+γI)⁻¹ (n×n) in dst.
func (m *MEU) CovarianceTo(dst *mat.SymDense) { m.mustFit(); copySym(dst, m.cov) }

// LaplacianTo stores the fitted Laplacian L (n×n) in dst.
func (m *MEU) LaplacianTo(dst *mat.SymDense) { m.mustFit(); copySym(dst, m.lap) }

// EigenvaluesTo stores the q leading eigenvalues of H K H in dst (nil
// allocates) and returns it.
func (m *MEU) EigenvaluesTo(dst []float64) []float64 { m.mustFit(); return copyVals(dst, m.vals) }

// covarianceEmbedding returns X = U_q Λ_q^{1/2} from the top q eigenpairs
// of H C H, the principal coordinates of a covariance C over the points
// (MEU, DRILL, acyclic LLE). Eigenvalues below zero (round-off) give zero
// coordinates.
func covarianceEmbedding(C mat.Symmetric, q int) (*mat.Dense, []float64, error) {
	n := C.SymmetricDim()
	B := centreSym(C)
	vals, vecs, err := linalg.EigenSym(B, q, linalg.Largest, nil)
	if err != nil {
		return nil, nil, err
	}
	X := mat.NewDense(n, q, nil)
	for j := 0; j < q; j++ {
		s := math.Sqrt(math.Max(vals[j], 0))
		for i := 0; i < n; i++ {
			X.Set(i, j, s*vecs.At(i, j))
		}
	}
	return X, vals, nil
}

// centreSym returns H C H, H = I − n⁻¹11ᵀ.
func centreSym(C mat.Symmetric) *mat.SymDense {
	n := C.SymmetricDim()
	r := make([]float64, n)
	var g float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			r[i] += C.At(i, j)
		}
		g += r[i]
		r[i] /= float64(n)
	}
	g /= float64(n * n)
	B := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			B.SetSym(i, j, C.At(i, j)-r[i]-r[j]+g)
		}
	}
	return B
}

func copyLatent(dst, x *mat.Dense) {
	n, q := x.Dims()
	dense.ReuseAs(dst, n, q) // the package's dst rule (nil panics too)
	dst.Copy(x)
}

func copySym(dst, a *mat.SymDense) {
	dense.ReuseAsSym(dst, a.SymmetricDim())
	dst.CopySym(a)
}

func copyVals(dst, v []float64) []float64 {
	return dense.CopyVecTo(dst, v) // the package's dst rule: nil or empty allocates
}

var _ SpectralModel = (*MEU)(nil)

// Implied returns the field's centred covariance B = H K H (n×n), whose
// top eigenvectors scaled by √λ are the embedding (the unifying view of
// the spectral methods, paper §2).
func (m *MEU) Implied() ImpliedMatrix {
	m.mustFit()
	return ImpliedMatrix{Covariance: centreSym(m.cov)}
}

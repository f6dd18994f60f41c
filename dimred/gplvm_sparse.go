package dimred

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"gonum.org/v1/gonum/mat"
)

// The sparse GP-LVM (GPLVM.Inducing = m > 0) replaces the exact
// log-likelihood by the variational lower bound of Titsias (2009,
// "Variational learning of inducing variables in sparse Gaussian
// processes"), GPmat's "dtcvar" approximation, with m inducing inputs Z
// (m×q) optimised with X:
//
//	F = Σ_d log N(y_:,d | 0, Q + σ²I) − (p/(2σ²)) tr(K_nn − Q),
//	Q = K_nm K_mm⁻¹ K_mn,
//
// so F ≤ log p(Y | X) with equality when the inducing inputs are the
// latent points (Z = X, m = n). With P = K_nm (n×m), Φ = PᵀP, Ψ = PᵀY and
// A = σ²K_mm + Φ (m×m), the determinant lemma and Woodbury's identity give
//
//	F = −(np/2) log 2π − (p(n−m)/2) log σ² − (p/2) log|A| + (p/2) log|K_mm|
//	    − tr(YᵀY)/(2σ²) + tr(ΨᵀA⁻¹Ψ)/(2σ²)
//	    − (p/(2σ²)) (Σ_i k(x_i, x_i) − tr(K_mm⁻¹Φ)),
//
// which costs O(nm² + nmp) — linear in n. Its gradients with respect to
// P, K_mm and diag K_nn are chained through the kernel's cross-covariance
// derivatives (kernel.CrossParamKernel). K_mm carries a jitter ε of
// 10⁻⁸ times its mean diagonal, so inducing inputs may meet without
// breaking its Cholesky factor; at Z = X the bound is then below the exact
// log-likelihood by O(npε/σ² + ‖Y‖²ε/σ⁴).

// sparseBound computes F and, when wantGrad, adds its gradient to dX, dZ
// and gTheta and returns ∂F/∂log σ². It works with K_mm = LLᵀ,
// V = L⁻¹K_mn (m×n) and B = I + VVᵀ/σ² (eigenvalues ≥ 1), so that
// σ²K_mm + Φ = σ²LBLᵀ is never formed (its condition number is that of K_mm
// squared):
//
//	F = −(np/2) log 2πσ² − (p/2) log|B| − (tr YᵀY − tr((VY)ᵀE))/(2σ²)
//	    − (p/(2σ²))(Σ_i k(x_i, x_i) − ‖V‖²_F),   E = B⁻¹VY/σ².
//
// Every gradient with respect to K_mm and Φ is L⁻ᵀ M L⁻¹ for a
// well-conditioned m×m M.
func (f *gplvmFit) sparseBound(dX, dZ *mat.Dense, gTheta []float64, wantGrad bool) (F, gLogS2 float64, err error) {
	n, p := f.n, f.p
	m, _ := f.z.Dims()
	s2 := f.sigma2
	P := mat.NewDense(n, m, nil)
	f.kern.CrossGramTo(P, f.x, f.z)
	kmm, err := f.kmm()
	if err != nil {
		return 0, 0, err
	}
	var chK mat.Cholesky
	if !chK.Factorize(kmm) {
		return 0, 0, fmt.Errorf("%w: GPLVM inducing covariance K_mm is not positive definite", ErrSingular)
	}
	var L mat.TriDense
	chK.LTo(&L)
	V := mat.DenseCopyOf(P.T()) // m×n
	triSolve(blas.Left, blas.NoTrans, &L, V)
	vvt := mat.NewSymDense(m, nil)
	vvt.SymOuterK(1, V)
	B := mat.NewSymDense(m, nil)
	B.ScaleSym(1/s2, vvt)
	for i := range m {
		B.SetSym(i, i, B.At(i, i)+1)
	}
	var chB mat.Cholesky
	if !chB.Factorize(B) {
		return 0, 0, fmt.Errorf("%w: GPLVM I + VVᵀ/σ² is not positive definite", ErrSingular)
	}
	_, py := f.yfit.Dims()
	VY := mat.NewDense(m, py, nil)
	VY.Mul(V, f.yfit)
	E := mat.NewDense(m, py, nil)
	if err := illConditioned(chB.SolveTo(E, VY)); err != nil {
		return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	E.Scale(1/s2, E)
	d := f.kern.DiagTo(nil, f.x)
	var sumD, trYY, tVE, vv float64
	for _, v := range d {
		sumD += v
	}
	for _, v := range f.yfit.RawMatrix().Data {
		trYY += v * v
	}
	vyd, ed := VY.RawMatrix().Data, E.RawMatrix().Data
	for i := range vyd {
		tVE += vyd[i] * ed[i]
	}
	for i := range m {
		vv += vvt.At(i, i)
	}
	fp, fn, fm := float64(p), float64(n), float64(m)
	F = -0.5*fn*fp*math.Log(2*math.Pi*s2) - 0.5*fp*chB.LogDet() -
		(trYY-tVE)/(2*s2) - fp/(2*s2)*(sumD-vv)
	if math.IsNaN(F) || math.IsInf(F, 0) {
		return 0, 0, fmt.Errorf("%w: GPLVM variational bound %v", ErrOverflow, F)
	}
	if !wantGrad {
		return F, 0, nil
	}
	var binv mat.SymDense
	if err := illConditioned(chB.InverseTo(&binv)); err != nil {
		return 0, 0, fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	eet := mat.NewSymDense(m, nil)
	eet.SymOuterK(1, E)
	// ∂F/∂Φ = L⁻ᵀ Mφ L⁻¹, Mφ = (p/(2σ²))(I − B⁻¹) − EEᵀ/(2σ²);
	// ∂F/∂K_mm = L⁻ᵀ MK L⁻¹, MK = (p/2)(I − B⁻¹) − (p/(2σ²))VVᵀ − ½EEᵀ.
	mphi := mat.NewDense(m, m, nil)
	mk := mat.NewDense(m, m, nil)
	var trBinv, ee float64
	for i := range m {
		trBinv += binv.At(i, i)
		ee += eet.At(i, i)
		for j := range m {
			id := 0.0
			if i == j {
				id = 1
			}
			ib := id - binv.At(i, j)
			mphi.Set(i, j, fp/(2*s2)*ib-eet.At(i, j)/(2*s2))
			mk.Set(i, j, 0.5*fp*ib-fp/(2*s2)*vvt.At(i, j)-0.5*eet.At(i, j))
		}
	}
	triSolve(blas.Left, blas.Trans, &L, mk)
	triSolve(blas.Right, blas.NoTrans, &L, mk)
	dK := mat.NewSymDense(m, nil)
	for i := range m {
		for j := i; j < m; j++ {
			dK.SetSym(i, j, 0.5*(mk.At(i, j)+mk.At(j, i)))
		}
	}
	// ∂F/∂P = (2VᵀMφ + YEᵀ/σ²) L⁻¹.
	dP := mat.NewDense(n, m, nil)
	dP.Mul(V.T(), mphi)
	dP.Scale(2, dP)
	yet := mat.NewDense(n, m, nil)
	yet.Mul(f.yfit, E.T())
	yet.Scale(1/s2, yet)
	dP.Add(dP, yet)
	triSolve(blas.Right, blas.NoTrans, &L, dP)
	// ∂F/∂diag K_nn = −p/(2σ²).
	w := make([]float64, n)
	for i := range w {
		w[i] = -fp / (2 * s2)
	}
	f.kern.CrossGrad(gTheta, dX, dZ, dP, f.x, f.z)
	f.kern.DiagGrad(gTheta, dX, w, f.x)
	gk := make([]float64, len(gTheta))
	f.kern.ParamGrad(gk, dK, f.z)
	for i := range gk {
		gTheta[i] += gk[i]
	}
	f.kern.LatentGrad(dZ, dK, f.z)
	// ∂F/∂σ² (tr(∂F/∂A K_mm) = −(p/(2σ²)) tr B⁻¹ − ‖E‖²/(2σ²)), times σ².
	s4 := s2 * s2
	dS2 := -fp*(fn-fm)/(2*s2) - fp/(2*s2)*trBinv - ee/(2*s2) + (trYY-tVE)/(2*s4) + fp/(2*s4)*(sumD-vv)
	return F, s2 * dS2, nil
}

// triSolve overwrites b by L⁻¹b, L⁻ᵀb (side Left) or bL⁻¹, bL⁻ᵀ (Right)
// for the lower triangular L.
func triSolve(side blas.Side, tA blas.Transpose, L *mat.TriDense, b *mat.Dense) {
	blas64.Trsm(side, tA, 1, L.RawTriangular(), b.RawMatrix())
}

// kmm returns K_mm = k(Z, Z) + jitter·I.
func (f *gplvmFit) kmm() (*mat.SymDense, error) {
	m, _ := f.z.Dims()
	kmm := mat.NewSymDense(m, nil)
	f.kern.GramTo(kmm, f.z)
	rel := f.jitter
	if rel == 0 {
		rel = 1e-8
	}
	jitter := rel * mat.Trace(kmm) / float64(m)
	for i := range m {
		kmm.SetSym(i, i, kmm.At(i, i)+jitter)
	}
	return kmm, nil
}

// sparsePredictive stores the predictive quantities of the sparse model:
// mean k(x*, Z) A⁻¹Ψ, variance k(x*, x*) − k(x*, Z)(K_mm⁻¹ − σ²A⁻¹)k(Z, x*) + σ²
// (Titsias 2009, eq. 6 with the optimal q(u)).
func (f *gplvmFit) sparsePredictive() error {
	m, _ := f.z.Dims()
	P := mat.NewDense(f.n, m, nil)
	f.kern.CrossGramTo(P, f.x, f.z)
	kmm, _ := f.kmm()
	var chK, chB mat.Cholesky
	if !chK.Factorize(kmm) {
		return fmt.Errorf("%w: GPLVM inducing covariance K_mm is not positive definite", ErrSingular)
	}
	var L mat.TriDense
	chK.LTo(&L)
	V := mat.DenseCopyOf(P.T())
	triSolve(blas.Left, blas.NoTrans, &L, V)
	B := mat.NewSymDense(m, nil)
	B.SymOuterK(1/f.sigma2, V)
	for i := range m {
		B.SetSym(i, i, B.At(i, i)+1)
	}
	if !chB.Factorize(B) {
		return fmt.Errorf("%w: GPLVM I + VVᵀ/σ² is not positive definite", ErrSingular)
	}
	// α = A⁻¹Ψ = L⁻ᵀB⁻¹VY/σ²; W = K_mm⁻¹ − σ²A⁻¹ = L⁻ᵀ(I − B⁻¹)L⁻¹.
	VY := mat.NewDense(m, f.p, nil)
	VY.Mul(V, f.yc)
	f.alpha = mat.NewDense(m, f.p, nil)
	if err := illConditioned(chB.SolveTo(f.alpha, VY)); err != nil {
		return fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	f.alpha.Scale(1/f.sigma2, f.alpha)
	triSolve(blas.Left, blas.Trans, &L, f.alpha)
	var binv mat.SymDense
	if err := illConditioned(chB.InverseTo(&binv)); err != nil {
		return fmt.Errorf("%w: GPLVM: %v", ErrSingular, err)
	}
	wd := mat.NewDense(m, m, nil)
	for i := range m {
		for j := range m {
			v := -binv.At(i, j)
			if i == j {
				v++
			}
			wd.Set(i, j, v)
		}
	}
	triSolve(blas.Left, blas.Trans, &L, wd)
	triSolve(blas.Right, blas.NoTrans, &L, wd)
	f.w = mat.NewSymDense(m, nil)
	for i := range m {
		for j := i; j < m; j++ {
			f.w.SetSym(i, j, 0.5*(wd.At(i, j)+wd.At(j, i)))
		}
	}
	f.basis = f.z
	return nil
}

// illConditioned drops gonum's mat.Condition warning (the result was
// computed; the Cholesky factorisation had succeeded) and keeps other
// errors.
func illConditioned(err error) error {
	var c mat.Condition
	if errors.As(err, &c) {
		return nil
	}
	return err
}

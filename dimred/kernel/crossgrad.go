package kernel

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/parallel"
	"gonum.org/v1/gonum/mat"
)

// CrossParamKernel is a ParamKernel with the derivatives of a
// cross-covariance matrix K_ij = k(a_i, b_j) between two sets of points,
// A (n×q) and B (m×q), and of the diagonal k(x_i, x_i). Sparse Gaussian
// processes need them: the inducing-point approximations of the GP-LVM
// touch the n×n covariance only through K_nm (data against m inducing
// points), K_mm and diag K_nn, so their gradients cost O(nmq), not O(n²q).
//
// Derivatives are contracted with a matrix G of ∂f/∂K (n×m) or a vector w
// of ∂f/∂diag K (length n), and are added to the destinations:
//
//	CrossGrad: g_t += Σ_ij G_ij ∂K_ij/∂θ_t,
//	           (dA)_ik += Σ_j G_ij ∂k(a_i, b_j)/∂a_ik,
//	           (dB)_jk += Σ_i G_ij ∂k(a_i, b_j)/∂b_jk;
//	DiagGrad:  g_t += Σ_i w_i ∂k(x_i, x_i)/∂θ_t,  (dX)_ik += w_i ∂k(x_i, x_i)/∂x_ik.
//
// Any of g, dA, dB, dX may be nil (not wanted); dA and dB may be the same
// matrix (then A and B should be the same points: the full derivative of a
// Gram matrix). The white-noise kernel is defined by index, so its cross
// covariance between two different sets is zero and its diagonal is σ².
type CrossParamKernel interface {
	ParamKernel
	// CrossGramTo stores K_ij = k(a_i, b_j) in dst, n×m (an empty dst is
	// resized; a wrong size panics).
	CrossGramTo(dst *mat.Dense, A, B mat.Matrix)
	// DiagTo stores k(x_i, x_i) in dst (len n; nil allocates) and returns it.
	DiagTo(dst []float64, X mat.Matrix) []float64
	// CrossGrad adds the contracted derivatives of K = k(A, B) (see the
	// type's doc).
	CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix)
	// DiagGrad adds the contracted derivatives of diag k(X, X).
	DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix)
}

var (
	_ CrossParamKernel = (*RBF)(nil)
	_ CrossParamKernel = (*Bias)(nil)
	_ CrossParamKernel = (*White)(nil)
	_ CrossParamKernel = (*Linear)(nil)
	_ CrossParamKernel = Sum(nil)
)

func crossShapes(dst *mat.Dense, A, B mat.Matrix) (n, m, q int) {
	n, q = A.Dims()
	m, qb := B.Dims()
	if q != qb {
		panic(mat.ErrShape)
	}
	if dst != nil {
		dense.ReuseAs(dst, n, m)
	}
	return n, m, q
}

func checkGradShapes(g []float64, np int, dA, dB *mat.Dense, G mat.Matrix, n, m, q int) {
	if g != nil {
		checkLen(g, np)
	}
	if r, c := G.Dims(); r != n || c != m {
		panic(mat.ErrShape)
	}
	if dA != nil {
		if r, c := dA.Dims(); r != n || c != q {
			panic(mat.ErrShape)
		}
	}
	if dB != nil {
		if r, c := dB.Dims(); r != m || c != q {
			panic(mat.ErrShape)
		}
	}
}

func diagDst(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(mat.ErrShape)
	}
	return dst
}

// CrossGramTo stores σ² exp(−‖a_i − b_j‖²/(2ℓ²)).
func (k *RBF) CrossGramTo(dst *mat.Dense, A, B mat.Matrix) {
	kv := k.resolved()
	crossShapes(dst, A, B)
	Cross(dst, kv, A, B)
}

// DiagTo stores σ².
func (k *RBF) DiagTo(dst []float64, X mat.Matrix) []float64 {
	kv := k.resolved()
	n, _ := X.Dims()
	dst = diagDst(dst, n)
	for i := range dst {
		dst[i] = kv.Variance
	}
	return dst
}

// CrossGrad: ∂k/∂log σ² = k, ∂k/∂log ℓ = k‖a − b‖²/ℓ²,
// ∂k/∂a = k (b − a)/ℓ², ∂k/∂b = k (a − b)/ℓ². Rows of A are split over
// the cores.
func (k *RBF) CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix) {
	kv := k.resolved()
	n, m, q := crossShapes(nil, A, B)
	checkGradShapes(g, 2, dA, dB, G, n, m, q)
	a, b, gd := dense.AsDense(A), dense.AsDense(B), dense.AsDense(G)
	il2 := 1 / (kv.LengthScale * kv.LengthScale)
	bounds := parallel.ChunkBounds(n, max(1, (1<<14)/max(1, m*q)))
	w := len(bounds) - 1
	gs := make([][2]float64, w)
	var dBs []*mat.Dense
	if dB != nil {
		dBs = make([]*mat.Dense, w)
	}
	parallel.RunChunks(bounds, func(t, lo, hi int) {
		var dBt *mat.Dense
		if dB != nil {
			dBt = mat.NewDense(m, q, nil)
			dBs[t] = dBt
		}
		var gv, gl float64
		for i := lo; i < hi; i++ {
			ai := a.RawRowView(i)
			gi := gd.RawRowView(i)
			var dai []float64
			if dA != nil {
				dai = make([]float64, q)
			}
			for j := 0; j < m; j++ {
				if gi[j] == 0 {
					continue
				}
				bj := b.RawRowView(j)
				r2 := sqDist(ai, bj)
				kij := kv.Variance * math.Exp(-0.5*r2*il2)
				gk := gi[j] * kij
				gv += gk
				if gk == 0 {
					continue // underflowed: no 0·Inf from inputs ~1e300 apart
				}
				gl += gk * r2 * il2
				c := gk * il2
				if dai != nil {
					for d := range q {
						dai[d] += c * (bj[d] - ai[d])
					}
				}
				if dBt != nil {
					row := dBt.RawRowView(j)
					for d := range q {
						row[d] += c * (ai[d] - bj[d])
					}
				}
			}
			if dai != nil {
				row := dA.RawRowView(i)
				for d := range q {
					row[d] += dai[d]
				}
			}
		}
		gs[t] = [2]float64{gv, gl}
	})
	for t := range w {
		if g != nil {
			g[0] += gs[t][0]
			g[1] += gs[t][1]
		}
		if dB != nil {
			dB.Add(dB, dBs[t])
		}
	}
}

// DiagGrad: the diagonal σ² depends on log σ² only.
func (k *RBF) DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix) {
	kv := k.resolved()
	if g != nil {
		checkLen(g, 2)
		g[0] += kv.Variance * sumOf(w)
	}
}

// CrossGramTo stores σ².
func (k *Bias) CrossGramTo(dst *mat.Dense, A, B mat.Matrix) {
	n, m, _ := crossShapes(dst, A, B)
	raw := dst.RawMatrix()
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+m]
		for j := range row {
			row[j] = k.Variance
		}
	}
}

// DiagTo stores σ².
func (k *Bias) DiagTo(dst []float64, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	dst = diagDst(dst, n)
	for i := range dst {
		dst[i] = k.Variance
	}
	return dst
}

// CrossGrad: g += σ² Σ_ij G_ij; no input dependence.
func (k *Bias) CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix) {
	n, m, q := crossShapes(nil, A, B)
	checkGradShapes(g, 1, dA, dB, G, n, m, q)
	if g != nil {
		g[0] += k.Variance * mat.Sum(G)
	}
}

// DiagGrad: g += σ² Σ_i w_i.
func (k *Bias) DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix) {
	if g != nil {
		checkLen(g, 1)
		g[0] += k.Variance * sumOf(w)
	}
}

// CrossGramTo stores zeros: two different sets of points share no index.
func (k *White) CrossGramTo(dst *mat.Dense, A, B mat.Matrix) {
	crossShapes(dst, A, B)
	dst.Zero()
}

// DiagTo stores σ².
func (k *White) DiagTo(dst []float64, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	dst = diagDst(dst, n)
	for i := range dst {
		dst[i] = k.Variance
	}
	return dst
}

// CrossGrad adds nothing (the cross covariance is zero).
func (k *White) CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix) {
	n, m, q := crossShapes(nil, A, B)
	checkGradShapes(g, 1, dA, dB, G, n, m, q)
}

// DiagGrad: g += σ² Σ_i w_i.
func (k *White) DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix) {
	if g != nil {
		checkLen(g, 1)
		g[0] += k.Variance * sumOf(w)
	}
}

// NumParams, ParamNames, Params and SetParams make *Linear a ParamKernel
// with θ = (log σ²); a zero Variance is σ² = 1 (Params reports 0).
func (k *Linear) NumParams() int       { return 1 }
func (k *Linear) ParamNames() []string { return []string{"linear log variance"} }
func (k *Linear) Params(dst []float64) []float64 {
	kv := k.variance()
	dst = paramDst(dst, 1)
	dst[0] = math.Log(kv)
	return dst
}
func (k *Linear) SetParams(theta []float64) {
	checkLen(theta, 1)
	k.Variance = math.Exp(theta[0])
}

// GramTo stores σ² XXᵀ.
func (k *Linear) GramTo(dst *mat.SymDense, X mat.Matrix) {
	kv := k.variance()
	n, _ := X.Dims()
	sizeSym(dst, n)
	Gram(dst, Linear{}, X)
	dst.ScaleSym(kv, dst)
}

// ParamGrad sets g_0 = σ² Σ_ij G_ij x_iᵀx_j.
func (k *Linear) ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix) {
	checkLen(g, 1)
	g[0] = 0
	k.CrossGrad(g, nil, nil, G, X, X)
}

// LatentGrad adds 2σ² G X to dst.
func (k *Linear) LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix) {
	k.CrossGrad(nil, dst, dst, G, X, X)
}

// CrossGramTo stores σ² ABᵀ.
func (k *Linear) CrossGramTo(dst *mat.Dense, A, B mat.Matrix) {
	kv := k.variance()
	crossShapes(dst, A, B)
	dst.Mul(A, B.T())
	dst.Scale(kv, dst)
}

// DiagTo stores σ²‖x_i‖².
func (k *Linear) DiagTo(dst []float64, X mat.Matrix) []float64 {
	kv := k.variance()
	n, _ := X.Dims()
	dst = diagDst(dst, n)
	x := dense.AsDense(X)
	for i := range dst {
		r := x.RawRowView(i)
		dst[i] = kv * dotOf(r, r)
	}
	return dst
}

// CrossGrad: g += σ² Σ_ij G_ij a_iᵀb_j, dA += σ² G B, dB += σ² Gᵀ A.
func (k *Linear) CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix) {
	kv := k.variance()
	n, m, q := crossShapes(nil, A, B)
	checkGradShapes(g, 1, dA, dB, G, n, m, q)
	var ga, gb *mat.Dense
	if g != nil || dA != nil {
		ga = mat.NewDense(n, q, nil)
		ga.Mul(G, B)
	}
	if dB != nil {
		gb = mat.NewDense(m, q, nil)
		gb.Mul(G.T(), A)
	}
	if g != nil {
		var s float64
		for i := range n {
			for d := range q {
				s += ga.At(i, d) * A.At(i, d)
			}
		}
		g[0] += kv * s
	}
	if dA != nil {
		dA.Apply(func(i, j int, v float64) float64 { return v + kv*ga.At(i, j) }, dA)
	}
	if dB != nil {
		dB.Apply(func(i, j int, v float64) float64 { return v + kv*gb.At(i, j) }, dB)
	}
}

// DiagGrad: g += σ² Σ_i w_i‖x_i‖², dX_i += 2σ² w_i x_i.
func (k *Linear) DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix) {
	kv := k.variance()
	x := dense.AsDense(X)
	for i, wi := range w {
		r := x.RawRowView(i)
		if g != nil {
			g[0] += kv * wi * dotOf(r, r)
		}
		if dX != nil {
			row := dX.RawRowView(i)
			for d := range row {
				row[d] += 2 * kv * wi * r[d]
			}
		}
	}
}

func (s Sum) terms() []CrossParamKernel {
	out := make([]CrossParamKernel, len(s))
	for i, k := range s {
		ck, ok := k.(CrossParamKernel)
		if !ok {
			panic(fmt.Sprintf("dimred: Sum term %d (%T) is not a CrossParamKernel", i, k))
		}
		out[i] = ck
	}
	return out
}

// CrossGramTo stores Σ_m k_m(A, B).
func (s Sum) CrossGramTo(dst *mat.Dense, A, B mat.Matrix) {
	n, m, _ := crossShapes(dst, A, B)
	dst.Zero()
	tmp := mat.NewDense(n, m, nil)
	for _, k := range s.terms() {
		k.CrossGramTo(tmp, A, B)
		dst.Add(dst, tmp)
	}
}

// DiagTo stores Σ_m diag k_m(X, X).
func (s Sum) DiagTo(dst []float64, X mat.Matrix) []float64 {
	n, _ := X.Dims()
	dst = diagDst(dst, n)
	clear(dst)
	tmp := make([]float64, n)
	for _, k := range s.terms() {
		k.DiagTo(tmp, X)
		for i, v := range tmp {
			dst[i] += v
		}
	}
	return dst
}

// CrossGrad adds each term's derivatives, θ in the order of the terms.
func (s Sum) CrossGrad(g []float64, dA, dB *mat.Dense, G mat.Matrix, A, B mat.Matrix) {
	if g != nil {
		checkLen(g, s.NumParams())
	}
	off := 0
	for _, k := range s.terms() {
		np := k.NumParams()
		var gk []float64
		if g != nil {
			gk = g[off : off+np]
		}
		k.CrossGrad(gk, dA, dB, G, A, B)
		off += np
	}
}

// DiagGrad adds each term's derivatives.
func (s Sum) DiagGrad(g []float64, dX *mat.Dense, w []float64, X mat.Matrix) {
	if g != nil {
		checkLen(g, s.NumParams())
	}
	off := 0
	for _, k := range s.terms() {
		np := k.NumParams()
		var gk []float64
		if g != nil {
			gk = g[off : off+np]
		}
		k.DiagGrad(gk, dX, w, X)
		off += np
	}
}

func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

func dotOf(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

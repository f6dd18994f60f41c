package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// ParamKernel is a covariance function with hyperparameters θ and the
// derivatives a Gaussian process needs: of the Gram matrix with respect to
// θ (to fit the hyperparameters) and with respect to the inputs (to fit the
// latent points of a GP-LVM).
//
// Hyperparameters are exposed in an unconstrained form, the logarithm of
// each positive quantity (log σ², log ℓ, ...), so an optimiser may move
// them freely. Derivatives are contracted with a symmetric n×n matrix G,
// usually G = ∂f/∂K of a scalar objective f, so no n×n×|θ| array is formed:
//
//	ParamGrad:  g_t = Σ_ij G_ij ∂K_ij/∂θ_t
//	LatentGrad: (∂f/∂X)_ik = Σ_ab G_ab ∂K_ab/∂x_ik = 2 Σ_j G_ij ∂k(x_i, x_j)/∂x_ik
//
// (the last for G symmetric). Gram matrices are of the rows of X (n×q).
// The white-noise term is defined by index (k(x_i, x_j) = σ²δ_ij), so
// GramTo is the reference for a kernel's matrix, not Eval on pairs.
type ParamKernel interface {
	Kernel
	// NumParams returns |θ|.
	NumParams() int
	// ParamNames names the entries of θ, e.g. "log variance".
	ParamNames() []string
	// Params stores θ in dst (len |θ|; nil allocates) and returns it.
	Params(dst []float64) []float64
	// SetParams sets θ (len |θ|).
	SetParams(theta []float64)
	// GramTo stores K_ij = k(x_i, x_j) in dst, n×n (an empty dst is
	// resized; a wrong size panics).
	GramTo(dst *mat.SymDense, X mat.Matrix)
	// ParamGrad sets g (len |θ|) to Σ_ij G_ij ∂K_ij/∂θ_t.
	ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix)
	// LatentGrad adds Σ_ab G_ab ∂K_ab/∂x_ik to dst (n×q).
	LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix)
}

// resolved returns k with its default variance filled in, validating it
// (a non-positive or infinite ℓ or σ² panics).
func (k *RBF) resolved() RBF {
	v, _ := k.params()
	return RBF{Variance: v, LengthScale: k.LengthScale}
}

// NumParams, ParamNames, Params and SetParams make *RBF a ParamKernel
// with θ = (log σ², log ℓ); a zero Variance is σ² = 1 (Params reports
// log 1 = 0).
func (k *RBF) NumParams() int       { return 2 }
func (k *RBF) ParamNames() []string { return []string{"rbf log variance", "rbf log length scale"} }
func (k *RBF) Params(dst []float64) []float64 {
	kv := k.resolved()
	dst = paramDst(dst, 2)
	dst[0], dst[1] = math.Log(kv.Variance), math.Log(kv.LengthScale)
	return dst
}
func (k *RBF) SetParams(theta []float64) {
	checkLen(theta, 2)
	k.Variance, k.LengthScale = math.Exp(theta[0]), math.Exp(theta[1])
}

// GramTo stores the RBF Gram matrix of the rows of X.
func (k *RBF) GramTo(dst *mat.SymDense, X mat.Matrix) {
	kv := k.resolved()
	n, _ := X.Dims()
	sizeSym(dst, n)
	Gram(dst, kv, X)
}

// ParamGrad: ∂K_ij/∂log σ² = K_ij and ∂K_ij/∂log ℓ = K_ij ‖x_i − x_j‖²/ℓ².
func (k *RBF) ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix) {
	kv := k.resolved()
	checkLen(g, 2)
	n, q := X.Dims()
	checkG(G, n)
	il2 := 1 / (kv.LengthScale * kv.LengthScale)
	var gv, gl float64
	xd := mat.DenseCopyOf(X)
	gs := symRaw(G)
	for i := 0; i < n; i++ {
		xi := xd.RawRowView(i)
		gv += gs(i, i) * kv.Variance
		for j := i + 1; j < n; j++ {
			r2 := sqDist(xi, xd.RawRowView(j))
			kij := kv.Variance * math.Exp(-0.5*r2*il2)
			gij := 2 * gs(i, j)
			gv += gij * kij
			if kij != 0 {
				// k·r²/ℓ² → 0 as r → ∞; skipping the underflowed term
				// avoids 0·Inf = NaN for inputs ~1e300 apart.
				gl += gij * kij * r2 * il2
			}
		}
	}
	_ = q
	g[0], g[1] = gv, gl
}

// LatentGrad adds 2 Σ_j G_ij K_ij (x_j − x_i)/ℓ² to row i of dst.
func (k *RBF) LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix) {
	kv := k.resolved()
	n, q := X.Dims()
	checkG(G, n)
	if r, c := dst.Dims(); r != n || c != q {
		panic(mat.ErrShape)
	}
	il2 := 1 / (kv.LengthScale * kv.LengthScale)
	xd := mat.DenseCopyOf(X)
	gs := symRaw(G)
	for i := 0; i < n; i++ {
		xi := xd.RawRowView(i)
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			xj := xd.RawRowView(j)
			c := 2 * gs(i, j) * kv.Variance * math.Exp(-0.5*sqDist(xi, xj)*il2) * il2
			if c == 0 {
				continue // underflowed: no 0·Inf from far-apart inputs
			}
			for d := 0; d < q; d++ {
				dst.Set(i, d, dst.At(i, d)+c*(xj[d]-xi[d]))
			}
		}
	}
}

// Bias is the constant kernel k(x, x') = σ², θ = (log σ²): a random offset
// shared by every point.
type Bias struct {
	Variance float64 // σ² > 0
}

func (k *Bias) Eval(x, y []float64) float64 { return k.Variance }
func (k *Bias) NumParams() int              { return 1 }
func (k *Bias) ParamNames() []string        { return []string{"bias log variance"} }
func (k *Bias) Params(dst []float64) []float64 {
	dst = paramDst(dst, 1)
	dst[0] = math.Log(k.Variance)
	return dst
}
func (k *Bias) SetParams(theta []float64) { checkLen(theta, 1); k.Variance = math.Exp(theta[0]) }

// GramTo stores K_ij = σ².
func (k *Bias) GramTo(dst *mat.SymDense, X mat.Matrix) {
	n, _ := X.Dims()
	sizeSym(dst, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dst.SetSym(i, j, k.Variance)
		}
	}
}

// ParamGrad: ∂K_ij/∂log σ² = σ², so g = σ² Σ_ij G_ij.
func (k *Bias) ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix) {
	checkLen(g, 1)
	n, _ := X.Dims()
	checkG(G, n)
	var s float64
	for i := 0; i < n; i++ {
		s += G.At(i, i)
		for j := i + 1; j < n; j++ {
			s += 2 * G.At(i, j)
		}
	}
	g[0] = k.Variance * s
}

// LatentGrad adds nothing: the bias does not depend on the inputs.
func (k *Bias) LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix) {}

// White is the white-noise kernel k(x_i, x_j) = σ² δ_ij, θ = (log σ²),
// defined by index: GramTo adds σ² on the diagonal only. Eval, which sees
// two points and not their indices, returns σ² for identical points.
type White struct {
	Variance float64 // σ² > 0
}

func (k *White) Eval(x, y []float64) float64 {
	for i := range x {
		if x[i] != y[i] {
			return 0
		}
	}
	return k.Variance
}
func (k *White) NumParams() int       { return 1 }
func (k *White) ParamNames() []string { return []string{"white log variance"} }
func (k *White) Params(dst []float64) []float64 {
	dst = paramDst(dst, 1)
	dst[0] = math.Log(k.Variance)
	return dst
}
func (k *White) SetParams(theta []float64) { checkLen(theta, 1); k.Variance = math.Exp(theta[0]) }

// GramTo stores σ² I.
func (k *White) GramTo(dst *mat.SymDense, X mat.Matrix) {
	n, _ := X.Dims()
	sizeSym(dst, n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.0
			if i == j {
				v = k.Variance
			}
			dst.SetSym(i, j, v)
		}
	}
}

// ParamGrad: g = σ² tr G.
func (k *White) ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix) {
	checkLen(g, 1)
	n, _ := X.Dims()
	checkG(G, n)
	var s float64
	for i := 0; i < n; i++ {
		s += G.At(i, i)
	}
	g[0] = k.Variance * s
}

// LatentGrad adds nothing.
func (k *White) LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix) {}

// Sum is the sum of kernels, k = Σ_m k_m, with θ the concatenation of the
// terms' parameters in order. GPmat's "cmpnd" kernel; the GP-LVM score of
// the spectral paper uses Sum{&RBF{...}, &Bias{...}, &White{...}}.
type Sum []ParamKernel

func (s Sum) Eval(x, y []float64) float64 {
	var v float64
	for _, k := range s {
		v += k.Eval(x, y)
	}
	return v
}

func (s Sum) NumParams() int {
	var n int
	for _, k := range s {
		n += k.NumParams()
	}
	return n
}

func (s Sum) ParamNames() []string {
	var names []string
	for _, k := range s {
		names = append(names, k.ParamNames()...)
	}
	return names
}

func (s Sum) Params(dst []float64) []float64 {
	dst = paramDst(dst, s.NumParams())
	off := 0
	for _, k := range s {
		m := k.NumParams()
		k.Params(dst[off : off+m])
		off += m
	}
	return dst
}

func (s Sum) SetParams(theta []float64) {
	checkLen(theta, s.NumParams())
	off := 0
	for _, k := range s {
		m := k.NumParams()
		k.SetParams(theta[off : off+m])
		off += m
	}
}

// GramTo stores Σ_m K_m.
func (s Sum) GramTo(dst *mat.SymDense, X mat.Matrix) {
	n, _ := X.Dims()
	sizeSym(dst, n)
	dst.Zero()
	tmp := mat.NewSymDense(n, nil)
	for _, k := range s {
		k.GramTo(tmp, X)
		dst.AddSym(dst, tmp)
	}
}

func (s Sum) ParamGrad(g []float64, G mat.Symmetric, X mat.Matrix) {
	checkLen(g, s.NumParams())
	off := 0
	for _, k := range s {
		m := k.NumParams()
		k.ParamGrad(g[off:off+m], G, X)
		off += m
	}
}

func (s Sum) LatentGrad(dst *mat.Dense, G mat.Symmetric, X mat.Matrix) {
	for _, k := range s {
		k.LatentGrad(dst, G, X)
	}
}

func paramDst(dst []float64, n int) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	checkLen(dst, n)
	return dst
}

func checkLen(v []float64, n int) {
	if len(v) != n {
		panic(fmt.Sprintf("dimred: kernel parameter slice has length %d, want %d", len(v), n))
	}
}

func checkG(G mat.Symmetric, n int) {
	if G.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
}

func sizeSym(dst *mat.SymDense, n int) {
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
		return
	}
	if dst.SymmetricDim() != n {
		panic(mat.ErrShape)
	}
}

func sqDist(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// symRaw returns a fast accessor for the upper triangle (i ≤ j) of G.
func symRaw(G mat.Symmetric) func(i, j int) float64 {
	if sd, ok := G.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		if raw.Uplo == blas.Upper {
			return func(i, j int) float64 {
				if i > j {
					i, j = j, i
				}
				return raw.Data[i*raw.Stride+j]
			}
		}
	}
	return G.At
}

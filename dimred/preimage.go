package dimred

import (
	"fmt"
	"math"
	"sort"

	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"github.com/dimredbook/book/dimred/internal/dense"
	"github.com/dimredbook/book/dimred/internal/errs"

	"gonum.org/v1/gonum/mat"
)

// PreImage is an approximate inverse of a non-linear embedding such as
// kernel PCA: a map from latent positions x back to data space, learned by
// kernel ridge regression from the training pairs (x_i, y_i) (Bakır, Weston
// and Schölkopf 2004, "Learning to find pre-images"). Kernel PCA has no
// explicit inverse — a point of its latent space is a combination of
// feature vectors φ(y) that need not be the image of any y — so this is how
// one sees "what a point in latent space looks like".
//
// With L the n×n kernel matrix of the latent training points under the
// latent kernel k_x, and Ŷ the centred training data,
//
//	A = (L + λI)⁻¹ Ŷ,   y*(x) = ȳ + Σ_i k_x(x, x_i) a_i.
type PreImage struct {
	// Kernel is k_x, the kernel on the latent space; nil means an RBF
	// kernel with unit variance and ℓ the median distance between the
	// latent training points.
	Kernel kernel.Kernel
	// Lambda is λ, the ridge; 0 means 1e-3 (relative to a kernel of unit
	// variance). Negative panics.
	Lambda float64

	x    *mat.Dense // latent training points
	mean []float64  // ȳ
	a    *mat.Dense // A, n×p
	kern kernel.Kernel
}

// Fit learns the map from the n×q latent positions X to the n×p data Y.
// It returns an error wrapping ErrTooFewPoints for n < 2, ErrNaN for
// non-finite input, ErrOverflow when distances or centred values of finite
// input overflow, and ErrSingular if L + λI cannot be factorised; a Fit
// that fails (returns an error or panics) leaves the map unfitted (it never
// serves an earlier fit). Row counts that differ panic with mat.ErrShape,
// a negative or NaN Lambda with a "dimred: ..." message.
func (m *PreImage) Fit(X, Y mat.Matrix) (err error) {
	defer discardOnError(&err, &m.a)
	checkSettings("PreImage", m)
	n, _ := X.Dims()
	ny, p := Y.Dims()
	if n != ny {
		panic(mat.ErrShape)
	}
	if n < 2 {
		return fmt.Errorf("%w: PreImage needs n ≥ 2 points, have %d", ErrTooFewPoints, n)
	}
	if m.Lambda < 0 || math.IsNaN(m.Lambda) {
		panic(fmt.Sprintf("dimred: PreImage Lambda λ = %v must be non-negative", m.Lambda))
	}
	if err := errs.CheckFinite(X, "X"); err != nil {
		return err
	}
	if err := errs.CheckFinite(Y, "Y"); err != nil {
		return err
	}
	x := mat.DenseCopyOf(X)
	kern := m.Kernel
	if kern == nil {
		var d mat.SymDense
		linalg.PairwiseSquaredDistances(&d, x)
		if err := errs.CheckOverflow(&d, "PreImage squared distances of X"); err != nil {
			return err
		}
		vals := make([]float64, 0, n*(n-1)/2)
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				vals = append(vals, d.At(i, j))
			}
		}
		sort.Float64s(vals)
		med := math.Sqrt(vals[len(vals)/2])
		if med == 0 {
			med = 1
		}
		kern = kernel.RBF{LengthScale: med}
	}
	lambda := m.Lambda
	if lambda == 0 {
		lambda = 1e-3
	}
	L := mat.NewSymDense(n, nil)
	kernel.Gram(L, kern, x)
	for i := 0; i < n; i++ {
		L.SetSym(i, i, L.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(L) {
		return fmt.Errorf("%w: PreImage: latent kernel matrix plus λI (λ = %g) is not positive definite", ErrSingular, lambda)
	}
	var yc mat.Dense
	mean := linalg.CentreColumns(&yc, Y)
	if err := errs.CheckOverflow(&yc, "PreImage centred Y"); err != nil {
		return err
	}
	a := mat.NewDense(n, p, nil)
	if err := ch.SolveTo(a, &yc); err != nil {
		return fmt.Errorf("%w: PreImage: %v", ErrSingular, err)
	}
	if err := errs.CheckOverflow(a, "PreImage coefficients A = (L + λI)⁻¹Ŷ"); err != nil {
		return err
	}
	m.x, m.mean, m.a, m.kern = x, mean, a, kern
	return nil
}

// MapTo stores in dst (m×p) the pre-images of the m×q latent points Xnew.
// An empty dst is resized; a dst of another shape panics with mat.ErrShape,
// as does Xnew with the wrong number of columns. It panics before Fit and
// on a NaN or Inf in Xnew (the rule of Projector).
func (m *PreImage) MapTo(dst *mat.Dense, Xnew mat.Matrix) {
	if m.a == nil {
		panic("dimred: PreImage used before a successful Fit")
	}
	r, c := Xnew.Dims()
	if _, q := m.x.Dims(); c != q {
		panic(mat.ErrShape)
	}
	checkProjectInput("PreImage.MapTo", Xnew, "Xnew")
	_, p := m.a.Dims()
	var kx mat.Dense
	kernel.Cross(&kx, m.kern, Xnew, m.x)
	dense.ReuseAs(dst, r, p)
	dst.Mul(&kx, m.a)
	for i := 0; i < r; i++ {
		row := dst.RawRowView(i)
		for j := range row {
			row[j] += m.mean[j]
		}
	}
}

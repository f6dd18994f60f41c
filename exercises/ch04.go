package exercises

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/kernel"
)

// Chapter 4 — kernel PCA.

func init() {
	// 4.2: the number M of basis functions evenly spread over [−10, 10]
	// (kernel.UniformEQBasis, ℓ = 1, prior variance αΔμ with α = 1) from
	// which on the Riemann sum k_M(0, 1) matches the limit, the EQ kernel
	// k(0, 1) = α/√(2πℓ²)·exp(−1/(2ℓ²)) (book §4.2.1), to within 10⁻⁶:
	// the error changes sign as M grows, so the count is the smallest M
	// for which it stays within the tolerance for every larger M (checked
	// up to basisCountMax).
	Register("4.2", Answer{
		Want: func() (any, error) {
			if M := basisCount(1, 1e-6); M > 0 {
				return M, nil
			}
			return nil, fmt.Errorf("no M up to %d matches the kernel to 1e-6", basisCountMax)
		},
		Tol:  1e-12,
		Hint: "scan M = 2, 3, … and compare kernel.FeatureKernel{Map: basis, Variance: Δμ} at (0, 1) with kernel.RBF{Variance: 1/√(2π), LengthScale: 1}",
	})
}

// basisCountMax is the largest M basisCount tries.
const basisCountMax = 400

// basisCount is the smallest M ≥ 2 from which on (up to basisCountMax) the
// Riemann sum of M EQ basis functions of width ell on [−10, 10] is within
// tol of the EQ kernel at (0, 1), or 0 when even basisCountMax is not.
func basisCount(ell, tol float64) int {
	eq := kernel.RBF{Variance: 1 / math.Sqrt(2*math.Pi*ell*ell), LengthScale: ell}
	want := eq.Eval([]float64{0}, []float64{1})
	first := 0
	for M := basisCountMax; M >= 2; M-- {
		basis, dmu := kernel.UniformEQBasis(-10, 10, M, ell)
		fk := kernel.FeatureKernel{Map: basis, Variance: dmu}
		if math.Abs(fk.Eval([]float64{0}, []float64{1})-want) >= tol {
			break
		}
		first = M
	}
	return first
}

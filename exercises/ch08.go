package exercises

import "github.com/dimredbook/book/dimred"

// Chapter 8 — beyond the book: t-SNE and UMAP.

func init() {
	// 8.3: UMAP's edge model (1 + a d^{2b})⁻¹ for MinDist = 0.8, Spread = 1:
	// the a and b that fit, in least squares, the curve equal to 1 below
	// MinDist and exp(−(d − MinDist)/Spread) above (umap-learn's
	// find_ab_params; dimred.UMAPCurve).
	Register("8.3", Answer{
		Want: func() (any, error) {
			a, b := dimred.UMAPCurve(0.8, 1)
			return []float64{a, b}, nil
		},
		Tol:  1e-3,
		Hint: "two numbers, a then b; fit on d in [0, 3] (300 points), or read UMAP.CurveParams after a fit with MinDist 0.8",
	})
}

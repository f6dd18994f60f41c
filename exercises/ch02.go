package exercises

import (
	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// Chapter 2 — linear models.

func init() {
	// 2.2: the maximised PPCA log-likelihood of the oil training data
	// (1000×12) for q = 1, …, 11, log p(Y) = −(n/2)(p log 2π + log|C| +
	// tr(C⁻¹S)) with C = WWᵀ + σ²I at the closed-form maximum (Tipping &
	// Bishop 1999; the book's §2.5).
	Register("2.2", Answer{
		Want: func() (any, error) {
			ds, err := datasets.Oil("train")
			if err != nil {
				return nil, err
			}
			ll := make([]float64, 11)
			for q := 1; q <= 11; q++ {
				m := dimred.PPCA{Q: q}
				if err := m.Fit(ds.Y); err != nil {
					return nil, err
				}
				ll[q-1] = m.LogLikelihood()
			}
			return ll, nil
		},
		Tol:  1e-6,
		Hint: "11 numbers, q = 1 first: the total log-likelihood of the 1000 training points (dimred.PPCA's LogLikelihood), not per point",
	})
}

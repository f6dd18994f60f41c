package exercises

import "github.com/dimredbook/book/dimred/highdim"

// Chapter 1 — high-dimensional data.

func init() {
	// 1.2: the smallest p for which the green shell (radii 0.95σ√p to
	// 1.05σ√p, then 0.99σ√p to 1.01σ√p) holds more than 99 % of a
	// Gaussian's mass, from highdim.EggMasses (Figs 1.1–1.5).
	Register("1.2", Answer{
		Want: func() (any, error) {
			return []int{smallestShellDim(0.95, 1.05), smallestShellDim(0.99, 1.01)}, nil
		},
		Tol:  1e-12,
		Hint: "two numbers: the smallest p for the shell 0.95–1.05, then for 0.99–1.01; scan p upwards with highdim.EggMasses",
	})
}

// smallestShellDim is the smallest p with more than 99 % of the mass of
// N(0, σ²I_p) between radii lo·σ√p and hi·σ√p.
func smallestShellDim(lo, hi float64) int {
	for p := 1; ; p++ {
		if _, green, _ := highdim.EggMasses(p, lo, hi); green > 0.99 {
			return p
		}
	}
}

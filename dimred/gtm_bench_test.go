package dimred

import (
	"fmt"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
)

// GTM EM cost grows as n·m·p per iteration (m = g² grid points): ladders
// in the grid size g and in n, 50 EM iterations each.
func BenchmarkGTM(b *testing.B) {
	for _, c := range []struct{ n, g int }{{1000, 10}, {1000, 20}, {1000, 30}, {1000, 40}, {250, 20}, {500, 20}, {2000, 20}, {4000, 20}} {
		Y := gtmTestData(c.n, 1)
		b.Run(fmt.Sprintf("n=%d/grid=%d", c.n, c.g), func(b *testing.B) {
			done := benchutil.CPUMetric(b)
			for b.Loop() {
				m := &GTM{Q: 2, Grid: c.g, MaxIter: 50, Tol: -1}
				if err := m.Fit(Y); err != nil && !isNotConverged(err) {
					b.Fatal(err)
				}
			}
			done()
		})
	}
}

// Density network: 50 L-BFGS iterations, ladder in the number of samples.
func BenchmarkDensityNetwork(b *testing.B) {
	Y := gtmTestData(1000, 1)
	for _, m := range []int{100, 200, 400, 800} {
		b.Run(fmt.Sprintf("n=1000/samples=%d", m), func(b *testing.B) {
			done := benchutil.CPUMetric(b)
			for b.Loop() {
				d := &DensityNetwork{Q: 2, Samples: m, MaxIter: 50, Tol: -1}
				if err := d.Fit(Y); err != nil && !isNotConverged(err) {
					b.Fatal(err)
				}
			}
			done()
		})
	}
}

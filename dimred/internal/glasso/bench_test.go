package glasso

import (
	"fmt"
	"testing"
)

// Size ladder on DRILL-like data (n points on a closed curve in p = 30
// dimensions with N(0, 0.2²) noise, S = ŶŶᵀ/p of rank ≤ 29): the k = 7
// neighbourhood graph with ρ = 0 (DRILL, paper Fig 6c) and every pair
// allowed with an L1 penalty and penalised diagonal (paper Fig 9), both at
// the default Tol = 1e-4. The number of sweeps depends on the conditioning
// of the data (noise 0.05 needs about 7× more), so "sweeps" is reported
// with the time.
func BenchmarkGraphK7(b *testing.B) {
	for _, n := range []int{100, 215, 500} {
		y := noisyCurve(n, 30, 0.2, 100)
		S := secondMoment(y)
		g := knn(y, 7)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var it int
			for i := 0; i < b.N; i++ {
				res, err := Solve(S, Penalty{Graph: g}, &Settings{MaxIter: 20000})
				if err != nil {
					b.Fatal(err)
				}
				it = res.Iterations
			}
			b.ReportMetric(float64(it), "sweeps")
		})
	}
}

func BenchmarkAllPairs(b *testing.B) {
	for _, n := range []int{100, 215, 500} {
		S := secondMoment(noisyCurve(n, 30, 0.2, 100))
		for _, rho := range []float64{0.01, 0.002} {
			b.Run(fmt.Sprintf("n=%d/rho=%g", n, rho), func(b *testing.B) {
				var it, edges int
				for i := 0; i < b.N; i++ {
					res, err := Solve(S, Penalty{Rho: rho}, &Settings{PenaliseDiagonal: true})
					if err != nil {
						b.Fatal(err)
					}
					it, edges = res.Iterations, res.Edges
				}
				b.ReportMetric(float64(it), "sweeps")
				b.ReportMetric(float64(edges), "edges")
			})
		}
	}
}

// The robot WiFi data, 215×30, k = 7, ρ = 0 (paper Fig 6c).
func BenchmarkRobotK7(b *testing.B) {
	y := robotData(b)
	S := secondMoment(y)
	g := knn(y, 7)
	var it int
	for i := 0; i < b.N; i++ {
		res, err := Solve(S, Penalty{Graph: g}, nil)
		if err != nil {
			b.Fatal(err)
		}
		it = res.Iterations
	}
	b.ReportMetric(float64(it), "sweeps")
}

package dimred

import (
	"fmt"
	"testing"
)

// BenchmarkMVU times a whole MVU fit (graph, SDP, eigendecomposition) on a
// noisy half circle in 30 dimensions, k = 7 (the robot WiFi setting), for
// a ladder of sizes; the SDP's iterations and constraint count m are
// reported beside the time. Each interior-point iteration costs
// O(m³ + n³) with m ≈ nk/2 … nk, so time grows roughly as n³.
func BenchmarkMVU(b *testing.B) {
	for _, n := range []int{50, 100, 200} {
		Y := mvuArc(n, 30, 0.05, 7)
		b.Run(fmt.Sprintf("n=%d/k=7", n), func(b *testing.B) {
			var r SDPReport
			cpu0 := mvuCPU()
			for i := 0; i < b.N; i++ {
				m := &MVU{Q: 2, K: 7}
				if err := m.Fit(Y); err != nil {
					b.Fatal(err)
				}
				r = m.SDPReport()
			}
			// CPU time per fit (both cores), beside the wall time: on a
			// shared machine it is the steadier of the two.
			b.ReportMetric(float64((mvuCPU()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(r.Iter), "iters")
			b.ReportMetric(float64(r.Constraints), "m")
		})
	}
}

package sdp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// noisySwissRoll is the swiss roll of swissRoll in the first three of p
// coordinates plus N(0, σ²) noise in all p. Noise in more dimensions than a
// neighbourhood has points keeps the MVU programme strictly feasible (exact
// 3-D data with cliques of five or more mutual neighbours does not; see MVU).
func noisySwissRoll(n, p int, sigma float64, seed uint64) *mat.Dense {
	sr := swissRoll(n, seed)
	rnd := rand.New(rand.NewPCG(seed, 13))
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < p; c++ {
			v := sigma * rnd.NormFloat64()
			if c < 3 {
				v += sr.At(i, c)
			}
			y.Set(i, c, v)
		}
	}
	return y
}

// BenchmarkMVU times MVU on a noisy swiss roll in 30 dimensions with a kNN
// graph, for a ladder of sizes; n = 215, k = 7 is the size of the robot WiFi
// experiment of the spectral paper (30-D signal strengths, Fig. 5), n = 55,
// k = 6 the stick man (Fig. 3). m is the number of distance constraints.
func BenchmarkMVU(b *testing.B) {
	for _, c := range []struct{ n, k int }{{50, 6}, {55, 6}, {100, 6}, {200, 6}, {215, 7}} {
		y := noisySwissRoll(c.n, 30, 0.1, 11)
		pairs, sq := knn(y, c.k)
		p, _, _ := mvuProblem(c.n, pairs, sq, nil, nil)
		b.Run(fmt.Sprintf("n=%d/k=%d/m=%d", c.n, c.k, len(p.A)), func(b *testing.B) {
			var iters int
			for i := 0; i < b.N; i++ {
				_, res, err := MVU(c.n, pairs, sq, nil)
				if err != nil {
					b.Fatal(err)
				}
				iters = res.Iter
			}
			b.ReportMetric(float64(iters), "iters")
		})
	}
}

// BenchmarkMVUExact3D times MVU on an exact 3-D swiss roll, whose affinely
// dependent cliques leave no strictly feasible point: the anchored solve
// stalls and MVU re-solves on the reduced face (two solves).
func BenchmarkMVUExact3D(b *testing.B) {
	for _, n := range []int{50, 100, 200} {
		y := swissRoll(n, 11)
		pairs, sq := knn(y, 6)
		b.Run(fmt.Sprintf("n=%d/k=6", n), func(b *testing.B) {
			var res Result
			var err error
			for i := 0; i < b.N; i++ {
				_, res, err = MVU(n, pairs, sq, nil)
			}
			b.ReportMetric(float64(res.Iter), "iters")
			b.ReportMetric(merit(res), "merit")
			if err != nil {
				b.Log(err)
			}
		})
	}
}

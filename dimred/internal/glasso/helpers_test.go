package glasso

import (
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// curveData returns n points on a closed curve embedded in p dimensions by
// a random linear map, plus N(0, 0.05²) noise: a stand-in for DRILL's data
// (points whose neighbours are strongly correlated).
func curveData(n, p int, seed uint64) *mat.Dense { return noisyCurve(n, p, 0.05, seed) }

// noisyCurve is curveData with noise standard deviation noise. The smaller
// the noise, the worse conditioned the k-NN blocks of S and the more sweeps
// the ρ = 0 problem needs.
func noisyCurve(n, p int, noise float64, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 1))
	a := mat.NewDense(3, p, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < p; j++ {
			a.Set(i, j, rnd.NormFloat64())
		}
	}
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		t := 2 * math.Pi * float64(i) / float64(n)
		z := mat.NewVecDense(3, []float64{math.Cos(t), math.Sin(t), 0.5 * math.Sin(2*t)})
		for j := 0; j < p; j++ {
			y.Set(i, j, mat.Dot(z, a.ColView(j))+noise*rnd.NormFloat64())
		}
	}
	return y
}

// randData returns an n×p standard normal matrix.
func randData(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 2))
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			y.Set(i, j, rnd.NormFloat64())
		}
	}
	return y
}

// secondMoment returns DRILL's S = ŶŶᵀ/p, Ŷ = Y with feature means removed.
func secondMoment(y *mat.Dense) *mat.SymDense {
	n, p := y.Dims()
	c := mat.DenseCopyOf(y)
	for j := 0; j < p; j++ {
		var m float64
		for i := 0; i < n; i++ {
			m += c.At(i, j)
		}
		m /= float64(n)
		for i := 0; i < n; i++ {
			c.Set(i, j, c.At(i, j)-m)
		}
	}
	s := mat.NewSymDense(n, nil)
	s.SymOuterK(1/float64(p), c)
	return s
}

// covariance returns the p×p sample covariance of the columns... of the
// rows of y read as variables: S = YYᵀ/p without centring.
func rowCov(y *mat.Dense) *mat.SymDense {
	n, p := y.Dims()
	s := mat.NewSymDense(n, nil)
	s.SymOuterK(1/float64(p), y)
	return s
}

// knn returns the k-nearest-neighbour lists (brute force, Euclidean).
func knn(y *mat.Dense, k int) [][]int {
	n, _ := y.Dims()
	g := make([][]int, n)
	type pair struct {
		d float64
		j int
	}
	ps := make([]pair, 0, n)
	for i := 0; i < n; i++ {
		ps = ps[:0]
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			var d float64
			for c := range y.RawRowView(i) {
				e := y.At(i, c) - y.At(j, c)
				d += e * e
			}
			ps = append(ps, pair{d, j})
		}
		sort.Slice(ps, func(a, b int) bool { return ps[a].d < ps[b].d || ps[a].d == ps[b].d && ps[a].j < ps[b].j })
		for _, p := range ps[:k] {
			g[i] = append(g[i], p.j)
		}
	}
	return g
}

// chain returns the path graph 0–1–…–(n−1).
func chain(n int) [][]int {
	g := make([][]int, n)
	for i := 0; i+1 < n; i++ {
		g[i] = []int{i + 1}
	}
	return g
}

// complete returns the graph with every pair listed explicitly (so Solve
// takes the block-coordinate path, not the S⁻¹ shortcut).
func complete(n int) [][]int {
	g := make([][]int, n)
	for i := range g {
		for j := 0; j < n; j++ {
			if j != i {
				g[i] = append(g[i], j)
			}
		}
	}
	return g
}

// adjacency returns the symmetrised boolean pattern of g (nil: all pairs).
func adjacency(g [][]int, n int) [][]bool {
	a := make([][]bool, n)
	for i := range a {
		a[i] = make([]bool, n)
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if g == nil && i != j {
				a[i][j] = true
			}
		}
	}
	for i, l := range g {
		for _, j := range l {
			if j != i {
				a[i][j], a[j][i] = true, true
			}
		}
	}
	return a
}

package exercises

import (
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
)

// Chapter 5 — spectral methods.

func init() {
	// 5.1: the number of (numerically) zero eigenvalues of the graph
	// Laplacian L = D − A of the 8-nearest-neighbour graph (union) of two
	// swiss rolls of 150 points 100 units apart: the number of connected
	// components of the graph.
	Register("5.1", Answer{
		Want: func() (any, error) {
			g, err := neighbours.KNNGraph(twoRolls(), 8, neighbours.Union)
			if err != nil {
				return nil, err
			}
			_, c := neighbours.ConnectedComponents(g)
			return c, nil
		},
		Tol:  1e-12,
		Hint: "count the eigenvalues of L below, say, 1e-8 (a whole number)",
	})
}

// twoRolls is the data of exercise 5.1: the chapter's roll(150, 1) and
// roll(150, 2), the second shifted by 100 along the first axis.
func twoRolls() *mat.Dense {
	Y := mat.NewDense(300, 3, nil)
	for r, seed := range []uint64{1, 2} {
		rng := rand.New(rand.NewPCG(seed, 1))
		for i := 0; i < 150; i++ {
			t := 1.5 * math.Pi * (1 + 2*rng.Float64())
			Y.SetRow(150*r+i, []float64{t*math.Cos(t) + 100*float64(r), 21 * rng.Float64(), t * math.Sin(t)})
		}
	}
	return Y
}

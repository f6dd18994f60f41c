package dimred_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
)

// The maximum-entropy family on a noisy circle in 10 dimensions: MEU,
// acyclic LLE and DRILL each give a 2-D embedding, scored by the spectral
// paper's GP-LVM likelihood; DRILL's optimality conditions hold (W_ij =
// S_ij on the graph).
func ExampleMEU() {
	n, p := 60, 20
	rnd := rand.New(rand.NewPCG(1, 2))
	Y := mat.NewDense(n, p, nil)
	for i := range n {
		s := 2 * math.Pi * float64(i) / float64(n)
		for j := range p {
			Y.Set(i, j, math.Cos(s+float64(j))+0.1*rnd.NormFloat64())
		}
	}
	drill := &dimred.DRILL{K: 4, Q: 2}
	for _, m := range []dimred.Embedder{
		&dimred.MEU{K: 4, Q: 2},
		&dimred.AcyclicLLE{K: 4, Q: 2},
		drill,
	} {
		if err := m.Fit(Y); err != nil {
			fmt.Println(err)
			return
		}
		var X mat.Dense
		m.LatentTo(&X)
		var s dimred.GPLVMScore
		r, err := s.Score(&X, Y)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-18T score above 0: %v\n", m, r.LogLikelihood > 0)
	}
	k := drill.KKT()
	fmt.Println("DRILL KKT on the graph within 1e-6:", k.Edge < 1e-6*k.Scale && k.Diagonal < 1e-6*k.Scale)
	// Output:
	// *dimred.MEU        score above 0: true
	// *dimred.AcyclicLLE score above 0: true
	// *dimred.DRILL      score above 0: true
	// DRILL KKT on the graph within 1e-6: true
}

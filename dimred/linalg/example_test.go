package linalg_test

import (
	"fmt"

	"github.com/dimredbook/book/dimred/linalg"
	"gonum.org/v1/gonum/mat"
)

// Classical MDS through the implicit double-centred operator: the top
// eigenvectors of B = −½ H D H recover a configuration from squared
// distances without forming H or B.
func ExampleDoubleCentred() {
	// Four corners of a 2×1 rectangle.
	Y := mat.NewDense(4, 2, []float64{0, 0, 2, 0, 2, 1, 0, 1})
	D := mat.NewSymDense(4, nil)
	linalg.PairwiseSquaredDistances(D, Y)
	B := linalg.DoubleCentred{A: linalg.DenseOperator(D)}
	vals, _, err := linalg.EigenSymOp(B, 2, linalg.Largest, nil)
	if err != nil {
		panic(err)
	}
	// The eigenvalues of B = ŶŶᵀ are n times the variances along the axes.
	fmt.Printf("%.4f %.4f\n", vals[0], vals[1])
	// Output: 4.0000 1.0000
}

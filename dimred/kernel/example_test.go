package kernel_test

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/kernel"
	"gonum.org/v1/gonum/mat"
)

// The implied distances of the RBF kernel: pairs the kernel sees as
// dissimilar sit at √2 (book Fig 4.6).
func ExampleImpliedSquaredDistances() {
	Y := mat.NewDense(3, 1, []float64{0, 0.5, 10})
	var K, D mat.SymDense
	kernel.Gram(&K, kernel.RBF{LengthScale: 1}, Y)
	kernel.ImpliedSquaredDistances(&D, &K)
	fmt.Printf("d(0, 0.5) = %.4f, d(0, 10) = %.4f, √2 = %.4f\n", math.Sqrt(D.At(0, 1)), math.Sqrt(D.At(0, 2)), math.Sqrt2)
	// Output:
	// d(0, 0.5) = 0.4848, d(0, 10) = 1.4142, √2 = 1.4142
}

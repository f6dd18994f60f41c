package dimred_test

import (
	"fmt"

	"github.com/dimredbook/book/dimred/highdim"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
)

// The Gaussian egg of book Figs 1.1–1.3: the mass within 0.95σ (yolk),
// between 0.95σ and 1.05σ (green) and beyond (white).
func ExampleEggMasses() {
	for _, p := range []int{1, 2, 3, 1024} {
		yolk, green, white := highdim.EggMasses(p, 0.95, 1.05)
		fmt.Printf("p=%-4d yolk %4.1f%%  green %4.1f%%  white %4.1f%%\n", p, 100*yolk, 100*green, 100*white)
	}
	// Output:
	// p=1    yolk 65.8%  green  4.8%  white 29.4%
	// p=2    yolk 59.4%  green  7.4%  white 33.2%
	// p=3    yolk 56.1%  green  9.2%  white 34.7%
	// p=1024 yolk  1.2%  green 97.6%  white  1.2%
}

// The predicted variance of the normalised interpoint squared distance,
// 8σ⁴/p, as printed beside the book's histograms (Figs 1.10, 1.12, 1.14).
func ExampleInterpointVariance() {
	for _, p := range []int{12, 102, 6178} {
		fmt.Printf("p=%d: %.3g\n", p, highdim.InterpointVariance(p, 1))
	}
	// Output:
	// p=12: 0.667
	// p=102: 0.0784
	// p=6178: 0.00129
}

func ExampleSquaredDistances() {
	A := mat.NewDense(2, 2, []float64{0, 0, 3, 4})
	var D mat.Dense
	linalg.SquaredDistances(&D, A, A)
	fmt.Println(mat.Formatted(&D))
	// Output:
	// ⎡ 0  25⎤
	// ⎣25   0⎦
}

package dimred_test

import (
	"fmt"
	"math"

	"github.com/dimredbook/book/dimred/kernel"

	"github.com/dimredbook/book/dimred"
	"gonum.org/v1/gonum/mat"
)

// Kernel PCA of points on a circle with an RBF kernel, then the latent
// position of a new point, and a pre-image back in data space.
func ExampleKernelPCA() {
	const n = 60
	Y := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		t := 2 * math.Pi * float64(i) / n
		Y.Set(i, 0, math.Cos(t))
		Y.Set(i, 1, math.Sin(t))
	}
	kp := dimred.KernelPCA{Kernel: kernel.RBF{LengthScale: 1}, Q: 2}
	if err := kp.Fit(Y); err != nil {
		fmt.Println(err)
		return
	}
	var X mat.Dense
	kp.LatentTo(&X)
	fmt.Printf("variance explained by 2 components: %.3f\n", kp.VarianceExplained())

	// A new point on the circle lands on the latent circle.
	var x mat.Dense
	kp.ProjectTo(&x, mat.NewDense(1, 2, []float64{0, 1}))
	fmt.Printf("latent radius of a training point %.4f, of the new point %.4f\n",
		math.Hypot(X.At(0, 0), X.At(0, 1)), math.Hypot(x.At(0, 0), x.At(0, 1)))

	// Pre-image: back from the latent space to the data space.
	var pre dimred.PreImage
	if err := pre.Fit(&X, Y); err != nil {
		fmt.Println(err)
		return
	}
	var y mat.Dense
	pre.MapTo(&y, &x)
	fmt.Printf("pre-image of the new point: radius %.2f at %.1f°\n",
		math.Hypot(y.At(0, 0), y.At(0, 1)), math.Atan2(y.At(0, 1), y.At(0, 0))*180/math.Pi)
	// Output:
	// variance explained by 2 components: 0.778
	// latent radius of a training point 0.6448, of the new point 0.6448
	// pre-image of the new point: radius 1.00 at 90.0°
}

package sdp_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/dimredbook/book/dimred/internal/sdp"
)

// Five points on a quarter circle, each linked to the next: MVU pulls the
// chain straight, so one eigenvalue of K carries all the variance.
func ExampleMVU() {
	var pairs []sdp.Pair
	var sq []float64
	pt := func(i int) (float64, float64) {
		a := float64(i) * math.Pi / 8
		return math.Cos(a), math.Sin(a)
	}
	for i := 0; i+1 < 5; i++ {
		x0, y0 := pt(i)
		x1, y1 := pt(i + 1)
		pairs = append(pairs, sdp.Pair{I: i, J: i + 1})
		sq = append(sq, (x1-x0)*(x1-x0)+(y1-y0)*(y1-y0))
	}
	k, res, err := sdp.MVU(5, pairs, sq, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	var es mat.EigenSym
	es.Factorize(k, false)
	v := es.Values(nil)
	fmt.Printf("top eigenvalue share %.6f\n", v[4]/mat.Trace(k))
	// A straight chain of 5 points with spacing ℓ has variance 10ℓ².
	fmt.Printf("tr K / (10ℓ²) = %.6f\n", mat.Trace(k)/(10*sq[0]))
	fmt.Println("gap ≤ 1e-7:", res.Gap <= 1e-7)
	// Output:
	// top eigenvalue share 1.000000
	// tr K / (10ℓ²) = 1.000000
	// gap ≤ 1e-7: true
}

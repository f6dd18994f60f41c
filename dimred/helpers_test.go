package dimred

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Helpers of the package's internal tests. The contract checks themselves
// live in the public suite dimredtest (run by conformance_test.go, an
// external test package, because dimredtest imports dimred).

// conformanceData is the shared 40×5 data set, dimredtest.Data(40, 5, 40):
// a 2-D linear structure with small isotropic noise and distinct column
// scales, deterministic.
func conformanceData() *mat.Dense {
	rnd := rand.New(rand.NewPCG(40, 5))
	n, p := 40, 5
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		for j := 0; j < p; j++ {
			Y.Set(i, j, float64(j+1)*a+float64(p-j)*0.5*b+0.1*rnd.NormFloat64())
		}
	}
	return Y
}

// zeroRows is an n = 0 data matrix with p columns, zeroCols an n×0 one
// (gonum's Dense cannot be empty in one dimension only).
type zeroRows struct{ p int }

func (z zeroRows) Dims() (int, int)    { return 0, z.p }
func (z zeroRows) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroRows) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

type zeroCols struct{ n int }

func (z zeroCols) Dims() (int, int)    { return z.n, 0 }
func (z zeroCols) At(i, j int) float64 { panic(mat.ErrIndexOutOfRange) }
func (z zeroCols) T() mat.Matrix       { return mat.Transpose{Matrix: z} }

// panicMessage runs f and returns the message it panicked with ("" if it
// did not panic).
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "<empty panic>"
			}
		}
	}()
	f()
	return ""
}

// checkPackagePanic fails unless f panics with the package's own message:
// a "dimred: " prefix, once.
func checkPackagePanic(t *testing.T, what string, f func()) {
	t.Helper()
	msg := panicMessage(f)
	switch {
	case msg == "":
		t.Errorf("%s: no panic", what)
	case !strings.HasPrefix(msg, "dimred: "):
		t.Errorf("%s: panic %q lacks the package's \"dimred: \" prefix", what, msg)
	case strings.Count(msg, "dimred:") > 1:
		t.Errorf("%s: panic %q repeats the \"dimred:\" prefix", what, msg)
	}
}

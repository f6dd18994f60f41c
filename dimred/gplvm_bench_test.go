package dimred

import (
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/dimred/internal/benchutil"
	"github.com/dimredbook/book/dimred/internal/testutil"

	"gonum.org/v1/gonum/mat"
)

// gplvmBenchData returns n points of a noisy 2-D sheet curled in p = 12
// dimensions (the oil data's width).
func gplvmBenchData(n int) *mat.Dense {
	Y := testutil.RandDense(n, 12, 7)
	for i := range n {
		a, b := 3*Y.At(i, 0), Y.At(i, 1)
		for j := range 12 {
			f := float64(j + 1)
			Y.Set(i, j, math.Sin(a*f/6)+b*math.Cos(f)+0.05*Y.At(i, j))
		}
	}
	return Y
}

// benchGPLVMEval times one evaluation of the objective and its gradient
// (what every L-BFGS iteration costs, ~1.1 evaluations per iteration).
func benchGPLVMEval(b *testing.B, n, inducing int) {
	Y := gplvmBenchData(n)
	m := &GPLVM{Q: 2, Inducing: inducing, MaxIter: 1, Tol: -1}
	if err := m.Fit(Y); err != nil {
		b.Fatal(err)
	}
	f := m.fit
	params := f.pack(false)
	grad := make([]float64, len(params))
	defer benchutil.CPUMetric(b)()
	b.ResetTimer()
	for b.Loop() {
		f.unpack(params, false)
		if _, err := f.objective(grad, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPLVMSparse is the size ladder of the sparse GP-LVM with 100
// inducing points: one bound-and-gradient evaluation is O(nm² + nmp), so
// the time per evaluation should grow linearly in n. Measured (2 shared
// cores, heavily loaded, so CPU seconds): 0.014, 0.026, 0.065, 0.122 cpu-s
// per evaluation at n = 1000, 2000, 5000, 10000 — ×8.7 for ×10 points.
func BenchmarkGPLVMSparse(b *testing.B) {
	for _, n := range []int{1000, 2000, 5000, 10000} {
		b.Run(fmt.Sprintf("n=%d/m=100", n), func(b *testing.B) { benchGPLVMEval(b, n, 100) })
	}
}

// BenchmarkGPLVMExact is the exact model's ladder: O(n³) per evaluation
// (Cholesky factor and inverse of K + σ²I). Measured: 0.008, 0.028,
// 0.18 cpu-s at n = 250, 500, 1000, so a 100-iteration fit of the oil data
// (about 110 evaluations) costs about 20 CPU seconds.
func BenchmarkGPLVMExact(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchGPLVMEval(b, n, 0) })
	}
}

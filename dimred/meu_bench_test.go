package dimred_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
)

// The maximum-entropy family on the paper's robot WiFi data (215×30, k = 7,
// Fig 6) and the GP-LVM score of one embedding (Fig 7b).

func robotOrSkip(b *testing.B) *mat.Dense {
	d, err := datasets.RobotWireless()
	if datasets.Skippable(err) {
		b.Skip(err)
	}
	if err != nil {
		b.Fatal(err)
	}
	return d.Y
}

func BenchmarkMEURobot(b *testing.B) {
	Y := robotOrSkip(b)
	for b.Loop() {
		m := &dimred.MEU{Q: 2, K: 7}
		if err := m.Fit(Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
			b.Fatal(err)
		}
		b.ReportMetric(float64(m.Iterations()), "iters")
	}
}

func BenchmarkAcyclicLLERobot(b *testing.B) {
	Y := robotOrSkip(b)
	for b.Loop() {
		if err := (&dimred.AcyclicLLE{Q: 2, K: 7}).Fit(Y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDRILLRobot(b *testing.B) {
	Y := robotOrSkip(b)
	for b.Loop() {
		d := &dimred.DRILL{Q: 2, K: 7}
		if err := d.Fit(Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.Iterations()), "sweeps")
	}
}

func BenchmarkGPLVMScoreRobot(b *testing.B) {
	Y := robotOrSkip(b)
	a := &dimred.AcyclicLLE{Q: 2, K: 7}
	if err := a.Fit(Y); err != nil {
		b.Fatal(err)
	}
	var X mat.Dense
	a.LatentTo(&X)
	standardiseColumns(&X)
	for b.Loop() {
		var s dimred.GPLVMScore
		r, err := s.Score(&X, Y)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Iterations), "iters")
	}
}

// standardiseColumns scales each column of X to zero mean, unit variance.
func standardiseColumns(X *mat.Dense) {
	n, q := X.Dims()
	for j := range q {
		var m, v float64
		for i := range n {
			m += X.At(i, j)
		}
		m /= float64(n)
		for i := range n {
			d := X.At(i, j) - m
			v += d * d
		}
		s := 1 / math.Sqrt(v/float64(n-1))
		for i := range n {
			X.Set(i, j, (X.At(i, j)-m)*s)
		}
	}
}

// curveData is a noisy closed curve in p dimensions, n points.
func curveData(n, p int) *mat.Dense {
	Y := mat.NewDense(n, p, nil)
	for i := range n {
		s := 2 * math.Pi * float64(i) / float64(n)
		for j := range p {
			Y.Set(i, j, math.Cos(s*float64(j%3+1)+float64(j))+0.01*math.Sin(float64(7*i+j)))
		}
	}
	return Y
}

// Size ladders: MEU costs a dense n×n Cholesky and inverse per
// likelihood evaluation, O(n³); DRILL O(k³ + nk) per column and sweep;
// the GP-LVM score O(n³ + n²p) per evaluation. A fixed iteration budget
// (Tol < 0) makes the ladder measure the cost per iteration.
func BenchmarkMEUSizes(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		Y := curveData(n, 20)
		b.Run(fmt.Sprintf("n=%d/50iters", n), func(b *testing.B) {
			for b.Loop() {
				m := &dimred.MEU{K: 7, Q: 2, MaxIter: 50, Tol: -1}
				if err := m.Fit(Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDRILLSizes(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		Y := curveData(n, 20)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				d := &dimred.DRILL{K: 7, Q: 2, Rho: 1e-3}
				if err := d.Fit(Y); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkGPLVMScoreSizes(b *testing.B) {
	for _, n := range []int{100, 200, 400} {
		Y := curveData(n, 20)
		X := mat.NewDense(n, 2, nil)
		for i := range n {
			s := 2 * math.Pi * float64(i) / float64(n)
			X.Set(i, 0, math.Cos(s))
			X.Set(i, 1, math.Sin(s))
		}
		b.Run(fmt.Sprintf("n=%d/20iters", n), func(b *testing.B) {
			for b.Loop() {
				s := dimred.GPLVMScore{MaxIter: 20, Tol: -1}
				if _, err := s.Score(X, Y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package dimred_test

import (
	"errors"
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

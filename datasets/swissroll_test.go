package datasets

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The swiss roll lies on its surface, T's arc length grows with the
// radius, and a source gives the same points every time.
func TestSwissRoll(t *testing.T) {
	d := SwissRoll(200, rand.NewPCG(3, 4))
	for i := 0; i < 200; i++ {
		y := d.Y.RawRowView(i)
		r := math.Hypot(y[0], y[2])
		if r < 1.5*math.Pi-1e-9 || r > 4.5*math.Pi+1e-9 || y[1] < 0 || y[1] > 21 {
			t.Fatalf("point %d = %v off the roll", i, y)
		}
		// Arc length from 1.5π: ½(t√(1+t²) + asinh t) at r minus at 1.5π.
		want := spiralArc(r) - spiralArc(1.5*math.Pi)
		if s := d.T.At(i, 0); math.Abs(s-want) > 1e-9*want+1e-12 || d.T.At(i, 1) != y[1] {
			t.Fatalf("T[%d] = %v, want (%v, %v)", i, d.T.RawRowView(i), want, y[1])
		}
	}
	e := SwissRoll(200, rand.NewPCG(3, 4))
	for i, v := range d.Y.RawMatrix().Data {
		if e.Y.RawMatrix().Data[i] != v {
			t.Fatal("two rolls from equal sources differ")
		}
	}
	// Arc length of r = t from 0 to 1: ½(√2 + asinh 1) = 1.147793574696319.
	if got := spiralArc(1); math.Abs(got-1.147793574696319) > 1e-15 {
		t.Errorf("spiralArc(1) = %v", got)
	}
}

package linalg

import (
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Defects found by calling the package from outside; each test failed on
// the code before its fix.

func panicMsg(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = errString(r)
		}
	}()
	f()
	return ""
}

func errString(r any) string {
	if e, ok := r.(error); ok {
		return e.Error()
	}
	if s, ok := r.(string); ok {
		return s
	}
	return "panic"
}

// SubspaceAngle with a NaN or Inf entry panicked inside LAPACK ("lapack:
// cfrom is NaN", from 10×3 on); NaN in, NaN out now.
func TestSubspaceAngleNonFinite(t *testing.T) {
	A := mat.NewDense(10, 3, nil)
	for i := range A.RawMatrix().Data {
		A.RawMatrix().Data[i] = math.Sin(float64(i * i))
	}
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		B := mat.DenseCopyOf(A)
		B.Set(2, 1, v)
		var got float64
		if msg := panicMsg(func() { got = SubspaceAngle(A, B) }); msg != "" {
			t.Errorf("%v entry: panicked: %s", v, msg)
		} else if !math.IsNaN(got) {
			t.Errorf("%v entry: angle = %v, want NaN", v, got)
		}
	}
	if a := SubspaceAngle(A, A); a > 1e-7 {
		t.Errorf("angle of a subspace with itself = %v", a)
	}
}

// Orthonormalise of m < k columns panicked inside LAPACK ("bad length of
// tau"); it is a shape error.
func TestOrthonormaliseWide(t *testing.T) {
	if msg := panicMsg(func() { Orthonormalise(mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})) }); msg != mat.ErrShape.Error() {
		t.Errorf("2×3: panic %q, want mat.ErrShape", msg)
	}
}

// Standardise of a column ~1e300 gave sd = +Inf (its variance overflows)
// and a zero column; the standard deviation itself is finite.
func TestStandardiseHugeColumn(t *testing.T) {
	Y := mat.NewDense(4, 2, []float64{1, 1e300, 2, -1e300, 3, 2e300, 4, 0})
	var Z mat.Dense
	sd := Standardise(&Z, Y)
	// sd of (1, −1, 2, 0)·1e300 with normaliser n−1: mean ½, squares
	// 0.25 + 2.25 + 2.25 + 0.25 = 5, sd = 1e300·√(5/3).
	want := 1e300 * math.Sqrt(5.0/3)
	if math.Abs(sd[1]-want) > 1e-12*want {
		t.Errorf("sd of the huge column = %v, want %v", sd[1], want)
	}
	if v := Z.At(2, 1); math.Abs(v-2/math.Sqrt(5.0/3)) > 1e-12 {
		t.Errorf("standardised entry = %v, want %v", v, 2/math.Sqrt(5.0/3))
	}
}

// Lanczos on a matrix of entries ~1e300 reported ErrNotConverged with
// residual +Inf (its norms overflowed); it now solves the scaled problem,
// and eigenvalues beyond float64 are ErrOverflow on both paths.
func TestLanczosHugeEntries(t *testing.T) {
	build := func(s float64) *mat.SymDense {
		n := 300
		a := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				a.SetSym(i, j, s*float64((i*7+j*3)%11+1))
			}
		}
		return a
	}
	a := build(1e300)
	vl, _, err := EigenSym(a, 3, Largest, &EigenSettings{Method: EigenLanczos})
	if err != nil {
		t.Fatalf("entries 1e300, Lanczos: %v", err)
	}
	vd, _, err := EigenSym(a, 3, Largest, &EigenSettings{Method: EigenDense})
	if err != nil {
		t.Fatal(err)
	}
	for i := range vl {
		if math.Abs(vl[i]-vd[i]) > 1e-8*math.Abs(vd[0]) {
			t.Errorf("λ_%d: Lanczos %v, dense %v", i+1, vl[i], vd[i])
		}
	}
	big := build(1e307)
	for _, m := range []EigenMethod{EigenLanczos, EigenDense} {
		if _, _, err := EigenSym(big, 3, Largest, &EigenSettings{Method: m}); !errors.Is(err, ErrOverflow) {
			t.Errorf("entries 1e307, method %d: err = %v, want ErrOverflow", m, err)
		}
	}
}

// Impossible eigensolver settings panic, naming the field (a NaN Tol ran
// as the default).
func TestEigenSettingsRejected(t *testing.T) {
	a := mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2})
	for _, c := range []struct {
		field string
		s     EigenSettings
	}{
		{"Tol", EigenSettings{Tol: math.NaN()}},
		{"MaxProducts", EigenSettings{MaxProducts: -1}},
		{"BlockSize", EigenSettings{BlockSize: -2}},
		{"Method", EigenSettings{Method: 9}},
	} {
		msg := panicMsg(func() { EigenSym(a, 1, Largest, &c.s) })
		if !strings.HasPrefix(msg, "dimred: EigenSettings."+c.field) {
			t.Errorf("%s: panic %q", c.field, msg)
		}
	}
}

// A hand-built CSR without RowPtr is a programmer error with the
// package's message (neighbours' graph functions indexed out of range).
func TestCSRCheck(t *testing.T) {
	for _, c := range []*CSR{{N: 3}, {N: 2, RowPtr: []int{0, 1, 1}}, {N: 2, RowPtr: []int{0, 1, 1}, Col: []int{5}, Val: []float64{1}}} {
		if msg := panicMsg(c.Check); !strings.HasPrefix(msg, "dimred: CSR") {
			t.Errorf("%+v: panic %q", *c, msg)
		}
	}
	NewCSR(3, []int{0, 1}, []int{1, 2}, []float64{1, 1}).Check()
}

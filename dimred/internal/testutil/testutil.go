// Package testutil holds data generators shared by the tests and
// benchmarks of dimred's packages.
package testutil

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/datasets"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// GaussianData returns an n×p matrix of independent standard normal
// draws from a PCG source seeded with (seed, 3).
func GaussianData(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 3))
	Y := mat.NewDense(n, p, nil)
	for i := range Y.RawMatrix().Data {
		Y.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	return Y
}

// SwissRoll returns n points of the swiss roll in R³: t ~ U(1.5π, 4.5π),
// height ~ U(0, 21), y = (t cos t, height, t sin t), from a PCG source
// seeded with (seed, 5): the standard manifold-learning benchmark set.
// (datasets.SwissRoll, the project's one generator).
func SwissRoll(n int, seed uint64) *mat.Dense {
	return datasets.SwissRoll(n, rand.NewPCG(seed, 5)).Y
}

// CheckEigenpairs checks k computed eigenpairs (vals, the columns of vecs)
// of a at its largest (or smallest) end: residuals, orthonormality and
// agreement with the dense oracle mat.EigenSym, all to tol (relative to
// ‖a‖ where it scales).
func CheckEigenpairs(t testing.TB, a mat.Symmetric, k int, largest bool, vals []float64, vecs *mat.Dense, tol float64) {
	t.Helper()
	n := a.SymmetricDim()
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		t.Fatal("oracle failed")
	}
	all := es.Values(nil)
	anorm := math.Max(math.Abs(all[0]), math.Abs(all[n-1]))
	scale := math.Max(anorm, 1)
	if len(vals) != k {
		t.Fatalf("got %d values, want %d", len(vals), k)
	}
	for i := 0; i < k; i++ {
		want := all[i]
		if largest {
			want = all[n-1-i]
		}
		if math.Abs(vals[i]-want) > tol*scale {
			t.Errorf("λ_%d = %v, oracle %v", i, vals[i], want)
		}
	}
	r, c := vecs.Dims()
	if r != n || c != k {
		t.Fatalf("vecs %d×%d, want %d×%d", r, c, n, k)
	}
	av := make([]float64, n)
	for j := 0; j < k; j++ {
		v := mat.Col(nil, j, vecs)
		mat.NewVecDense(n, av).MulVec(a, mat.NewVecDense(n, v))
		floats.AddScaled(av, -vals[j], v)
		if res := floats.Norm(av, 2); res > tol*scale {
			t.Errorf("residual ‖Av−λv‖ of pair %d = %.3g > %.3g", j, res, tol*scale)
		}
	}
	var g mat.Dense
	g.Mul(vecs.T(), vecs)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(g.At(i, j)-want) > tol {
				t.Errorf("VᵀV[%d,%d] = %v", i, j, g.At(i, j))
			}
		}
	}
}

// RandDense returns an r×c matrix of independent standard normal draws
// from a PCG source seeded with (seed, 7).
func RandDense(r, c int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, rnd.NormFloat64())
		}
	}
	return m
}

// MustPanic reports an error unless f panics.
func MustPanic(t testing.TB, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

// MaxAbsDiff returns max_ij |a_ij − b_ij|.
func MaxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return math.Max(mat.Max(&d), -mat.Min(&d))
}

// BitsHash is the SHA-256 (hex) of the float64 bits of x, in order,
// little-endian: the pin of the golden-bits tests.
func BitsHash(x []float64) string {
	h := sha256.New()
	var b [8]byte
	for _, v := range x {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

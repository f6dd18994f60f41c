package linalg

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
)

// gridLaplacian is the graph Laplacian L = D − W of the a×b grid graph
// (unit weights), n = ab, as a CSR. Its eigenvalues are
// (2 − 2cos(πi/a)) + (2 − 2cos(πj/b)), i < a, j < b.
func gridLaplacian(a, b int) *CSR {
	n := a * b
	var ii, jj []int
	var vv []float64
	id := func(r, c int) int { return r*b + c }
	for r := 0; r < a; r++ {
		for c := 0; c < b; c++ {
			u := id(r, c)
			deg := 0.0
			for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				r2, c2 := r+d[0], c+d[1]
				if r2 < 0 || r2 >= a || c2 < 0 || c2 >= b {
					continue
				}
				ii, jj, vv = append(ii, u), append(jj, id(r2, c2)), append(vv, -1)
				deg++
			}
			ii, jj, vv = append(ii, u), append(jj, u), append(vv, deg)
		}
	}
	return NewCSR(n, ii, jj, vv)
}

// The Chebyshev-filtered Lanczos path — the sparse default from n = 500
// (chebMinN), reached before only through the methods' tests — run
// directly on a 25×24 grid Laplacian (n = 600): the bottom three
// eigenpairs against the dense oracle and the closed form, and EigenAuto
// on the CSR agreeing with it.
func TestChebyshevLanczosGridLaplacian(t *testing.T) {
	const a, b, k = 25, 24, 3
	L := gridLaplacian(a, b)
	if L.N < chebMinN {
		t.Fatalf("n = %d below the Chebyshev threshold %d", L.N, chebMinN)
	}
	p := lanczosParams{tol: 1e-10, maxProducts: 20 * L.N, block: 3, rnd: rand.New(rand.NewPCG(1, 2))}
	p.ncv = max(2*k+4*p.block, k+48)
	vals, vecs, err := chebyshevLanczos(L, k, Smallest, p)
	if errors.Is(err, errChebUnsuitable) {
		t.Fatal("the Chebyshev filter declined the grid Laplacian")
	}
	if err != nil {
		t.Fatal(err)
	}
	var closed []float64
	for i := 0; i < a; i++ {
		for j := 0; j < b; j++ {
			closed = append(closed, 2-2*math.Cos(math.Pi*float64(i)/a)+2-2*math.Cos(math.Pi*float64(j)/b))
		}
	}
	sort.Float64s(closed)
	for c := 0; c < k; c++ {
		if math.Abs(vals[c]-closed[c]) > 1e-9 {
			t.Errorf("λ_%d = %.12g, closed form %.12g", c+1, vals[c], closed[c])
		}
	}
	dense := materialise(L)
	testutil.CheckEigenpairs(t, dense, k, false, vals, vecs, 1e-8)

	av, _, err := EigenSymOp(L, k, Smallest, nil)
	if err != nil {
		t.Fatal(err)
	}
	for c := range av {
		if math.Abs(av[c]-vals[c]) > 1e-9 {
			t.Errorf("EigenAuto λ_%d = %v, Chebyshev %v", c+1, av[c], vals[c])
		}
	}
}

package dimred

import (
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/mat"
)

func gaussianData(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 3))
	Y := mat.NewDense(n, p, nil)
	for i := range Y.RawMatrix().Data {
		Y.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	return Y
}

func TestCSRBasics(t *testing.T) {
	c := NewCSR(3, []int{0, 2, 0, 1, 0}, []int{2, 0, 2, 1, 0}, []float64{1, 2, 3, 4, 5})
	want := mat.NewDense(3, 3, []float64{5, 0, 4, 0, 4, 0, 2, 0, 0})
	if !mat.Equal(c, want) {
		t.Fatalf("NewCSR = %v, want %v", mat.Formatted(c), mat.Formatted(want))
	}
	if c.NNZ() != 4 {
		t.Errorf("NNZ = %d, want 4", c.NNZ())
	}
	// Products, serial and parallel, against dense.
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{50, 5000} {
		var ii, jj []int
		var vv []float64
		for e := 0; e < 10*n; e++ {
			i, j := rnd.IntN(n), rnd.IntN(n)
			v := rnd.NormFloat64()
			ii, jj, vv = append(ii, i, j), append(jj, j, i), append(vv, v, v)
		}
		a := NewCSR(n, ii, jj, vv)
		if !a.IsSymmetric(1e-15) {
			t.Fatal("symmetric triplets gave an asymmetric CSR")
		}
		x := make([]float64, n)
		for i := range x {
			x[i] = rnd.NormFloat64()
		}
		got := make([]float64, n)
		a.MulVecTo(got, x)
		want := make([]float64, n)
		for i := 0; i < n; i++ {
			cols, vals := a.Row(i)
			for t, j := range cols {
				want[i] += vals[t] * x[j]
			}
		}
		if !floats.EqualApprox(got, want, 1e-12) {
			t.Errorf("n=%d: MulVecTo differs from the row loop", n)
		}
	}
}

func TestCSRMulTrans(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 4))
	n := 40
	var ii, jj []int
	var vv []float64
	for e := 0; e < 150; e++ {
		ii, jj, vv = append(ii, rnd.IntN(n)), append(jj, rnd.IntN(n)), append(vv, rnd.NormFloat64())
	}
	a := NewCSR(n, ii, jj, vv)
	var want mat.Dense
	want.Mul(a.T(), a)
	if got := a.MulTrans(a); !mat.EqualApprox(got, &want, 1e-12) || !got.IsSymmetric(1e-12) {
		t.Error("MulTrans differs from the dense AᵀA")
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = rnd.NormFloat64()
	}
	got := make([]float64, n)
	a.MulTransVecTo(got, x)
	w := mat.NewVecDense(n, nil)
	w.MulVec(a.T(), mat.NewVecDense(n, x))
	if !floats.EqualApprox(got, w.RawVector().Data, 1e-12) {
		t.Error("MulTransVecTo differs from the dense Aᵀx")
	}
}

func TestLaplacians(t *testing.T) {
	Y := gaussianData(60, 2, 1)
	g, err := KNNGraph(Y, 5, Union)
	if err != nil {
		t.Fatal(err)
	}
	w := g.Map(func(i, j int, d float64) float64 { return math.Exp(-d * d) })
	L := Laplacian(w)
	d := w.RowSums()
	for i, s := range L.RowSums() {
		if math.Abs(s) > 1e-12 {
			t.Fatalf("row %d of L sums to %v", i, s)
		}
		if math.Abs(L.At(i, i)-d[i]) > 1e-12 {
			t.Fatalf("L_ii = %v, d_i = %v", L.At(i, i), d[i])
		}
	}
	Ls := NormalisedLaplacian(w)
	for i := 0; i < 60; i++ {
		for j := 0; j < 60; j++ {
			want := -w.At(i, j) / math.Sqrt(d[i]*d[j])
			if i == j {
				want += 1
			}
			if math.Abs(Ls.At(i, j)-want) > 1e-12 {
				t.Fatalf("L_sym[%d,%d] = %v, want %v", i, j, Ls.At(i, j), want)
			}
		}
	}
}

func TestEigenLaplacianBottom(t *testing.T) {
	Y := gaussianData(400, 2, 2)
	g, err := KNNGraph(Y, 10, Union)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckConnected(g); err != nil {
		t.Fatal(err)
	}
	L := Laplacian(g.Map(func(i, j int, d float64) float64 { return 1 }))
	dense := mat.NewSymDense(400, nil)
	for i := 0; i < 400; i++ {
		for j := i; j < 400; j++ {
			dense.SetSym(i, j, L.At(i, j))
		}
	}
	for _, cheb := range []bool{false, true} {
		saved := chebMinN
		if cheb {
			chebMinN = 0
		} else {
			chebMinN = 1 << 30
		}
		for _, end := range []EigenEnd{Smallest, Largest} {
			vals, vecs, err := EigenSymOp(L, 3, end, &EigenSettings{Method: EigenLanczos})
			if err != nil {
				t.Fatal(err)
			}
			checkEigenpairs(t, dense, 3, end, vals, vecs, 1e-8)
			if end == Smallest && math.Abs(vals[0]) > 1e-8 {
				t.Errorf("smallest Laplacian eigenvalue %v, want 0", vals[0])
			}
		}
		chebMinN = saved
	}
}

// bruteNeighbours is the O(n² p) oracle.
func bruteNeighbours(Y *mat.Dense, k int) [][]int {
	n, _ := Y.Dims()
	out := make([][]int, n)
	for i := 0; i < n; i++ {
		idx := make([]int, 0, n-1)
		d := make([]float64, n)
		for j := 0; j < n; j++ {
			if j != i {
				idx = append(idx, j)
				d[j] = floats.Distance(Y.RawRowView(i), Y.RawRowView(j), 2)
			}
		}
		sort.Slice(idx, func(a, b int) bool { return d[idx[a]] < d[idx[b]] || d[idx[a]] == d[idx[b]] && idx[a] < idx[b] })
		out[i] = idx[:k]
	}
	return out
}

func TestKNearestAgainstBruteForce(t *testing.T) {
	for _, p := range []int{1, 3, 8, 30} {
		Y := gaussianData(500, p, uint64(p))
		want := bruteNeighbours(Y, 7)
		for _, kdMax := range []int{0, 100} {
			saved := KDTreeMaxDim
			KDTreeMaxDim = kdMax
			nb, err := KNearest(Y, 7)
			KDTreeMaxDim = saved
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 500; i++ {
				got, dist := nb.Of(i)
				for m := range got {
					if got[m] != want[i][m] {
						t.Fatalf("p=%d kdMax=%d point %d: neighbours %v, want %v", p, kdMax, i, got, want[i])
					}
					wd := floats.Distance(Y.RawRowView(i), Y.RawRowView(got[m]), 2)
					if math.Abs(dist[m]-wd) > 1e-9*(1+wd) {
						t.Fatalf("distance %v, want %v", dist[m], wd)
					}
				}
			}
		}
	}
}

func TestGraphSymmetrisationAndEpsilon(t *testing.T) {
	Y := gaussianData(200, 3, 5)
	nb, _ := KNearest(Y, 4)
	isNb := func(i, j int) bool {
		got, _ := nb.Of(i)
		for _, g := range got {
			if g == j {
				return true
			}
		}
		return false
	}
	u, m := nb.Graph(Union), nb.Graph(Mutual)
	for i := 0; i < 200; i++ {
		for j := 0; j < 200; j++ {
			if (u.At(i, j) != 0) != (isNb(i, j) || isNb(j, i)) {
				t.Fatalf("union edge %d–%d wrong", i, j)
			}
			if (m.At(i, j) != 0) != (isNb(i, j) && isNb(j, i)) {
				t.Fatalf("mutual edge %d–%d wrong", i, j)
			}
		}
	}
	for _, kdMax := range []int{0, 100} {
		saved := KDTreeMaxDim
		KDTreeMaxDim = kdMax
		e, err := EpsilonGraph(Y, 0.7)
		KDTreeMaxDim = saved
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 200; i++ {
			for j := 0; j < 200; j++ {
				d := floats.Distance(Y.RawRowView(i), Y.RawRowView(j), 2)
				if i != j && (d <= 0.7) != (e.At(i, j) != 0) {
					t.Fatalf("kdMax=%d ε-edge %d–%d (d=%v) wrong", kdMax, i, j, d)
				}
			}
		}
	}
}

func TestDisconnected(t *testing.T) {
	Y := gaussianData(60, 2, 9)
	for i := 30; i < 60; i++ {
		Y.Set(i, 0, Y.At(i, 0)+100)
	}
	Y.Set(59, 1, 1e4) // an isolated point far away from both clusters
	g, _ := KNNGraph(Y, 3, Mutual)
	label, count := ConnectedComponents(g)
	if count < 2 {
		t.Fatalf("%d components, want ≥ 2", count)
	}
	err := CheckConnected(g)
	var de *DisconnectedError
	if !errors.Is(err, ErrDisconnected) || !errors.As(err, &de) || len(de.Components) != count {
		t.Fatalf("CheckConnected = %v", err)
	}
	D, err := GeodesicDistances(g)
	if !errors.Is(err, ErrDisconnected) {
		t.Fatalf("GeodesicDistances err = %v", err)
	}
	for i := 0; i < 60; i++ {
		for j := 0; j < 60; j++ {
			if math.IsInf(D.At(i, j), 1) != (label[i] != label[j]) {
				t.Fatalf("D(%d,%d) = %v with labels %d, %d", i, j, D.At(i, j), label[i], label[j])
			}
		}
	}
}

func TestGeodesicAgainstGonum(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		Y := gaussianData(120, 2, seed)
		g, _ := KNNGraph(Y, 6, Union)
		gg := simple.NewWeightedUndirectedGraph(0, math.Inf(1))
		for i := 0; i < g.N; i++ {
			gg.AddNode(simple.Node(i))
		}
		for i := 0; i < g.N; i++ {
			cols, vals := g.Row(i)
			for t, j := range cols {
				if i < j {
					gg.SetWeightedEdge(gg.NewWeightedEdge(simple.Node(i), simple.Node(j), vals[t]))
				}
			}
		}
		ap := path.DijkstraAllPaths(gg)
		D, err := GeodesicDistances(g)
		if err != nil && !errors.Is(err, ErrDisconnected) {
			t.Fatal(err)
		}
		for i := 0; i < g.N; i++ {
			for j := 0; j < g.N; j++ {
				want := ap.Weight(int64(i), int64(j))
				got := D.At(i, j)
				if !(got == want || math.Abs(got-want) <= 1e-12*want) {
					t.Fatalf("seed %d: D(%d,%d) = %v, gonum %v", seed, i, j, got, want)
				}
			}
		}
	}
}

func TestEigenLaplacianDisconnected(t *testing.T) {
	// Five separate clusters: the Laplacian's zero eigenvalue has
	// multiplicity 5, so any bottom-3 eigenvectors span part of the null
	// space; both the filtered and the plain path must cope.
	Y := gaussianData(500, 2, 11)
	for i := 0; i < 500; i++ {
		Y.Set(i, 0, Y.At(i, 0)+100*float64(i%5))
	}
	g, _ := KNNGraph(Y, 6, Union)
	if _, c := ConnectedComponents(g); c != 5 {
		t.Fatalf("%d components, want 5", c)
	}
	L := Laplacian(g)
	saved := chebMinN
	defer func() { chebMinN = saved }()
	for _, cm := range []int{0, 1 << 30} {
		chebMinN = cm
		vals, vecs, err := EigenSymOp(L, 3, Smallest, nil)
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range vals {
			if math.Abs(v) > 1e-8*40 {
				t.Errorf("chebMinN=%d: λ_%d = %v, want 0", cm, j, v)
			}
			x := mat.Col(nil, j, vecs)
			lx := make([]float64, len(x))
			L.MulVecTo(lx, x)
			if r := floats.Norm(lx, 2); r > 1e-8*40 {
				t.Errorf("chebMinN=%d: ‖L v_%d‖ = %v", cm, j, r)
			}
		}
	}
}

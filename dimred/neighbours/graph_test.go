package neighbours

import (
	"errors"
	"math"
	"sort"
	"testing"

	"github.com/dimredbook/book/dimred/internal/testutil"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/mat"
)

func TestLaplacians(t *testing.T) {
	Y := testutil.GaussianData(60, 2, 1)
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
	Ls, err := NormalisedLaplacian(w)
	if err != nil {
		t.Fatal(err)
	}
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
	Y := testutil.GaussianData(400, 2, 2)
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
	for _, method := range []linalg.EigenMethod{linalg.EigenLanczos, linalg.EigenChebyshev} {
		for _, end := range []linalg.EigenEnd{linalg.Smallest, linalg.Largest} {
			vals, vecs, err := linalg.EigenSymOp(L, 3, end, &linalg.EigenSettings{Method: method})
			if err != nil {
				t.Fatal(err)
			}
			testutil.CheckEigenpairs(t, dense, 3, end == linalg.Largest, vals, vecs, 1e-8)
			if end == linalg.Smallest && math.Abs(vals[0]) > 1e-8 {
				t.Errorf("smallest Laplacian eigenvalue %v, want 0", vals[0])
			}
		}
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
		Y := testutil.GaussianData(500, p, uint64(p))
		want := bruteNeighbours(Y, 7)
		for _, kdMax := range []int{-1, 100} {
			nb, err := Search{KDTreeMaxDim: kdMax}.KNearest(Y, 7)
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
	Y := testutil.GaussianData(200, 3, 5)
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
	for _, kdMax := range []int{-1, 100} {
		e, err := Search{KDTreeMaxDim: kdMax}.EpsilonGraph(Y, 0.7)
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
	Y := testutil.GaussianData(60, 2, 9)
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
		Y := testutil.GaussianData(120, 2, seed)
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
	Y := testutil.GaussianData(500, 2, 11)
	for i := 0; i < 500; i++ {
		Y.Set(i, 0, Y.At(i, 0)+100*float64(i%5))
	}
	g, _ := KNNGraph(Y, 6, Union)
	if _, c := ConnectedComponents(g); c != 5 {
		t.Fatalf("%d components, want 5", c)
	}
	L := Laplacian(g)
	for _, cm := range []linalg.EigenMethod{linalg.EigenChebyshev, linalg.EigenLanczos} {
		vals, vecs, err := linalg.EigenSymOp(L, 3, linalg.Smallest, &linalg.EigenSettings{Method: cm})
		if err != nil {
			t.Fatal(err)
		}
		for j, v := range vals {
			if math.Abs(v) > 1e-8*40 {
				t.Errorf("method %d: λ_%d = %v, want 0", cm, j, v)
			}
			x := mat.Col(nil, j, vecs)
			lx := make([]float64, len(x))
			L.MulVecTo(lx, x)
			if r := floats.Norm(lx, 2); r > 1e-8*40 {
				t.Errorf("method %d: ‖L v_%d‖ = %v", cm, j, r)
			}
		}
	}
}

func TestKNearestNaN(t *testing.T) {
	y := testutil.GaussianData(50, 3, 1)
	y.Set(3, 1, math.Inf(1))
	if _, err := KNearest(y, 2); !errors.Is(err, ErrNaN) {
		t.Errorf("KNearest err = %v, want ErrNaN", err)
	}
}

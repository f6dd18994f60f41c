package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"

	"gonum.org/v1/gonum/mat"
)

// A task is one computation that dimred and scikit-learn/SciPy both do, on
// the same input files. gen writes the inputs into a directory (once);
// prepare loads them for the Go side (not timed) and returns run, the timed
// computation, and check, which compares its result with the Python side's
// output files and says how close they are.
type task struct {
	name  string  // the row's label
	py    string  // the Python side's task name (sk.py task_<py>)
	flops float64 // floating-point operations, when a rate is worth showing
	gen   func(dir string) error
	setup func(dir string) (run func() error, check func(dir string) (string, bool, error), err error)
	// ext, if set, is the reference side instead of sk.py (a subprocess
	// such as csdp): it returns that side's seconds. repeats, if larger,
	// overrides -repeats for the row.
	ext     func(dir string) (wall, cpu float64, err error) // a reference side run here instead of sk.py
	repeats int
}

// tasks returns the benchmark's rows. full selects the size ladders of the
// committed results; otherwise tiny sizes that check agreement in seconds
// (scripts/test). The neighbour embeddings at full size are neTasks. Each method is one entry per size: a new shared method
// (say Isomap, once on main) joins with one line in each list.
func tasks(full bool) []task {
	if !full {
		return append([]task{
			trustTask(300, 20, 5),
			knnBruteTask(300, 50, 5),
			pcaTask(500, 60, "arpack"),
			pcaTask(500, 60, "randomized"),
			kdTreeTask(500, 5),
			mdsTask(300),
			mdsTask(700),
			kpcaTask(300),
			geodesicTask(300, 8),
			gemmTask(200, 50),
			isomapTask(400, 10),
			lleTask(400, 10),
			spectralTask(400, 10),
			tsneTask(clusterData(300)),
			umapTask(clusterData(300)),
		}, sdpTasks(false)...)
	}
	return append([]task{
		trustTask(1000, 50, 5), trustTask(2000, 50, 5), trustTask(5000, 50, 5),
		knnBruteTask(2000, 784, 10), knnBruteTask(4000, 784, 10), knnBruteTask(8000, 784, 10),
		pcaTask(10000, 784, "arpack"), pcaTask(70000, 784, "arpack"),
		pcaTask(10000, 784, "randomized"), pcaTask(70000, 784, "randomized"),
		kdTreeTask(5000, 10), kdTreeTask(20000, 10), kdTreeTask(80000, 10),
		mdsTask(500), mdsTask(1000), mdsTask(2000), mdsTask(4000),
		kpcaTask(1000), kpcaTask(2000), kpcaTask(4000),
		geodesicTask(1000, 10), geodesicTask(2000, 10), geodesicTask(4000, 10),
		gemmTask(2000, 784), gemmTask(4000, 784),
		isomapTask(1000, 10), isomapTask(2000, 10), isomapTask(4000, 10),
		lleTask(1000, 10), lleTask(2000, 10), lleTask(4000, 10),
		spectralTask(1000, 10), spectralTask(2000, 10), spectralTask(4000, 10),
		// Crossover ladders: sizes on both sides of each solver switch
		// (linalg.DenseMax, once 200; the Chebyshev filter from 500;
		// LLE's shift-invert, once from 1000), where a size just below
		// a switch must not cost more than one above it.
		mdsTask(200), mdsTask(201), kpcaTask(200), kpcaTask(201),
		lleTask(500, 10), lleTask(900, 10), lleTask(990, 10), lleTask(1100, 10),
		spectralTask(490, 10), spectralTask(500, 10), spectralTask(990, 10),
	}, sdpTasks(true)...)
}

// neTasks returns the neighbour-embedding rows (t-SNE and UMAP at
// n = 9298, 10 000 and 50 000), the set recorded by -ne: about 40 minutes
// per run, so they are kept out of the default run and timed once per side.
func neTasks() []task {
	return []task{
		tsneTask(uspsData), tsneTask(clusterData(10000)), tsneTask(clusterData(50000)),
		umapTask(uspsData), umapTask(clusterData(10000)), umapTask(clusterData(50000)),
	}
}

// lowRank returns an n×p sample of rank-r structure plus noise,
// Y = Z diag(s) W + 0.1 E with Z, W, E standard normal and scales
// s = 10, 6, 3, 2, 1.5, … (well separated leading directions, as in image
// data; MNIST itself is not available here, so PCA and kNN use data of its
// shape).
func lowRank(n, p, r int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 7))
	z := mat.NewDense(n, r, nil)
	w := mat.NewDense(r, p, nil)
	scales := []float64{10, 6, 3, 2}
	for j := 0; j < r; j++ {
		s := 1.5 / float64(j+1) * 4
		if j < len(scales) {
			s = scales[j]
		}
		for i := 0; i < n; i++ {
			z.Set(i, j, s*rnd.NormFloat64())
		}
		for i := 0; i < p; i++ {
			w.Set(j, i, rnd.NormFloat64()/math.Sqrt(float64(p)))
		}
	}
	y := mat.NewDense(n, p, nil)
	y.Mul(z, w)
	d := y.RawMatrix().Data
	for i := range d {
		d[i] += 0.1 * rnd.NormFloat64()
	}
	return y
}

// gaussian returns n×p standard normal points.
func gaussian(n, p int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 11))
	y := mat.NewDense(n, p, nil)
	for i := range y.RawMatrix().Data {
		y.RawMatrix().Data[i] = rnd.NormFloat64()
	}
	return y
}

// swissRoll returns n points on the swiss roll (t cos t, h, t sin t),
// t ∈ [1.5π, 4.5π], h ∈ [0, 21].
func swissRoll(n int, seed uint64) *mat.Dense {
	return datasets.SwissRoll(n, rand.NewPCG(seed, 13)).Y
}

func trustTask(n, p, k int) task {
	var Y, X *mat.Dense
	var got float64
	return task{
		name: fmt.Sprintf("trustworthiness n = %d (p = %d → 2-D, k = %d)", n, p, k),
		py:   "trust",
		gen: func(dir string) error {
			y := lowRank(n, p, 10, 1)
			r := gaussian(p, 2, 2)
			var x mat.Dense
			x.Mul(y, r)
			return writeInputs(dir, map[string]any{"k": k}, "Y", y, "X", &x)
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			if X, err = readNpy(dir + "/X.npy"); err != nil {
				return nil, nil, err
			}
			run := func() (err error) { got, err = dimred.Trustworthiness(Y, X, k); return err }
			check := func(dir string) (string, bool, error) {
				v, err := readNpy(dir + "/py-value.npy")
				if err != nil {
					return "", false, err
				}
				d := math.Abs(got - v.At(0, 0))
				return fmt.Sprintf("T = %.6f, |ΔT| = %.1e", got, d), d <= 1e-9, nil
			}
			return run, check, nil
		},
	}
}

// knnCheck compares neighbour lists: identical index sets for every point,
// except where the k-th and (k+1)-th distances tie to round-off.
func knnCheck(nb *neighbours.Neighbours, dir string) (string, bool, error) {
	pi, err := readNpy(dir + "/py-index.npy")
	if err != nil {
		return "", false, err
	}
	pd, err := readNpy(dir + "/py-dist.npy")
	if err != nil {
		return "", false, err
	}
	differ, maxd := 0, 0.0
	for i := 0; i < nb.N; i++ {
		idx, dist := nb.Of(i)
		set := map[int]bool{}
		for _, j := range idx {
			set[j] = true
		}
		same := true
		for m := 0; m < nb.K; m++ {
			if !set[int(pi.At(i, m))] {
				same = false
			}
			maxd = math.Max(maxd, math.Abs(dist[m]-pd.At(i, m)))
		}
		if !same {
			differ++
		}
	}
	return fmt.Sprintf("%d of %d neighbour sets differ, max |Δd| = %.1e", differ, nb.N, maxd),
		differ == 0 && maxd <= 1e-8, nil
}

func knnBruteTask(n, p, k int) task {
	var Y *mat.Dense
	var nb *neighbours.Neighbours
	return task{
		name: fmt.Sprintf("kNN brute force n = %d, p = %d, k = %d", n, p, k),
		py:   "knn-brute",
		gen: func(dir string) error {
			return writeInputs(dir, map[string]any{"k": k}, "Y", lowRank(n, p, 20, 3))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() (err error) { nb, err = neighbours.KNearest(Y, k); return err }
			return run, func(dir string) (string, bool, error) { return knnCheck(nb, dir) }, nil
		},
	}
}

func kdTreeTask(n, k int) task {
	var Y *mat.Dense
	var nb *neighbours.Neighbours
	return task{
		name: fmt.Sprintf("kd-tree kNN n = %d, p = 3, k = %d", n, k),
		py:   "kdtree",
		gen: func(dir string) error {
			return writeInputs(dir, map[string]any{"k": k}, "Y", gaussian(n, 3, 4))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() (err error) { nb, err = neighbours.KNearest(Y, k); return err }
			return run, func(dir string) (string, bool, error) { return knnCheck(nb, dir) }, nil
		},
	}
}

// eigCheck compares leading eigenvalues (relative) and the subspaces
// spanned by the two sides' vectors (largest principal angle).
func eigCheck(vals []float64, vecs mat.Matrix, dir string, valTol, angTol float64) (string, bool, error) {
	pv, err := readNpy(dir + "/py-vals.npy")
	if err != nil {
		return "", false, err
	}
	pU, err := readNpy(dir + "/py-vecs.npy")
	if err != nil {
		return "", false, err
	}
	rel := 0.0
	for i, v := range vals {
		rel = math.Max(rel, math.Abs(v-pv.At(i, 0))/math.Abs(pv.At(0, 0)))
	}
	ang := linalg.SubspaceAngle(vecs, pU)
	return fmt.Sprintf("max rel Δλ = %.1e, subspace angle = %.1e", rel, ang), rel <= valTol && ang <= angTol, nil
}

func pcaTask(n, p int, solver string) task {
	var Y *mat.Dense
	var m dimred.PCA
	name := fmt.Sprintf("PCA q = 2, %d×%d, vs ARPACK (dimred default)", n, p)
	tol := 1e-8
	if solver == "randomized" {
		name = fmt.Sprintf("PCA q = 2, %d×%d, randomized both sides", n, p)
		tol = 1e-5
	}
	return task{
		name: name,
		py:   "pca-" + solver,
		gen: func(dir string) error {
			return writeInputs(dir, map[string]any{"q": 2}, "Y", lowRank(n, p, 20, 5))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() error {
				m = dimred.PCA{Q: 2}
				if solver == "randomized" {
					m.Method = dimred.PCARandomized
				}
				return m.Fit(Y)
			}
			check := func(dir string) (string, bool, error) {
				var U mat.Dense
				m.LoadingsTo(&U)
				return eigCheck(m.EigenvaluesTo(nil), &U, dir, tol, math.Sqrt(tol))
			}
			return run, check, nil
		},
	}
}

func mdsTask(n int) task {
	var D *mat.SymDense
	var m dimred.ClassicalMDS
	return task{
		name: fmt.Sprintf("classical MDS top-2, n = %d (from squared distances)", n),
		py:   "mds",
		gen: func(dir string) error {
			var d mat.SymDense
			linalg.PairwiseSquaredDistances(&d, lowRank(n, 20, 10, 6))
			full := mat.NewDense(n, n, nil)
			full.Copy(&d)
			return writeInputs(dir, map[string]any{"q": 2}, "D", full)
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			full, err := readNpy(dir + "/D.npy")
			if err != nil {
				return nil, nil, err
			}
			D = mat.NewSymDense(n, full.RawMatrix().Data)
			run := func() error { m = dimred.ClassicalMDS{Q: 2}; return m.FitDistances(D) }
			check := func(dir string) (string, bool, error) {
				var X mat.Dense
				m.LatentTo(&X)
				return eigCheck(m.EigenvaluesTo(nil)[:2], &X, dir, 1e-9, 1e-6)
			}
			return run, check, nil
		},
	}
}

func kpcaTask(n int) task {
	var Y *mat.Dense
	var m dimred.KernelPCA
	const gamma = 0.05
	return task{
		name: fmt.Sprintf("RBF kernel PCA top-2, n = %d, p = 10", n),
		py:   "kpca",
		gen: func(dir string) error {
			return writeInputs(dir, map[string]any{"q": 2, "gamma": gamma}, "Y", lowRank(n, 10, 5, 8))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() error {
				m = dimred.KernelPCA{Kernel: kernel.RBFGamma(gamma), Q: 2}
				return m.Fit(Y)
			}
			check := func(dir string) (string, bool, error) {
				var U mat.Dense
				m.EigenvectorsTo(&U)
				return eigCheck(m.EigenvaluesTo(nil), &U, dir, 1e-9, 1e-6)
			}
			return run, check, nil
		},
	}
}

func geodesicTask(n, k int) task {
	var Y *mat.Dense
	var G *mat.SymDense
	return task{
		name: fmt.Sprintf("geodesics (kNN graph + all-pairs Dijkstra), swiss roll n = %d, k = %d", n, k),
		py:   "geodesic",
		gen: func(dir string) error {
			return writeInputs(dir, map[string]any{"k": k}, "Y", swissRoll(n, 9))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() error {
				g, err := neighbours.KNNGraph(Y, k, neighbours.Union)
				if err != nil {
					return err
				}
				G, err = neighbours.GeodesicDistances(g)
				return err
			}
			check := func(dir string) (string, bool, error) {
				pD, err := readNpy(dir + "/py-D.npy")
				if err != nil {
					return "", false, err
				}
				mx, scale := 0.0, 0.0
				for i := 0; i < n; i++ {
					for j := i; j < n; j++ {
						mx = math.Max(mx, math.Abs(G.At(i, j)-pD.At(i, j)))
						scale = math.Max(scale, pD.At(i, j))
					}
				}
				return fmt.Sprintf("max |ΔD| / max D = %.1e", mx/scale), mx <= 1e-10*scale, nil
			}
			return run, check, nil
		},
	}
}

func gemmTask(n, p int) task {
	var A, B *mat.Dense
	var C mat.Dense
	return task{
		name:  fmt.Sprintf("matrix product %d×%d · %d×%d (GFlop/s in the note)", n, p, p, n),
		py:    "gemm",
		flops: 2 * float64(n) * float64(p) * float64(n),
		gen: func(dir string) error {
			return writeInputs(dir, nil, "A", gaussian(n, p, 10), "B", gaussian(p, n, 12))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if A, err = readNpy(dir + "/A.npy"); err != nil {
				return nil, nil, err
			}
			if B, err = readNpy(dir + "/B.npy"); err != nil {
				return nil, nil, err
			}
			run := func() error { C.Reset(); C.Mul(A, B); return nil }
			check := func(dir string) (string, bool, error) {
				pC, err := readNpy(dir + "/py-C.npy")
				if err != nil {
					return "", false, err
				}
				var d mat.Dense
				d.Sub(&C, pC)
				rel := mat.Norm(&d, math.Inf(1)) / mat.Norm(pC, math.Inf(1))
				return fmt.Sprintf("‖ΔC‖∞/‖C‖∞ = %.1e", rel), rel <= 1e-12, nil
			}
			return run, check, nil
		},
	}
}

// embedTask is a spectral embedding of the swiss roll (n points, k
// neighbours, q = 2) by fit, compared with scikit-learn's by the largest
// principal angle between the two embeddings' column spaces (each method's
// coordinates are eigenvectors, up to per-column scale and sign).
func embedTask(label, py string, n, k int, params map[string]any, fit func(Y *mat.Dense) (*mat.Dense, error)) task {
	var Y, X *mat.Dense
	return task{
		name: fmt.Sprintf("%s, swiss roll n = %d, k = %d, q = 2", label, n, k),
		py:   py,
		gen: func(dir string) error {
			p := map[string]any{"k": k, "q": 2}
			for key, v := range params {
				p[key] = v
			}
			return writeInputs(dir, p, "Y", swissRoll(n, 15))
		},
		setup: func(dir string) (func() error, func(string) (string, bool, error), error) {
			var err error
			if Y, err = readNpy(dir + "/Y.npy"); err != nil {
				return nil, nil, err
			}
			run := func() (err error) { X, err = fit(Y); return err }
			check := func(dir string) (string, bool, error) {
				pX, err := readNpy(dir + "/py-X.npy")
				if err != nil {
					return "", false, err
				}
				ang := linalg.SubspaceAngle(X, pX)
				if ref, err := readNpy(dir + "/py-Xref.npy"); err == nil {
					// A more accurate reference (LLE: the dense solution).
					ra := linalg.SubspaceAngle(X, ref)
					return fmt.Sprintf("subspace angle = %.1e to the dense solution (%.1e to the timed one)", ra, ang), ra <= 1e-4, nil
				}
				return fmt.Sprintf("subspace angle = %.1e", ang), ang <= 1e-4, nil
			}
			return run, check, nil
		},
	}
}

func isomapTask(n, k int) task {
	return embedTask("Isomap", "isomap", n, k, nil, func(Y *mat.Dense) (*mat.Dense, error) {
		m := dimred.Isomap{Q: 2, K: k}
		if err := m.Fit(Y); err != nil {
			return nil, err
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X, nil
	})
}

func lleTask(n, k int) task {
	return embedTask("LLE", "lle", n, k, map[string]any{"reg": 1e-3}, func(Y *mat.Dense) (*mat.Dense, error) {
		m := dimred.LLE{Q: 2, K: k, Reg: 1e-3}
		if err := m.Fit(Y); err != nil {
			return nil, err
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X, nil
	})
}

// spectralTask is Laplacian eigenmaps with 0/1 weights on the union kNN
// graph and the normalised (generalised) problem: scikit-learn's
// SpectralEmbedding on the same graph (built in its timed part).
func spectralTask(n, k int) task {
	return embedTask("spectral embedding (Laplacian eigenmaps, 0/1 weights)", "spectral", n, k, nil, func(Y *mat.Dense) (*mat.Dense, error) {
		m := dimred.LaplacianEigenmaps{Q: 2, K: k, Weighting: dimred.ConstantWeights, Problem: dimred.LEGeneralised}
		if err := m.Fit(Y); err != nil {
			return nil, err
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X, nil
	})
}

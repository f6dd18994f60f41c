package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
)

// clusters returns n points in p dimensions from c Gaussian clusters of
// unit spread whose centres are drawn N(0, 4²I): the kind of data t-SNE and
// UMAP are used on.
func clusters(n, p, c int, seed uint64) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 17))
	centres := make([][]float64, c)
	for k := range centres {
		centres[k] = make([]float64, p)
		for j := range centres[k] {
			centres[k][j] = 4 * rnd.NormFloat64()
		}
	}
	y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		ctr := centres[i%c]
		for j := 0; j < p; j++ {
			y.Set(i, j, ctr[j]+rnd.NormFloat64())
		}
	}
	return y
}

// uspsAll is the whole USPS digits set, the training split followed by the
// test split: 9298 images of 16×16 = 256 grey values.
func uspsAll() (*mat.Dense, error) {
	tr, err := datasets.USPS("train")
	if err != nil {
		return nil, err
	}
	te, err := datasets.USPS("test")
	if err != nil {
		return nil, err
	}
	var y mat.Dense
	y.Stack(tr.Y, te.Y)
	return &y, nil
}

// neData is a neighbour-embedding input: its description and generator.
type neData struct {
	what string
	gen  func() (*mat.Dense, error)
}

func clusterData(n int) neData {
	return neData{fmt.Sprintf("%d clustered points, p = 50", n), func() (*mat.Dense, error) { return clusters(n, 50, 10, 3), nil }}
}

var uspsData = neData{"USPS digits (9298 × 256)", uspsAll}

// neTask is a neighbour embedding (t-SNE or UMAP) of data (n×p) against
// scikit-learn's TSNE or umap-learn's UMAP with their default settings. The two embeddings differ (stochastic, non-convex), so
// the check compares their quality: trustworthiness T(10) estimated on the
// same 1000 query points for both (SampledTrustworthiness), which must
// agree within 0.01 (issue 27's bar) plus twice the estimates' standard
// error.
func neTask(label, py string, data neData, fit func(Y *mat.Dense) (*mat.Dense, error)) task {
	var Y, X *mat.Dense
	return task{
		name: fmt.Sprintf("%s, %s → 2-D", label, data.what),
		py:   py,
		gen: func(dir string) error {
			y, err := data.gen()
			if err != nil {
				return err
			}
			return writeInputs(dir, map[string]any{"q": 2}, "Y", y)
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
				n, _ := Y.Dims()
				m := min(1000, n)
				t, se, err := dimred.SampledTrustworthiness(Y, X, 10, m, rand.NewPCG(5, 5))
				if err != nil {
					return "", false, err
				}
				tp, sep, err := dimred.SampledTrustworthiness(Y, pX, 10, m, rand.NewPCG(5, 5))
				if err != nil {
					return "", false, err
				}
				d := math.Abs(t - tp)
				return fmt.Sprintf("T(10) %.4f ± %.4f (reference %.4f ± %.4f)", t, se, tp, sep), d <= 0.01+2*math.Hypot(se, sep), nil
			}
			return run, check, nil
		},
	}
}

func tsneTask(data neData) task {
	return neTask("t-SNE (Barnes–Hut, perplexity 30, 1000 iterations)", "tsne", data, func(Y *mat.Dense) (*mat.Dense, error) {
		m := dimred.TSNE{}
		n, _ := Y.Dims()
		if n < 1000 {
			m.Perplexity = 10
		}
		if err := m.Fit(Y); err != nil {
			return nil, err
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X, nil
	})
}

func umapTask(data neData) task {
	return neTask("UMAP (15 neighbours)", "umap", data, func(Y *mat.Dense) (*mat.Dense, error) {
		m := dimred.UMAP{}
		if err := m.Fit(Y); err != nil {
			return nil, err
		}
		var X mat.Dense
		m.LatentTo(&X)
		return &X, nil
	})
}

package dimred_test

import (
	"testing"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/dimredtest"
	"github.com/dimredbook/book/dimred/kernel"
)

// Every embedding method of the package is held to one contract (the
// package documentation, "Conventions"; DESIGN.md, "API conventions"): the
// public suite dimredtest runs every check on each row below. A method
// added to the package joins by one row here.

// embedders are the methods with no out-of-sample map.
var embedders = []struct {
	name string
	new  func() dimred.Embedder
	opts dimredtest.Options
}{
	{"MixturePPCA", func() dimred.Embedder { return &dimred.MixturePPCA{M: 2, Q: 2} }, dimredtest.Options{Q: 2}},
	// Q is an upper bound that ARD prunes; zero means the largest useful one.
	{"BayesianPCA", func() dimred.Embedder { return &dimred.BayesianPCA{Q: 4} }, dimredtest.Options{Q: 4, ZeroQDefault: true}},
	{"FeatureSelection", func() dimred.Embedder { return &dimred.FeatureSelection{Q: 2} }, dimredtest.Options{Q: 2, QBoundedByP: true}},
	{"PrincipalCoordinates", func() dimred.Embedder { return &dimred.PrincipalCoordinates{Q: 2} }, dimredtest.Options{Q: 2}},
	{"MVU", func() dimred.Embedder { return &dimred.MVU{Q: 2, K: 5} }, dimredtest.Options{Q: 2}},
	{"MEU", func() dimred.Embedder { return &dimred.MEU{K: 5, Q: 2} }, dimredtest.Options{Q: 2}},
	{"AcyclicLLE", func() dimred.Embedder { return &dimred.AcyclicLLE{K: 4, Q: 2} }, dimredtest.Options{Q: 2}},
	{"DRILL", func() dimred.Embedder { return &dimred.DRILL{K: 5, Q: 2} }, dimredtest.Options{Q: 2}},
	{"DRILL/AllPairs", func() dimred.Embedder { return &dimred.DRILL{AllPairs: true, Rho: 0.05, Q: 2} }, dimredtest.Options{Q: 2}},
}

// projectors are the methods with an out-of-sample map. ProjTol is the
// largest relative |ProjectTo(training rows) − LatentTo|.
var projectors = []struct {
	name string
	new  func() dimred.Projector
	opts dimredtest.Options
}{
	{"PCA", func() dimred.Projector { return &dimred.PCA{Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	{"PCA/randomized", func() dimred.Projector { return &dimred.PCA{Q: 2, Method: dimred.PCARandomized} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	// NaN in new data marks a missing entry, marginalised.
	{"PPCA", func() dimred.Projector { return &dimred.PPCA{Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-12, ProjectMissing: true}},
	{"PPCA/EM", func() dimred.Projector { return &dimred.PPCA{Q: 2, Method: dimred.PPCAEM, Tol: 1e-9} }, dimredtest.Options{Q: 2, ProjTol: 1e-12, ProjectMissing: true}},
	{"FactorAnalysis", func() dimred.Projector { return &dimred.FactorAnalysis{Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	{"FeatureExtraction", func() dimred.Projector { return &dimred.FeatureExtraction{Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	// Gower's add-a-point formula reproduces a fitted point exactly for
	// Euclidean distances, to the rounding of D and of the eigenpairs.
	{"ClassicalMDS", func() dimred.Projector { return &dimred.ClassicalMDS{Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	{"ClassicalMDS/landmark", func() dimred.Projector { return &dimred.ClassicalMDS{Q: 2, Landmarks: 15} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	// X* = K̃t U Λ^{−1/2} = U Λ^{1/2} for the training rows, to the
	// eigensolver's residual.
	{"KernelPCA/RBF", func() dimred.Projector { return &dimred.KernelPCA{Kernel: kernel.RBF{LengthScale: 2}, Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	{"KernelPCA/Linear", func() dimred.Projector { return &dimred.KernelPCA{Kernel: kernel.Linear{}, Q: 2} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	// LE's Nyström extension joins a training row to itself and its k−1
	// nearest, not to its graph neighbours: approximate (measured 0.11
	// here; spectral_test.go checks the extension itself). LLE and Isomap
	// place training rows exactly.
	{"LaplacianEigenmaps", func() dimred.Projector { return &dimred.LaplacianEigenmaps{Q: 2, K: 8, T: 20} }, dimredtest.Options{Q: 2, ProjTol: 0.25}},
	{"LLE", func() dimred.Projector { return &dimred.LLE{Q: 2, K: 8} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	{"Isomap", func() dimred.Projector { return &dimred.Isomap{Q: 2, K: 8} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	{"Isomap/landmark", func() dimred.Projector { return &dimred.Isomap{Q: 2, K: 8, Landmarks: 15} }, dimredtest.Options{Q: 2, ProjTol: 1e-9}},
	// Neighbour embeddings are not functions of the data: ProjectTo
	// optimises a new point against the fixed embedding, so a training
	// row lands near, not on, its fitted position (measured 0.063 for t-SNE
	// and 0.027 and 0.024 for UMAP, relative, on the suite's data and its
	// collinear data; a ProjectTo that ignored the data would be off by the
	// embedding's spread, order 1). t-SNE on collinear data is skipped: see
	// Options.NoCollinearProjection.
	{"TSNE", func() dimred.Projector { return &dimred.TSNE{Q: 2, Perplexity: 5} }, dimredtest.Options{Q: 2, ProjTol: 0.15, ZeroQDefault: true, NoCollinearProjection: true}},
	{"UMAP", func() dimred.Projector { return &dimred.UMAP{Q: 2, NNeighbors: 5} }, dimredtest.Options{Q: 2, ProjTol: 0.1, ZeroQDefault: true}},
	// The posterior mean of a training row is its latent position.
	{"GTM", func() dimred.Projector { return &dimred.GTM{Q: 2, Grid: 6} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	{"DensityNetwork", func() dimred.Projector { return &dimred.DensityNetwork{Q: 2, Samples: 30, Hidden: 5} }, dimredtest.Options{Q: 2, ProjTol: 1e-12}},
	// ProjectTo maximises one point's predictive density from the nearest
	// training point; the fitted x_i maximise the joint likelihood, so the
	// projection moves the training rows a little (measured 5.4e-3 exact,
	// 4.1e-3 sparse, relative).
	// With the length scale held under the N(0, I) prior (GPLVM doc) the fits
	// need 300 (exact) and 1000 (sparse, collinear data) iterations to come
	// within the tolerance of their optimum; at 30 they were 0.07–0.12 off.
	{"GPLVM", func() dimred.Projector { return &dimred.GPLVM{Q: 2, MaxIter: 300, Tol: -1} }, dimredtest.Options{Q: 2, ProjTol: 0.02}},
	{"GPLVM/sparse", func() dimred.Projector { return &dimred.GPLVM{Q: 2, Inducing: 10, MaxIter: 1000, Tol: -1} }, dimredtest.Options{Q: 2, ProjTol: 0.02}},
	// A user kernel: Fit must optimise a copy, not the caller's kernel.
	{"GPLVM/user kernel", func() dimred.Projector {
		return &dimred.GPLVM{Q: 2, MaxIter: 300, Tol: -1, Kernel: kernel.Sum{&kernel.RBF{Variance: 1, LengthScale: 1}, &kernel.Bias{Variance: 0.1}}}
	}, dimredtest.Options{Q: 2, ProjTol: 0.02}},
}

func TestConformance(t *testing.T) {
	for _, c := range embedders {
		t.Run(c.name, func(t *testing.T) { dimredtest.Embedder(t, c.new, c.opts) })
	}
	for _, c := range projectors {
		t.Run(c.name, func(t *testing.T) { dimredtest.Projector(t, c.new, c.opts) })
	}
}

// Compile-time assertions: each method implements Embedder, and those with
// an out-of-sample map implement Projector.
var (
	_ dimred.Projector     = (*dimred.PCA)(nil)
	_ dimred.Projector     = (*dimred.PPCA)(nil)
	_ dimred.Projector     = (*dimred.FactorAnalysis)(nil)
	_ dimred.Embedder      = (*dimred.MixturePPCA)(nil)
	_ dimred.Embedder      = (*dimred.BayesianPCA)(nil)
	_ dimred.Embedder      = (*dimred.FeatureSelection)(nil)
	_ dimred.Projector     = (*dimred.FeatureExtraction)(nil)
	_ dimred.Embedder      = (*dimred.PrincipalCoordinates)(nil)
	_ dimred.Projector     = (*dimred.ClassicalMDS)(nil)
	_ dimred.Projector     = (*dimred.KernelPCA)(nil)
	_ dimred.Embedder      = (*dimred.MVU)(nil)
	_ dimred.Projector     = (*dimred.GPLVM)(nil)
	_ dimred.Projector     = (*dimred.LaplacianEigenmaps)(nil)
	_ dimred.Projector     = (*dimred.LLE)(nil)
	_ dimred.Projector     = (*dimred.Isomap)(nil)
	_ dimred.SpectralModel = (*dimred.LaplacianEigenmaps)(nil)
	_ dimred.SpectralModel = (*dimred.LLE)(nil)
	_ dimred.SpectralModel = (*dimred.Isomap)(nil)
)

// Every method of the package has FitContext (the package doc,
// "Cancellation and progress"): its Context and Progress checks above do
// not skip.
func TestEveryMethodHasFitContext(t *testing.T) {
	for _, c := range embedders {
		if _, ok := c.new().(dimred.ContextFitter); !ok {
			t.Errorf("%s has no FitContext", c.name)
		}
	}
	for _, c := range projectors {
		if _, ok := c.new().(dimred.ContextFitter); !ok {
			t.Errorf("%s has no FitContext", c.name)
		}
	}
	var s dimred.Embedder = &dimred.Subsample{M: 10, Method: &dimred.MVU{Q: 2}}
	if _, ok := s.(dimred.ContextFitter); !ok {
		t.Error("Subsample has no FitContext")
	}
}

package dimred

import (
	"math/rand/v2"
	"testing"

	"github.com/dimredbook/book/dimred/kernel"
	"gonum.org/v1/gonum/mat"
)

// Every embedding method of the package is held to one contract (DESIGN.md,
// "API conventions"): the same checks run over the table below. A method
// added to the package joins by one line here.

// Compile-time assertions: each method implements Embedder, and those with
// an out-of-sample map implement Projector.
var (
	_ Projector = (*PCA)(nil)
	_ Projector = (*PPCA)(nil)
	_ Projector = (*FactorAnalysis)(nil)
	_ Embedder  = (*MixturePPCA)(nil)
	_ Embedder  = (*BayesianPCA)(nil)
	_ Embedder  = (*FeatureSelection)(nil)
	_ Projector = (*FeatureExtraction)(nil)
	_ Embedder  = (*PrincipalCoordinates)(nil)
	_ Projector = (*ClassicalMDS)(nil)
	_ Projector = (*KernelPCA)(nil)
)

// conformanceCase is one method under the contract: new returns a fresh
// model whose latent dimension is q on conformanceData.
type conformanceCase struct {
	name string
	q    int
	new  func() Embedder
}

var conformanceCases = []conformanceCase{
	{"PCA", 2, func() Embedder { return &PCA{Q: 2} }},
	{"PCA/randomized", 2, func() Embedder { return &PCA{Q: 2, Method: PCARandomized} }},
	{"PPCA", 2, func() Embedder { return &PPCA{Q: 2} }},
	{"PPCA/EM", 2, func() Embedder { return &PPCA{Q: 2, Algorithm: PPCAEM, Tol: 1e-9} }},
	{"FactorAnalysis", 2, func() Embedder { return &FactorAnalysis{Q: 2} }},
	{"MixturePPCA", 2, func() Embedder { return &MixturePPCA{M: 2, Q: 2} }},
	{"BayesianPCA", 4, func() Embedder { return &BayesianPCA{Q: 4} }},
	{"FeatureSelection", 2, func() Embedder { return &FeatureSelection{Q: 2} }},
	{"FeatureExtraction", 2, func() Embedder { return &FeatureExtraction{Q: 2} }},
	{"PrincipalCoordinates", 2, func() Embedder { return &PrincipalCoordinates{Q: 2} }},
	{"ClassicalMDS", 2, func() Embedder { return &ClassicalMDS{Q: 2} }},
	{"KernelPCA/RBF", 2, func() Embedder { return &KernelPCA{Kernel: kernel.RBF{LengthScale: 2}, Q: 2} }},
	{"KernelPCA/Linear", 2, func() Embedder { return &KernelPCA{Kernel: kernel.Linear{}, Q: 2} }},
	{"MEU", 2, func() Embedder { return &MEU{K: 5} }},
	{"AcyclicLLE", 2, func() Embedder { return &AcyclicLLE{K: 4} }},
	{"DRILL", 2, func() Embedder { return &DRILL{K: 5} }},
	{"DRILL/AllPairs", 2, func() Embedder { return &DRILL{AllPairs: true, Rho: 0.05} }},
}

// conformanceData is the shared 40×5 data set: a 2-D linear structure with
// small isotropic noise and distinct column scales, deterministic.
func conformanceData() *mat.Dense {
	rnd := rand.New(rand.NewPCG(40, 5))
	n, p := 40, 5
	Y := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		a, b := rnd.NormFloat64(), rnd.NormFloat64()
		for j := 0; j < p; j++ {
			Y.Set(i, j, float64(j+1)*a+float64(p-j)*0.5*b+0.1*rnd.NormFloat64())
		}
	}
	return Y
}

// Fit never modifies Y.
func TestConformanceYUnmodified(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := conformanceData()
			orig := mat.DenseCopyOf(Y)
			if err := c.new().Fit(Y); err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(Y, orig) {
				t.Error("Fit modified Y")
			}
		})
	}
}

// LatentTo resizes an empty dst to n×q and panics on a wrong shape.
func TestConformanceLatentTo(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			Y := conformanceData()
			n, _ := Y.Dims()
			m := c.new()
			if err := m.Fit(Y); err != nil {
				t.Fatal(err)
			}
			var X mat.Dense
			m.LatentTo(&X)
			if r, q := X.Dims(); r != n || q != c.q {
				t.Fatalf("LatentTo gave %d×%d, want %d×%d", r, q, n, c.q)
			}
			mustPanic(t, "LatentTo wrong shape", func() { m.LatentTo(mat.NewDense(n+1, c.q, nil)) })
		})
	}
}

// Use before a successful Fit panics.
func TestConformanceUnfitted(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			mustPanic(t, "LatentTo before Fit", func() {
				var X mat.Dense
				c.new().LatentTo(&X)
			})
		})
	}
}

// A nil Src means a fixed seed: two fits give bit-identical results.
func TestConformanceDeterministic(t *testing.T) {
	for _, c := range conformanceCases {
		t.Run(c.name, func(t *testing.T) {
			var X1, X2 mat.Dense
			for _, X := range []*mat.Dense{&X1, &X2} {
				m := c.new()
				if err := m.Fit(conformanceData()); err != nil {
					t.Fatal(err)
				}
				m.LatentTo(X)
			}
			if !mat.Equal(&X1, &X2) {
				t.Error("two fits with nil Src differ")
			}
		})
	}
}

package figures

import (
	"testing"
)

// TestChapter8Figures: t-SNE and UMAP on the oil data reach the
// trustworthiness of scikit-learn's TSNE and umap-learn within 0.01 (the
// reference numbers carry their provenance in the figure), and the
// drawings match their goldens.
func TestChapter8Figures(t *testing.T) {
	if testing.Short() {
		t.Skip("fits t-SNE and UMAP on 1000 points")
	}
	for _, make := range []func() (*Figure, error){FigX8_1OilNeighbourEmbeddings, FigX8_2OilLocalTrust} {
		f := makeData(t, make)
		for _, n := range f.Numbers {
			if n.HasReference() && !n.Agrees() {
				t.Errorf("%s: %s = %.4f, reference %.4f ± %g", f.ID, n.Name, n.Ours, n.Ref, n.Tol)
			}
		}
		checkGolden(t, f)
	}
	es, _ := OilNeighbourEmbeddings()
	byName := map[string]NeighbourEmbedding{}
	for _, e := range es {
		byName[e.Method] = e
	}
	// Neighbour embeddings keep local neighbourhoods better than PCA, and
	// separate the flow regimes: PCA makes 162 nearest-neighbour errors (X7.2).
	for _, m := range []string{"t-SNE", "UMAP"} {
		if byName[m].T <= byName["PCA"].T || byName[m].NNErrors >= 20 {
			t.Errorf("%s: T(10) %.4f (PCA %.4f), %d errors", m, byName[m].T, byName["PCA"].T, byName[m].NNErrors)
		}
	}
}

package figures

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/dimredbook/book/datasets/dstest"
	"gonum.org/v1/gonum/mat"
)

// X5.7 and mvuEmbedding: MVU on the paper's robot WiFi (k = 7) and stick
// man (k = 6) data converges to the SDP's default tolerance, unfolds into
// two dimensions, and places the robot's frames closer to its true path
// (Procrustes) than PCA of the signal strengths does; the golden drawing.
func TestFigX5_7RobotMVU(t *testing.T) {
	if testing.Short() {
		t.Skip("robot WiFi MVU: a 215-point SDP (seconds)")
	}
	if _, err := mvuRobot(nil); err != nil {
		dstest.Check(t, err)
		t.Fatal(err)
	}
	f, err := FigX5_7RobotMVU()
	if err != nil {
		t.Fatal(err)
	}
	num := map[string]float64{}
	for _, n := range f.Numbers {
		num[n.Name] = n.Ours
		t.Logf("%s = %.6g", n.Name, n.Ours)
	}
	mvu, pca, spread := num["MVU Procrustes RMS error against the true path"], num["PCA Procrustes RMS error (baseline)"], num["RMS distance of the true path from its centroid"]
	if mvu >= pca {
		t.Errorf("MVU Procrustes RMS %.3f not below PCA's %.3f", mvu, pca)
	}
	if mvu > 0.3*spread {
		t.Errorf("MVU Procrustes RMS %.3f above 30%% of the path's spread %.3f", mvu, spread)
	}
	if g := num["SDP relative duality gap"]; g > 1e-7 {
		t.Errorf("duality gap %g > 1e-7", g)
	}
	if s := num["share of tr K in the top two eigenvalues"]; s < 0.95 {
		t.Errorf("top-2 share %.3f: not unfolded", s)
	}
	if l := num["λ₂ of the dual Laplacian L(w) (1 at the optimum)"]; math.Abs(l-1) > 1e-4 {
		t.Errorf("λ₂(L(w)) = %.6f, want 1", l)
	}
	checkTimeKey(t, f)
	checkGolden(t, f)

	for _, c := range []struct {
		name string
		n    int
	}{{"stick", 55}, {"robot_wireless", 215}} {
		X, err := mvuEmbedding(c.name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r, q := X.Dims(); r != c.n || q != 2 {
			t.Errorf("%s embedding %d×%d, want %d×2", c.name, r, q, c.n)
		}
	}
	stick, _ := mvuStick(nil)
	if r := stick.Model.SDPReport(); !r.Converged || r.Gap > 1e-7 {
		t.Errorf("stick man SDP %+v", r)
	}
}

// mvuEmbedding keeps the stick man's and the robot's MVU embeddings in the
// on-disk cache, one entry each, and what it reads back is the fit's
// embedding bit for bit.
func TestMVUEmbeddingCached(t *testing.T) {
	if testing.Short() {
		t.Skip("robot WiFi MVU: a 215-point SDP (seconds)")
	}
	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	for _, c := range []struct {
		name string
		fit  func(*Progress) (*mvuFit, error)
	}{{"stick", mvuStick}, {"robot_wireless", mvuRobot}} {
		f, err := c.fit(nil)
		if err != nil {
			dstest.Check(t, err)
			t.Fatal(err)
		}
		for range 2 { // computed (or from this process's fit), then read from the cache
			X, err := mvuEmbedding(c.name, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(X, f.X) {
				t.Errorf("%s: the cached MVU embedding differs from the fit's", c.name)
			}
		}
	}
	if stored, _ := filepath.Glob(filepath.Join(dir, "ch5mvuX-*.gob")); len(stored) != 2 {
		t.Errorf("%d MVU embeddings in the cache, want 2: %v", len(stored), stored)
	}
}

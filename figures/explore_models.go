package figures

// The four explorers of notebook 09: each is a figure of this package's
// style whose states are computed once (the slow ones cached on disk with
// Cached) and drawn from memory when a slider moves.

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/linalg"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// embedResult is a cached 2-D embedding, or why the method failed.
type embedResult struct {
	X   *mat.Dense
	Err string
}

// exploreNeighbourKs are the neighbour counts the swiss-roll explorer
// offers: every k from the disconnected graph (4) to 10, then 12 and 13,
// the last k without and the first with a short circuit on this sample
// (TestExploreNeighboursShortCircuits checks both are here and that
// notebook 09 says so), then ever more short circuits up to 28.
var exploreNeighbourKs = []int{4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 16, 18, 20, 24, 28}

// exploreSwissRoll is the swiss roll of ExploreNeighbours (Fig X5.1's
// sample) and each point's position along the roll, 0 at the inner end
// and 1 at the outer: (t − 3π/2)/(3π) for the roll's angle t ∈ [3π/2,
// 9π/2], which is also its radius √(y₁² + y₃²).
func exploreSwissRoll() (*datasets.Dataset, []float64) {
	ds := datasets.SwissRoll(ch5SwissRollN, rand.NewPCG(5, 1))
	n, _ := ds.Y.Dims()
	col := make([]float64, n)
	for i := 0; i < n; i++ {
		t := math.Hypot(ds.Y.At(i, 0), ds.Y.At(i, 2))
		col[i] = (t - 1.5*math.Pi) / (3 * math.Pi)
	}
	return ds, col
}

// shortCircuits returns the undirected links (a < b, sorted) of the
// k-nearest-neighbour graph of Y that join two points more than half a
// turn apart along the roll: |t_a − t_b| > π, with pos = (t − 3π/2)/(3π)
// as exploreSwissRoll returns it.
func shortCircuits(Y *mat.Dense, pos []float64, k int) ([][2]int, error) {
	nb, err := neighbours.KNearest(Y, k)
	if err != nil {
		return nil, err
	}
	var jumps [][2]int
	seen := map[[2]int]bool{}
	for a := range pos {
		js, _ := nb.Of(a)
		for _, b := range js {
			e := [2]int{min(a, b), max(a, b)}
			if !seen[e] && 3*math.Pi*math.Abs(pos[a]-pos[b]) > math.Pi {
				seen[e] = true
				jumps = append(jumps, e)
			}
		}
	}
	sort.Slice(jumps, func(i, j int) bool {
		return jumps[i][0] < jumps[j][0] || jumps[i][0] == jumps[j][0] && jumps[i][1] < jumps[j][1]
	})
	return jumps, nil
}

// ExploreNeighbours is the swiss roll of Fig X5.1 (1000 points) embedded by
// Isomap and LLE for a slider over the neighbour count k (§5.2, §5.5). As k
// grows the kNN graph gains links between layers of the roll — short
// circuits, drawn in red in the end-on view — and Isomap's geodesics, which
// run along the graph, collapse: the unrolled sheet folds. LLE's weights
// reconstruct each point from its neighbours, so a neighbour on the wrong
// layer distorts it earlier.
func ExploreNeighbours() (*Explorer, error) {
	ds, col := exploreSwissRoll()
	Y := ds.Y
	n, _ := Y.Dims()
	d := &ch5Data{Name: "swiss roll", Y: Y, Colour: col}
	labels := make([]string, len(exploreNeighbourKs))
	initial := 0
	for i, k := range exploreNeighbourKs {
		labels[i] = fmt.Sprint(k)
		if k == 7 { // the 2008 talk's demos use k = 7
			initial = i
		}
	}
	type state struct {
		Jumps [][2]int // undirected kNN links more than half a turn apart
		Iso   embedResult
		LLE   embedResult
	}
	compute := func(s []int) (*state, error) {
		k := exploreNeighbourKs[s[0]]
		key := NewCacheKey("explore-neighbours").Matrix(Y).Ints([]int{k})
		st, _, err := Cached(key, func() (*state, error) {
			st := &state{}
			var err error
			if st.Jumps, err = shortCircuits(Y, col, k); err != nil {
				return nil, err
			}
			fit := func(m dimred.Embedder) embedResult {
				if err := m.Fit(Y); err != nil {
					if errors.Is(err, dimred.ErrDisconnected) {
						return embedResult{Err: fmt.Sprintf("the %d-NN graph is disconnected:\nno embedding at this k", k)}
					}
					return embedResult{Err: err.Error()}
				}
				X := new(mat.Dense)
				m.LatentTo(X)
				return embedResult{X: X}
			}
			st.Iso = fit(&dimred.Isomap{Q: 2, K: k})
			st.LLE = fit(&dimred.LLE{Q: 2, K: k})
			return st, nil
		})
		return st, err
	}
	e := &Explorer{
		Name:   "neighbours",
		Params: []ExploreParam{{Name: "k (neighbours per point)", Labels: labels, Initial: initial}},
	}
	return withStates(e, compute, func(st *state, s []int) (*Figure, error) {
		k := exploreNeighbourKs[s[0]]
		jump := "links jump"
		if len(st.Jumps) == 1 {
			jump = "link jumps"
		}
		pa := newPlot(fmt.Sprintf("(a) k = %d: %d %s a turn", k, len(st.Jumps), jump), "y₁", "y₃")
		xs, zs := mat.Col(nil, 0, Y), mat.Col(nil, 2, Y)
		for i := 0; i < n; i++ {
			pa.Add(scatter(xs[i:i+1], zs[i:i+1], timeColour(col[i]), 1.5, nil))
		}
		for _, j := range st.Jumps {
			pa.Add(line([]float64{xs[j[0]], xs[j[1]]}, []float64{zs[j[0]], zs[j[1]]}, color.RGBA{R: 220, A: 255}, 1.2))
		}
		equalAxes(pa, -12, 15)
		nums := []Number{Ours("k", float64(k)), Ours("kNN links jumping more than half a turn", float64(len(st.Jumps)))}
		panel := func(letter, method string, r embedResult) *plot.Plot {
			name := letter + " " + method
			if r.X == nil {
				return ch5Placeholder(name, r.Err)
			}
			// Procrustes error against the unrolled sheet: 0 perfect, 1 no better than the centroid
			if pe, err := ch5ProcrustesError(r.X, ds.T); err == nil {
				name = fmt.Sprintf("%s: Procrustes error %.2f", name, pe)
				nums = append(nums, Ours(method+" Procrustes error against the unrolled sheet", pe))
			}
			return ch5EmbeddingPanel(name, r.X, d, "x₁", "x₂")
		}
		pb, pc := panel("(b)", "Isomap", st.Iso), panel("(c)", "LLE", st.LLE)
		return &Figure{
			ID: "E9.1",
			Caption: fmt.Sprintf("The swiss roll (%d points) seen end on with the k-nearest-neighbour links that join points more than half a turn apart (red), "+
				"and its Isomap and LLE embeddings for k = %d. Colour follows the position along the roll.", n, k),
			Data:   "synthetic",
			Panels: []*plot.Plot{pa, pb, pc},
			Width:  33 * vg.Centimeter, Height: 10 * vg.Centimeter,
			Numbers: nums,
			Status:  Added,
		}, nil
	}), nil
}

// exploreWidthFactors multiply the book's RBF width on the rotated sixes
// (ℓ = 1414 grey levels, demSixKpca.m's inverse width 5×10⁻⁷).
var exploreWidthFactors = []float64{0.25, 0.35, 0.5, 0.71, 1, 1.41, 2, 2.83, 4, 5.66, 8, 11.3, 16}

// ExploreKernelWidth is the kernel PCA of the 360 rotated sixes (Figs
// 4.6–4.7) for a slider over the RBF width ℓ, in multiples of the book's.
// The implied feature-space distance √(k_ii + k_jj − 2k_ij) = √(2 − 2k_ij)
// cannot exceed √2: once ℓ is small beside the distances between
// rotations, almost every pair sits at √2 — each image is orthogonal to
// every other in feature space — and kernel PCA needs nearly as many
// components as there are images. As ℓ grows the distances spread out
// and a few components hold the variance.
func ExploreKernelWidth() (*Explorer, error) {
	base := sync.OnceValues(func() (*mat.SymDense, error) {
		ds, err := datasets.RotatedSixes()
		if err != nil {
			return nil, fmt.Errorf("figures: rotated sixes: %w", err)
		}
		n, _ := ds.Y.Dims()
		D2 := mat.NewSymDense(n, nil)
		linalg.PairwiseSquaredDistances(D2, ds.Y)
		return D2, nil
	})
	ell0 := 1 / math.Sqrt(ch4InverseWidth)
	labels := make([]string, len(exploreWidthFactors))
	initial := 0
	for i, f := range exploreWidthFactors {
		labels[i] = fmt.Sprintf("%.3g × book (ℓ = %.0f)", f, f*ell0)
		if f == 1 {
			initial = i
		}
	}
	type state struct {
		Dist          *mat.SymDense
		X             *mat.Dense
		Near, Above   float64
		Comps90, NPos int
	}
	compute := func(s []int) (*state, error) {
		D2, err := base()
		if err != nil {
			return nil, err
		}
		n := D2.SymmetricDim()
		ell := exploreWidthFactors[s[0]] * ell0
		K := mat.NewSymDense(n, nil)
		st := &state{Dist: mat.NewSymDense(n, nil)}
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				k := math.Exp(-D2.At(i, j) / (2 * ell * ell))
				K.SetSym(i, j, k)
				st.Dist.SetSym(i, j, math.Sqrt(math.Max(0, 2-2*k)))
			}
		}
		st.Above, st.Near = ch4OffDiagShares(st.Dist)
		kp := dimred.KernelPCA{Q: n}
		if err := kp.FitGram(K); err != nil {
			return nil, fmt.Errorf("figures: kernel PCA of the sixes at ℓ = %.0f: %w", ell, err)
		}
		vals := kp.EigenvaluesTo(nil)
		st.Comps90 = ch4ComponentsFor(vals, 0.9)
		for _, v := range vals {
			if v > 0 {
				st.NPos++
			}
		}
		var X mat.Dense
		kp.LatentTo(&X)
		st.X = mat.DenseCopyOf(X.Slice(0, n, 0, 2))
		return st, nil
	}
	e := &Explorer{
		Name:   "kernel-width",
		Params: []ExploreParam{{Name: "RBF width ℓ", Labels: labels, Initial: initial}},
	}
	return withStates(e, compute, func(st *state, s []int) (*Figure, error) {
		n := st.Dist.SymmetricDim()
		f := exploreWidthFactors[s[0]]
		pa := ch4MatrixPanel(st.Dist, 0, math.Sqrt2, "(a) implied distances √(2 − 2k_ij)", []float64{0, 0.5, 1, math.Sqrt2}, "%.2f")
		var off plotter.Values
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				off = append(off, st.Dist.At(i, j))
			}
		}
		pb := newPlot(fmt.Sprintf("(b) %.0f%% of pairs within 0.001 of √2", 100*st.Near), "implied distance", "pairs")
		h, err := plotter.NewHist(off, 60)
		if err != nil {
			return nil, err
		}
		h.FillColor = color.Gray{Y: 150}
		h.LineStyle.Width = 0
		pb.Add(h)
		pb.X.Min, pb.X.Max = 0, 1.5
		top := 0.0
		for _, b := range h.Bins {
			top = math.Max(top, b.Weight)
		}
		pb.Add(line([]float64{math.Sqrt2, math.Sqrt2}, []float64{0, top}, color.RGBA{R: 220, A: 255}, 1))
		pc := newPlot(fmt.Sprintf("(c) kernel PCA: %d of %d components hold 90%%", st.Comps90, st.NPos), "component 1", "component 2")
		pc.X.Tick.Marker, pc.Y.Tick.Marker = plainTicks{}, plainTicks{}
		for i := 0; i < n; i++ {
			pc.Add(scatter([]float64{st.X.At(i, 0)}, []float64{st.X.At(i, 1)}, ch4AngleColour(i), 2, nil))
		}
		return &Figure{
			ID: "E9.2",
			Caption: fmt.Sprintf("The 360 rotated sixes under an RBF kernel of width ℓ = %.3g × the book's (%.0f grey levels): "+
				"(a) the implied distances, which cannot exceed √2; (b) their histogram with √2 marked; "+
				"(c) the first two components of (centred) kernel PCA, coloured by rotation angle.", f, f*ell0),
			Data:   "rotated_sixes",
			Panels: []*plot.Plot{pa, pb, pc},
			Width:  33 * vg.Centimeter, Height: 10 * vg.Centimeter,
			Numbers: []Number{Ours("ℓ / book ℓ", f), Ours("share of implied distances within 1e-3 of √2", st.Near),
				Ours("components for 90% of the variance", float64(st.Comps90))},
			Status: Added,
		}, nil
	}), nil
}

var (
	exploreGTMGrids  = []int{3, 5, 8, 10, 15, 20}
	exploreGTMWidths = []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 4}
)

// exploreGTMMaxIter caps each GTM fit of the explorer (EM iterations).
const exploreGTMMaxIter = 300

// ExploreGTM is the GTM of the oil data (§6.5, Fig 6.10) for sliders over
// the latent grid (g × g points) and the variance w of its 20 random-centre
// RBF basis functions. A coarse grid puts many points on one node; a
// narrow basis lets the mapping crease and fold through the data (the
// PCA-plane view of the grid shows it), a wide one makes it nearly linear.
func ExploreGTM() (*Explorer, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return nil, fmt.Errorf("figures: GTM explorer: %w", err)
	}
	pca := dimred.PCA{Q: 2}
	if err := pca.Fit(ds.Y); err != nil {
		return nil, err
	}
	var P mat.Dense // the data in the principal plane
	pca.LatentTo(&P)
	gl := make([]string, len(exploreGTMGrids))
	gi := 0
	for i, g := range exploreGTMGrids {
		gl[i] = fmt.Sprintf("%d × %d", g, g)
		if g == 10 {
			gi = i
		}
	}
	wl := make([]string, len(exploreGTMWidths))
	wi := 0
	for i, w := range exploreGTMWidths {
		wl[i] = fmt.Sprint(w)
		if w == 1 {
			wi = i
		}
	}
	type state struct {
		X        *mat.Dense // latent means
		GridImg  *mat.Dense // images of the grid points in the principal plane
		Errors   int
		LogLik   float64
		Iters    int
		Complete bool
	}
	compute := func(s []int) (*state, error) {
		g, w := exploreGTMGrids[s[0]], exploreGTMWidths[s[1]]
		key := NewCacheKey("explore-gtm").Matrix(ds.Y).Ints([]int{g, exploreGTMMaxIter}).String(fmt.Sprint(w))
		st, _, err := Cached(key, func() (*state, error) {
			m := &dimred.GTM{Q: 2, Grid: g, Width: w, MaxIter: exploreGTMMaxIter}
			err := m.Fit(ds.Y)
			if err != nil && !errors.Is(err, dimred.ErrNotConverged) {
				return nil, fmt.Errorf("figures: GTM %d×%d, w = %g: %w", g, g, w, err)
			}
			st := &state{X: new(mat.Dense), Iters: m.Iterations(), Complete: err == nil}
			m.LatentTo(st.X)
			st.Errors = dimred.NearestNeighbourErrors(st.X, ds.Labels)
			nn, _ := ds.Y.Dims()
			st.LogLik = m.LogLikelihood() / float64(nn)
			var G, F mat.Dense
			m.GridTo(&G)
			m.MapTo(&F, &G)
			st.GridImg = new(mat.Dense)
			pca.ProjectTo(st.GridImg, &F)
			return st, nil
		})
		return st, err
	}
	e := &Explorer{
		Name: "gtm",
		Params: []ExploreParam{
			{Name: "latent grid (g × g points)", Labels: gl, Initial: gi},
			{Name: "basis variance w", Labels: wl, Initial: wi},
		},
	}
	return withStates(e, compute, func(st *state, s []int) (*Figure, error) {
		g, w := exploreGTMGrids[s[0]], exploreGTMWidths[s[1]]
		conv := ""
		if !st.Complete {
			conv = fmt.Sprintf(", stopped at %d EM iterations", st.Iters)
		}
		pa := oilPanel(fmt.Sprintf("(a) latent means: %d 1-NN errors", st.Errors), st.X, ds)
		pb := newPlot(fmt.Sprintf("(b) the grid's image, log-likelihood %.2f per point", st.LogLik), "principal component 1", "principal component 2")
		labelScatter(pb, &P, ds.Labels, nil, 1)
		// grid lines between neighbouring grid points (row-major g × g)
		gc := color.RGBA{R: 30, G: 30, B: 30, A: 255}
		for a := 0; a < g; a++ {
			var rx, ry, cx, cy []float64
			for b := 0; b < g; b++ {
				rx, ry = append(rx, st.GridImg.At(a*g+b, 0)), append(ry, st.GridImg.At(a*g+b, 1))
				cx, cy = append(cx, st.GridImg.At(b*g+a, 0)), append(cy, st.GridImg.At(b*g+a, 1))
			}
			pb.Add(line(rx, ry, gc, 0.6), line(cx, cy, gc, 0.6))
		}
		padAxes(pb, &P, 0.05, 0)
		return &Figure{
			ID: "E9.3",
			Caption: fmt.Sprintf("GTM of the oil data (1000 points, 12 features) with a %d × %d latent grid and 20 random-centre RBF basis functions of variance w = %g%s: "+
				"(a) the posterior-mean latent positions by flow regime; (b) the data and the image of the latent grid, both projected onto the data's first two principal components.", g, g, w, conv),
			Data:   "oil",
			Panels: []*plot.Plot{pa, pb},
			Width:  24 * vg.Centimeter, Height: 11 * vg.Centimeter,
			Numbers: []Number{Ours("grid points per dimension", float64(g)), Ours("basis variance w", w),
				Ours("1-NN errors", float64(st.Errors)), Ours("log-likelihood per point", st.LogLik)},
			Status: Added,
		}, nil
	}), nil
}

var exploreMissing = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}

// ExplorePPCAMissing is PPCA (q = 2) of the oil data fitted by the EM of
// dimred.PPCA.FitMissing (§2.12.4, Fig 2.4) with a slider over the
// fraction of entries removed at random (one fixed mask per fraction, as
// Fig 2.4's). Marginalising the missing entries keeps the latent space and
// the noise variance close to the complete-data fit long after a third of
// the entries are gone; the reconstruction of the removed values W⟨x_i⟩ +
// μ degrades slowly.
func ExplorePPCAMissing() (*Explorer, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return nil, fmt.Errorf("figures: PPCA explorer: %w", err)
	}
	n, p := ds.Y.Dims()
	full := dimred.PPCA{Q: 2}
	if err := full.Fit(ds.Y); err != nil {
		return nil, err
	}
	var wFull mat.Dense
	full.LoadingsTo(&wFull)
	labels := make([]string, len(exploreMissing))
	initial := 0
	for i, f := range exploreMissing {
		labels[i] = fmt.Sprintf("%.0f%%", 100*f)
		if f == 0.3 {
			initial = i
		}
	}
	type state struct {
		X           *mat.Dense
		Truth, Rec  []float64 // removed values and their reconstructions
		Missing     float64   // realised fraction
		Sigma2      float64
		Errors      int
		AngleDeg    float64
		Iters       int
		RMS         float64
		FullEntries bool
	}
	compute := func(s []int) (*state, error) {
		frac := exploreMissing[s[0]]
		key := NewCacheKey("explore-ppca-missing").Matrix(ds.Y).String(fmt.Sprint(frac))
		st, _, err := Cached(key, func() (*state, error) {
			rng := rand.New(rand.NewPCG(2, 4)) // Fig 2.4's mask source
			Ym := mat.DenseCopyOf(ds.Y)
			var miss [][2]int
			for i := 0; i < n; i++ {
				for j := 0; j < p; j++ {
					if rng.Float64() < frac {
						Ym.Set(i, j, math.NaN())
						miss = append(miss, [2]int{i, j})
					}
				}
			}
			m := dimred.PPCA{Q: 2, Tol: 1e-7, MaxIter: 3000}
			if err := m.FitMissing(Ym); err != nil && !errors.Is(err, dimred.ErrNotConverged) {
				return nil, fmt.Errorf("figures: PPCA with %.0f%% missing: %w", 100*frac, err)
			}
			st := &state{X: new(mat.Dense), Missing: float64(len(miss)) / float64(n*p), Sigma2: m.NoiseVariance(), Iters: m.Iterations()}
			m.LatentTo(st.X)
			st.Errors = dimred.NearestNeighbourErrors(st.X, ds.Labels)
			var W mat.Dense
			m.LoadingsTo(&W)
			st.AngleDeg = linalg.SubspaceAngle(&W, &wFull) * 180 / math.Pi
			mu := m.MeanTo(nil)
			ss := 0.0
			for _, e := range miss {
				i, j := e[0], e[1]
				r := mu[j] + W.At(j, 0)*st.X.At(i, 0) + W.At(j, 1)*st.X.At(i, 1)
				st.Truth, st.Rec = append(st.Truth, ds.Y.At(i, j)), append(st.Rec, r)
				ss += (r - ds.Y.At(i, j)) * (r - ds.Y.At(i, j))
			}
			if len(miss) > 0 {
				st.RMS = math.Sqrt(ss / float64(len(miss)))
			}
			return st, nil
		})
		return st, err
	}
	e := &Explorer{
		Name:   "ppca-missing",
		Params: []ExploreParam{{Name: "fraction of entries missing", Labels: labels, Initial: initial}},
	}
	return withStates(e, compute, func(st *state, s []int) (*Figure, error) {
		frac := exploreMissing[s[0]]
		pa := oilPanel(fmt.Sprintf("(a) %.0f%% missing: %d 1-NN errors, σ² = %.4f", 100*st.Missing, st.Errors, st.Sigma2), st.X, ds)
		pb := newPlot("(b) removed entries: reconstruction W⟨x⟩ + μ", "true value", "reconstructed")
		if len(st.Truth) > 0 {
			pb.Title.Text = fmt.Sprintf("(b) %d removed entries, RMS error %.3f", len(st.Truth), st.RMS)
			pb.Add(scatter(st.Truth, st.Rec, color.RGBA{R: 40, G: 80, B: 200, A: 255}, 0.8, nil))
		}
		lo, hi := mat.Min(ds.Y), mat.Max(ds.Y)
		pb.Add(line([]float64{lo, hi}, []float64{lo, hi}, color.Gray{Y: 100}, 0.8))
		pb.X.Min, pb.X.Max, pb.Y.Min, pb.Y.Max = lo, hi, lo-0.5*(hi-lo), hi+0.5*(hi-lo)
		return &Figure{
			ID: "E9.4",
			Caption: fmt.Sprintf("PPCA (q = 2) of the oil data with %.0f%% of the entries removed at random, fitted by EM over the observed entries: "+
				"(a) the latent means by flow regime (subspace %.1f° from the complete-data fit); (b) the removed entries against their reconstruction.", 100*frac, st.AngleDeg),
			Data:   "oil",
			Panels: []*plot.Plot{pa, pb},
			Width:  24 * vg.Centimeter, Height: 11 * vg.Centimeter,
			Numbers: []Number{Ours("fraction missing", st.Missing), Ours("σ²", st.Sigma2), Ours("1-NN errors", float64(st.Errors)),
				Ours("subspace angle to the complete-data fit (degrees)", st.AngleDeg), Ours("EM iterations", float64(st.Iters))},
			Status: Added,
		}, nil
	}), nil
}

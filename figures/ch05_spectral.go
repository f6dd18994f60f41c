package figures

// Chapter 5 (§5.4–5.6) and the spectral paper's Figs 3 and 5: Laplacian
// eigenmaps, LLE and Isomap on the stick man (k = 6) and the robot WiFi
// data (k = 7), with MVU beside them; the swiss roll and the
// rotated-sixes circle as extra figures; Q_NX curves (Lee & Verleysen
// 2009) of every embedding per data set.
//
// Settings follow the paper's experiments: kNN graphs with k = 6 (stick)
// and 7 (robot); LE on the normalised Laplacian with the heat kernel
// σ = 1 (t = 2σ² = 2), the correct heat kernel of each edge (the paper's
// code weighted edges by the neighbour's slot number, see
// dimred.LaplacianEigenmaps); LLE with m_ii = 1 and no regulariser
// (p > k); Isomap on Euclidean kNN geodesics. The paper gives no numbers
// for these figures; ours are the Procrustes error of each embedding
// against the robot's true path and the area under R_NX(K).

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/neighbours"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

func init() {
	RegisterLong("P3", 0, FigP3StickSpectral, figP3)
	RegisterLong("P5", 0, FigP5RobotSpectral, figP5)
	RegisterLong("X5.1", 5, FigX5_1SwissRoll, figX5_1)
	RegisterLong("X5.2", 5, FigX5_2SixesCircle, figX5_2)
	RegisterLong("X5.3", 5, FigX5_3StickQuality, figX5_3)
	RegisterLong("X5.4", 5, FigX5_4RobotQuality, figX5_4)
	RegisterLong("X5.5", 5, FigX5_5SwissRollQuality, figX5_5)
	RegisterLong("X5.6", 5, FigX5_6SixesQuality, figX5_6)
}

// ch5Method is one spectral method of the figures' panel list: a method
// joins the figures by one entry. A method that is not run on a data set
// (Embed returns nil) gets a panel saying why.
type ch5Method struct {
	Name string
	New  func(k int, t float64) dimred.Embedder // k neighbours, heat-kernel t
	// Embed, when set, replaces New: it returns the embedding of d, or nil
	// with the reason the method is not run on d.
	Embed func(d *ch5Data, p *Progress) (*mat.Dense, string, error)
}

var ch5Methods = []ch5Method{
	{Name: "Laplacian eigenmaps", New: func(k int, t float64) dimred.Embedder {
		return &dimred.LaplacianEigenmaps{Q: 2, K: k, T: t}
	}},
	{Name: "LLE", New: func(k int, _ float64) dimred.Embedder { return &dimred.LLE{Q: 2, K: k} }},
	{Name: "Isomap", New: func(k int, _ float64) dimred.Embedder { return &dimred.Isomap{Q: 2, K: k} }},
	{Name: "MVU", Embed: ch5MVU},
}

// ch5MVU is MVU's panel: the stick man and robot WiFi embeddings fitted
// once per process (Fig X5.7 reuses them); the 360 sixes fitted in full
// (k = 6, the fit notebook 07's comparison makes); the 1000-point swiss
// roll, too large for the dense SDP (its cost grows as the cube of the
// ≈ nk constraints), fitted to a 200-point subsample (k = 6) with the other
// points placed by LLE's reconstruction weights from their 10 nearest
// subsample points (dimred.Subsample). The last two are kept in the
// on-disk cache (Cached). The string returned is the panel's title.
func ch5MVU(d *ch5Data, p *Progress) (*mat.Dense, string, error) {
	switch d.Name {
	case "stick", "robot_wireless":
		X, err := mvuEmbedding(d.Name, p)
		return X, "", err
	}
	n, _ := d.Y.Dims()
	var m dimred.Embedder = &dimred.MVU{Q: 2, K: d.K}
	title := fmt.Sprintf("MVU (k = %d)", d.K)
	if n > 400 {
		m = &dimred.Subsample{Method: &dimred.MVU{Q: 2, K: 6}, M: ch5MVUSubsample, K: 10}
		title = fmt.Sprintf("MVU (m = %d, k = 6)", ch5MVUSubsample)
	}
	key := NewCacheKey("ch5mvu").String(d.Name).Matrix(d.Y).Ints([]int{d.K, n})
	r, _, err := Cached(key, func() (ch5MVUResult, error) {
		err := m.Fit(d.Y)
		if err != nil && !errors.Is(err, dimred.ErrNotConverged) {
			return ch5MVUResult{}, err
		}
		X := &mat.Dense{}
		m.LatentTo(X)
		res := ch5MVUResult{X: X, Jumps: -1}
		if err != nil {
			res.Note = "SDP stopped short of Tol"
		}
		if s, ok := m.(*dimred.Subsample); ok && d.Name == "swiss roll" {
			if res.Jumps, err = ch5TurnJumps(d, s.Subset(), 6); err != nil {
				return ch5MVUResult{}, err
			}
		}
		return res, nil
	})
	if err != nil {
		return nil, "", err
	}
	if r.Jumps >= 0 {
		title += fmt.Sprintf(": %d links jump a turn", r.Jumps)
	}
	if r.Note != "" {
		title += " (SDP short of Tol)"
	}
	return r.X, title, nil
}

// ch5TurnJumps counts the directed k-nearest-neighbour links among the
// rows sub of the swiss roll that join two points more than half a turn
// apart along the roll (|t_i − t_j| > π, t = 1.5π + 3π·Colour): short
// circuits, which MVU must keep as short as they are in the data, so
// that the roll cannot unroll.
func ch5TurnJumps(d *ch5Data, sub []int, k int) (int, error) {
	_, p := d.Y.Dims()
	Ys := mat.NewDense(len(sub), p, nil)
	for r, i := range sub {
		Ys.SetRow(r, d.Y.RawRowView(i))
	}
	nb, err := neighbours.KNearest(Ys, k)
	if err != nil {
		return 0, err
	}
	jumps := 0
	for a := range sub {
		js, _ := nb.Of(a)
		for _, b := range js {
			if 3*math.Pi*math.Abs(d.Colour[sub[a]]-d.Colour[sub[b]]) > math.Pi {
				jumps++
			}
		}
	}
	return jumps, nil
}

// ch5MVUSubsample is the subsample size of MVU on the swiss roll (X5.1).
const ch5MVUSubsample = 200

// ch5MVUResult is a cached MVU panel: the embedding, a note for the
// title (empty when the SDP converged) and, for the subsampled roll, the
// number of neighbour links that jump a turn (else −1).
type ch5MVUResult struct {
	X     *mat.Dense
	Note  string
	Jumps int
}

// ch5Data is one data set with its embeddings.
type ch5Data struct {
	Name   string
	Y      *mat.Dense
	T      *mat.Dense // ground truth (robot path, swiss-roll sheet), or nil
	Colour []float64  // per point, in [0, 1], for the colour map
	Path   bool       // points form a sequence: join consecutive ones
	K      int
	HeatT  float64
	X      []*mat.Dense // per ch5Methods entry; nil for a method not run
	NotRun []string     // per ch5Methods entry: why X is nil, or the panel's title when X is set
	PCA    *mat.Dense
}

// data is the figure's Data field: the dataset name, "synthetic" for the
// generated swiss roll.
func (d *ch5Data) data() string {
	if d.Y != nil && d.Name == "swiss roll" {
		return "synthetic"
	}
	return d.Name
}

// ch5Embed fits every ch5Methods entry and PCA to d, reporting each as a
// step to p.
func ch5Embed(d *ch5Data, p *Progress) (*ch5Data, error) {
	d.X = make([]*mat.Dense, len(ch5Methods))
	d.NotRun = make([]string, len(ch5Methods))
	for i, m := range ch5Methods {
		p.Step(fmt.Sprintf("%s on %s", m.Name, d.Name), i, len(ch5Methods)+1)
		if m.Embed != nil {
			X, why, err := m.Embed(d, p)
			if err != nil {
				return nil, fmt.Errorf("figures: %s on %s: %w", m.Name, d.Name, err)
			}
			d.X[i], d.NotRun[i] = X, why
			continue
		}
		e := m.New(d.K, d.HeatT)
		if err := e.Fit(d.Y); err != nil {
			return nil, fmt.Errorf("figures: %s on %s: %w", m.Name, d.Name, err)
		}
		d.X[i] = &mat.Dense{}
		e.LatentTo(d.X[i])
	}
	p.Step("PCA on "+d.Name, len(ch5Methods), len(ch5Methods)+1)
	pca := &dimred.PCA{Q: 2}
	if err := pca.Fit(d.Y); err != nil {
		return nil, err
	}
	d.PCA = &mat.Dense{}
	pca.LatentTo(d.PCA)
	return d, nil
}

// ch5Once is a data set embedded by every method, computed once per
// process; the first call reports its steps to p.
type ch5Once struct {
	once  sync.Once
	build func(p *Progress) (*ch5Data, error)
	d     *ch5Data
	err   error
}

func (o *ch5Once) get(p *Progress) (*ch5Data, error) {
	o.once.Do(func() { o.d, o.err = o.build(p) })
	return o.d, o.err
}

func ch5Sequence(n int) []float64 {
	c := make([]float64, n)
	for i := range c {
		c[i] = float64(i) / float64(n-1)
	}
	return c
}

var ch5Stick = &ch5Once{build: func(p *Progress) (*ch5Data, error) {
	ds, err := datasets.Stick()
	if err != nil {
		return nil, err
	}
	n, _ := ds.Y.Dims()
	return ch5Embed(&ch5Data{Name: "stick", Y: ds.Y, Colour: ch5Sequence(n), Path: true, K: 6, HeatT: 2}, p)
}}

var ch5Robot = &ch5Once{build: func(p *Progress) (*ch5Data, error) {
	ds, err := datasets.RobotWireless()
	if err != nil {
		return nil, err
	}
	n, _ := ds.Y.Dims()
	return ch5Embed(&ch5Data{Name: "robot_wireless", Y: ds.Y, T: ds.T, Colour: ch5Sequence(n), Path: true, K: 7, HeatT: 2}, p)
}}

// ch5SwissRollN points of datasets.SwissRoll with the source (5, 1):
// t ~ U(1.5π, 4.5π), h ~ U(0, 21), y = (t cos t, h, t sin t); T = (arc
// length, h), the unrolled sheet.
const ch5SwissRollN = 1000

var ch5Swiss = &ch5Once{build: func(p *Progress) (*ch5Data, error) {
	n := ch5SwissRollN
	ds := datasets.SwissRoll(n, rand.NewPCG(5, 1))
	Y, T := ds.Y, ds.T
	col := make([]float64, n)
	for i := 0; i < n; i++ {
		// Colour by the spiral's angle t, the radius of (y_0, y_2).
		t := math.Hypot(Y.At(i, 0), Y.At(i, 2))
		col[i] = (t - 1.5*math.Pi) / (3 * math.Pi)
	}
	// Heat-kernel width: mean squared distance to the 10th neighbour
	// (about 4 here), so weights are neither all 1 nor underflowing.
	return ch5Embed(&ch5Data{Name: "swiss roll", Y: Y, T: T, Colour: col, K: 10, HeatT: 4}, p)
}}

var ch5Sixes = &ch5Once{build: func(p *Progress) (*ch5Data, error) {
	ds, err := datasets.RotatedSixes()
	if err != nil {
		return nil, err
	}
	var Y mat.Dense
	Y.Scale(1.0/255, ds.Y)
	n, _ := Y.Dims()
	T := mat.NewDense(n, 2, nil)
	col := make([]float64, n)
	for i := 0; i < n; i++ {
		a := ds.T.At(i, 0) * math.Pi / 180
		T.SetRow(i, []float64{math.Cos(a), math.Sin(a)})
		col[i] = ds.T.At(i, 0) / 360
	}
	// Neighbouring rotations are ~1.3–5 apart in [0, 1] pixels; t = 50.
	return ch5Embed(&ch5Data{Name: "rotated_sixes", Y: &Y, T: T, Colour: col, K: 6, HeatT: 50}, p)
}}

// ch5ProcrustesError is the RMS distance between the embedding, aligned to
// T by rotation, reflection, translation and scale, and T, relative to
// the RMS spread of T: 0 is perfect, 1 is no better than the centroid.
func ch5ProcrustesError(X, T *mat.Dense) (float64, error) {
	r, err := dimred.Procrustes(X, T, &dimred.ProcrustesOptions{Scale: true})
	if err != nil {
		return math.NaN(), err
	}
	n, q := T.Dims()
	s := 0.0
	for c := 0; c < q; c++ {
		mean := 0.0
		for i := 0; i < n; i++ {
			mean += T.At(i, c)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := T.At(i, c) - mean
			s += d * d
		}
	}
	return r.RMS / math.Sqrt(s/float64(n)), nil
}

// ch5EmbeddingPanel draws a 2-D configuration coloured by d.Colour (time,
// through timeColour, for a sequence; otherwise the same map of position
// along the roll or angle), joined in sequence when d.Path. Ticks read
// "2.5", "0", never "2.50".
func ch5EmbeddingPanel(title string, X *mat.Dense, d *ch5Data, xl, yl string) *plot.Plot {
	p := newPlot(title, xl, yl)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	n, _ := X.Dims()
	xs, ys := mat.Col(nil, 0, X), mat.Col(nil, 1, X)
	if d.Path {
		p.Add(line(xs, ys, color.Gray{Y: 190}, 0.5))
	}
	for i := 0; i < n; i++ {
		p.Add(scatter(xs[i:i+1], ys[i:i+1], timeColour(d.Colour[i]), 2, nil))
	}
	return p
}

// ch5FrameKey adds the key of the frame colours of a sequence of n frames
// (numbered 1 … n) to panel p.
func ch5FrameKey(p *plot.Plot, n int) {
	addTimeKey(p, 1, float64(n), "frame")
}

// ch5Placeholder is the panel of a method not run on the data, saying why.
func ch5Placeholder(name, why string) *plot.Plot {
	p := hideAll(newPlot(name, "", ""))
	l := labels([]float64{0.5}, []float64{0.5}, []string{why}, 10)
	p.Add(l)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	return p
}

// ch5MethodPanels returns one panel per ch5Methods entry.
func ch5MethodPanels(d *ch5Data) []*plot.Plot {
	var out []*plot.Plot
	for i, m := range ch5Methods {
		if d.X[i] == nil {
			out = append(out, ch5Placeholder(m.Name, d.NotRun[i]))
			continue
		}
		title := fmt.Sprintf("%s (k = %d)", m.Name, d.K)
		if d.NotRun[i] != "" {
			title = d.NotRun[i]
		}
		out = append(out, ch5EmbeddingPanel(title, d.X[i], d, "x₁", "x₂"))
	}
	return out
}

// ch5AUCNumbers returns the area under R_NX(K) of PCA and each method.
func ch5AUCNumbers(d *ch5Data) ([]Number, []*dimred.NeighbourhoodCurve, error) {
	var nums []Number
	var curves []*dimred.NeighbourhoodCurve
	add := func(name string, X *mat.Dense) error {
		c, err := dimred.NeighbourhoodCurves(d.Y, X, 0)
		if err != nil {
			return err
		}
		curves = append(curves, c)
		nums = append(nums, Ours("AUC of R_NX(K), log K ("+name+")", c.AUC()))
		return nil
	}
	if err := add("PCA", d.PCA); err != nil {
		return nil, nil, err
	}
	for i, m := range ch5Methods {
		if d.X[i] == nil {
			curves = append(curves, nil)
			continue
		}
		if err := add(m.Name, d.X[i]); err != nil {
			return nil, nil, err
		}
	}
	return nums, curves, nil
}

const ch5Why = "The paper states no numbers for its embedding figures; the numbers are ours. LE uses the correct heat kernel of each edge " +
	"(the paper's code weighted edges by neighbour slot), so its panel can differ from the paper's. MVU is run on the stick man and the robot only (its SDP grows as (nk)³). " +
	"AUC of R_NX(K): the area under the rescaled neighbourhood-preservation curve R_NX(K) = ((n−1)Q_NX(K) − K)/(n−1−K) on a logarithmic K axis " +
	"(Lee, Peluffo-Ordóñez & Verleysen 2015; 1 for an embedding that keeps every neighbourhood, about 0 for a random one), drawn in Figs X5.3–X5.6."

// FigP3StickSpectral draws the spectral paper's Figure 3: the stick-man
// motion capture (55 frames) embedded in two dimensions by Laplacian
// eigenmaps, LLE, Isomap and MVU with 6 nearest neighbours. Colour runs
// with time (blue → red); consecutive frames are joined.
func FigP3StickSpectral() (*Figure, error) {
	return inNotebook("Fig P3: four spectral methods on the stick man", figP3)
}

func figP3(p *Progress) (*Figure, error) {
	d, err := ch5Stick.get(p)
	if err != nil {
		return nil, err
	}
	nums, _, err := ch5AUCNumbers(d)
	if err != nil {
		return nil, err
	}
	panels := ch5MethodPanels(d)
	n, _ := d.Y.Dims()
	ch5FrameKey(panels[1], n)
	return &Figure{
		ID:      "P3",
		Caption: "Motion capture data visualized in two dimensions for each algorithm we reviewed using 6 nearest neighbors. Models capture either the cyclic structure or the structure associated with the start of the run or both parts. Colour is the frame number (key beside the LLE panel); consecutive frames are joined.",
		Data:    "stick",
		Panels:  panels,
		Cols:    2,
		Numbers: nums,
		Why:     ch5Why,
	}, nil
}

// FigP5RobotSpectral draws the spectral paper's Figure 5: the robot WiFi
// data (215 frames × 30 access points) embedded by Laplacian eigenmaps,
// LLE, Isomap and MVU with 7 nearest neighbours, beside the robot's true
// path; each embedding's Procrustes error against the path is reported.
func FigP5RobotSpectral() (*Figure, error) {
	return inNotebook("Fig P5: four spectral methods on the robot WiFi data", figP5)
}

func figP5(p *Progress) (*Figure, error) {
	d, err := ch5Robot.get(p)
	if err != nil {
		return nil, err
	}
	truth := ch5EmbeddingPanel("true positions", d.T, d, "x (m)", "y (m)")
	n, _ := d.Y.Dims()
	ch5FrameKey(truth, n)
	panels := []*plot.Plot{truth}
	panels = append(panels, ch5MethodPanels(d)...)
	var nums []Number
	for i, m := range ch5Methods {
		if d.X[i] == nil {
			continue
		}
		e, err := ch5ProcrustesError(d.X[i], d.T)
		if err != nil {
			return nil, err
		}
		nums = append(nums, Ours("Procrustes RMS / RMS spread of the true path ("+m.Name+")", e))
	}
	e, err := ch5ProcrustesError(d.PCA, d.T)
	if err != nil {
		return nil, err
	}
	nums = append(nums, Ours("Procrustes RMS / RMS spread of the true path (PCA, for scale)", e))
	auc, _, err := ch5AUCNumbers(d)
	if err != nil {
		return nil, err
	}
	// LLE: the null space of M and the two ways of leaving out the
	// constant (the panel shows the default).
	lle := &dimred.LLE{Q: 2, K: d.K}
	ref := &dimred.LLE{Q: 2, K: d.K, DropLowest: true}
	var xl, xr mat.Dense
	for _, m := range []*dimred.LLE{lle, ref} {
		if err := m.Fit(d.Y); err != nil {
			return nil, fmt.Errorf("figures: P5 LLE: %w", err)
		}
	}
	lle.LatentTo(&xl)
	ref.LatentTo(&xr)
	ev := lle.EigenvaluesTo(nil)
	nums = append(nums,
		Ours("LLE: |mean|/sd of x₁ (constant projected out; shown)", ch5MeanOverSD(mat.Col(nil, 0, &xl))),
		Ours("LLE: |mean|/sd of x₁ (eigenvector 0 dropped as returned; reference code)", ch5MeanOverSD(mat.Col(nil, 0, &xr))))
	return &Figure{
		ID:      "P5",
		Caption: "Visualization of the robot WiFi navigation data for different spectral algorithms we reviewed with seven neighbors used to construct graphs. LE and LLE struggle to captured the loop structure (perhaps because of the higher level of noise). Several of the models also show the noise present in the WiFi signals. Colour is the frame number (key beside the true positions).",
		Data:    "robot_wireless",
		Panels:  panels,
		Cols:    3,
		Numbers: append(nums, auc...),
		Why: ch5Why + " The first panel (the robot's true path) is added. LLE: the directed 7-NN graph of the robot data has two closed classes " +
			"(sets of frames whose neighbours all lie within the set), so M = (I − W)ᵀ(I − W) has a two-dimensional null space " +
			fmt.Sprintf("(bottom eigenvalues %.1e, %.1e, %.1e) ", ev[0], ev[1], ev[2]) +
			"and LLE's first coordinate is a harmonic function interpolating between the two classes, not the loop. " +
			"The panel shows the centred embedding (the constant projected out of the bottom eigenspace, dimred.LLE's default); " +
			"the paper's reference code drops the eigenvector of the smallest eigenvalue as returned, an arbitrary null vector here, " +
			"so its x₁ is not centred (numbers below) but is an affine image of ours: the picture is the same up to a shift and scale of x₁.",
	}, nil
}

// ch5MeanOverSD is |mean(x)| / sd(x): 0 for a centred coordinate.
func ch5MeanOverSD(x []float64) float64 {
	n := float64(len(x))
	mean, ss := 0.0, 0.0
	for _, v := range x {
		mean += v / n
	}
	for _, v := range x {
		ss += (v - mean) * (v - mean) / n
	}
	return math.Abs(mean) / math.Sqrt(ss)
}

// ch5TruthFigure draws data with a known 2-D truth: the truth, then each
// method, with Procrustes errors.
func ch5TruthFigure(id, caption string, d *ch5Data, truthTitle string) (*Figure, error) {
	panels := []*plot.Plot{ch5EmbeddingPanel(truthTitle, d.T, d, "", "")}
	panels = append(panels, ch5MethodPanels(d)...)
	var nums []Number
	for i, m := range ch5Methods {
		if d.X[i] == nil {
			continue
		}
		e, err := ch5ProcrustesError(d.X[i], d.T)
		if err != nil {
			return nil, err
		}
		nums = append(nums, Ours("Procrustes RMS / RMS spread of the truth ("+m.Name+")", e))
	}
	return &Figure{ID: id, Caption: caption, Data: d.data(), Panels: panels, Cols: 3, Numbers: nums}, nil
}

// FigX5_1SwissRoll: the swiss roll (n = 1000, k = 10) unrolled by each
// method beside its true sheet coordinates (arc length, height).
func FigX5_1SwissRoll() (*Figure, error) {
	return inNotebook("Fig X5.1: the spectral methods on the swiss roll", figX5_1)
}

func figX5_1(p *Progress) (*Figure, error) {
	d, err := ch5Swiss.get(p)
	if err != nil {
		return nil, err
	}
	return ch5TruthFigure("X5.1",
		"The swiss roll (1000 points, k = 10) embedded by Laplacian eigenmaps, LLE, Isomap and MVU, beside the unrolled sheet (arc length, height). Colour follows the angle along the roll. Isomap, which preserves geodesic distances, recovers the sheet up to a similarity; LE and LLE keep the neighbourhoods but not the distances. "+
			"MVU's dense SDP (cost ∝ (nk)³) is fitted to a fixed random subsample of m = 200 points with k = 6, the other 800 placed at the barycentre of their 10 nearest subsample points with LLE's reconstruction weights (dimred.Subsample); "+
			"at that density (5 times sparser than the roll) some of the 6 nearest neighbours lie on the next turn of the roll — the title counts these links with |Δt| > π, none in the full 1000-point graph — and MVU keeps every neighbour link as short as in the data, so a single such short circuit pins two turns together and the roll does not unroll (compare Isomap on all 1000 points). "+
			"The noiseless roll's neighbourhoods are also affinely dependent, so the programme can stall short of its tolerance (MVU's stall policy); the title says when it did.",
		d, "unrolled sheet (arc length, height)")
}

// FigX5_2SixesCircle: the 360 rotated sixes (k = 6) — a closed curve
// (circle) in 4096 dimensions — embedded by each method, beside the circle
// (cos θ, sin θ) of the rotation angle.
func FigX5_2SixesCircle() (*Figure, error) {
	return inNotebook("Fig X5.2: the spectral methods on the rotated sixes", figX5_2)
}

func figX5_2(p *Progress) (*Figure, error) {
	d, err := ch5Sixes.get(p)
	if err != nil {
		return nil, err
	}
	return ch5TruthFigure("X5.2",
		"The 360 rotated sixes (pixels in [0, 1], k = 6) embedded by Laplacian eigenmaps, LLE, Isomap and MVU (the full programme on all 360 points, the fit of notebook 07's comparison), beside the circle of the rotation angle. The data lie on a closed curve; each method recovers a loop.",
		d, "rotation angle (cos θ, sin θ)")
}

// ch5QualityFigure draws, for PCA and each method, (a) Q_NX(K) for K ≤
// maxK and (b) R_NX(K) for every K on a logarithmic K axis, the curve
// whose area is the AUC the figure reports (in the legend).
func ch5QualityFigure(id string, d *ch5Data, maxK int) (*Figure, error) {
	nums, curves, err := ch5AUCNumbers(d)
	if err != nil {
		return nil, err
	}
	names := []string{"PCA"}
	for _, m := range ch5Methods {
		names = append(names, m.Name)
	}
	pq := newPlot("(a) Q_{NX}(K)", "K (neighbourhood size)", "Q_{NX}(K)")
	pr := newPlot("(b) R_{NX}(K), log K axis", "K (neighbourhood size)", "R_{NX}(K)")
	var yt []plot.Tick
	for _, v := range []float64{0, 0.2, 0.4, 0.6, 0.8, 1} {
		yt = append(yt, plot.Tick{Value: v, Label: fmt.Sprint(v)})
	}
	for _, p := range []*plot.Plot{pq, pr} {
		useSubscripts(p)
		p.Y.Tick.Marker = plot.ConstantTicks(yt) // both curves are at most 1
	}
	pq.X.Tick.Marker = plainTicks{}
	pr.X.Scale = plot.LogScale{}
	pr.X.Tick.Marker = plot.LogTicks{Prec: -1}
	dashes := [][]vg.Length{nil, {vg.Points(4), vg.Points(2)}, {vg.Points(1), vg.Points(2)}, {vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}, {vg.Points(2), vg.Points(1)}}
	for i, c := range curves {
		if c == nil {
			continue
		}
		kmax := min(maxK, len(c.QNX))
		lq := line(linspace(1, float64(kmax), kmax), c.QNX[:kmax], LabelColour(i), 1.5)
		lq.Dashes = dashes[i%len(dashes)]
		pq.Add(lq)
		lr := line(linspace(1, float64(len(c.RNX)), len(c.RNX)), c.RNX, LabelColour(i), 1.5)
		lr.Dashes = dashes[i%len(dashes)]
		pr.Add(lr)
		pr.Legend.Add(fmt.Sprintf("%s (AUC %.2f)", names[i], c.AUC()), lr)
	}
	pq.Y.Min, pq.Y.Max = 0, 1
	// R_NX falls to 0 (random) as K grows: the legend sits low on the left
	// half, where only the small-K ends of the curves are, above them.
	pr.Y.Min, pr.Y.Max = math.Min(0, pr.Y.Min), 1.45
	pr.Legend.Top, pr.Legend.Left = true, false
	n, _ := d.Y.Dims()
	return &Figure{
		ID: id,
		Caption: fmt.Sprintf("Rank-based quality (Lee & Verleysen 2009) of the 2-D embeddings of the %s data (n = %d, k = %d): (a) Q_NX(K), the average share of each point's K nearest neighbours that stay among its K nearest in the embedding (a random embedding scores K/(n−1)); "+
			"(b) R_NX(K) = ((n−1)Q_NX(K) − K)/(n−1−K), the same rescaled so that a random embedding scores 0 and a perfect one 1, on a logarithmic K axis; the legend gives its area on that axis, AUC = Σ_K R_NX(K)/K / Σ_K 1/K (Lee, Peluffo-Ordóñez & Verleysen 2015).",
			d.Name, n, d.K),
		Data:    d.data(),
		Panels:  []*plot.Plot{pq, pr},
		Width:   24 * vg.Centimeter,
		Height:  10 * vg.Centimeter,
		Numbers: nums,
	}, nil
}

// FigX5_3StickQuality: Q_NX and R_NX curves of the stick-man embeddings.
func FigX5_3StickQuality() (*Figure, error) {
	return inNotebook("Fig X5.3: the spectral methods on the stick man", figX5_3)
}

func figX5_3(p *Progress) (*Figure, error) {
	d, err := ch5Stick.get(p)
	if err != nil {
		return nil, err
	}
	return ch5QualityFigure("X5.3", d, 53)
}

// FigX5_4RobotQuality: Q_NX and R_NX curves of the robot WiFi embeddings.
func FigX5_4RobotQuality() (*Figure, error) {
	return inNotebook("Fig X5.4: the spectral methods on the robot WiFi data", figX5_4)
}

func figX5_4(p *Progress) (*Figure, error) {
	d, err := ch5Robot.get(p)
	if err != nil {
		return nil, err
	}
	return ch5QualityFigure("X5.4", d, 100)
}

// FigX5_5SwissRollQuality: Q_NX and R_NX curves of the swiss-roll embeddings.
func FigX5_5SwissRollQuality() (*Figure, error) {
	return inNotebook("Fig X5.5: the spectral methods on the swiss roll", figX5_5)
}

func figX5_5(p *Progress) (*Figure, error) {
	d, err := ch5Swiss.get(p)
	if err != nil {
		return nil, err
	}
	return ch5QualityFigure("X5.5", d, 100)
}

// FigX5_6SixesQuality: Q_NX and R_NX curves of the rotated-sixes embeddings.
func FigX5_6SixesQuality() (*Figure, error) {
	return inNotebook("Fig X5.6: the spectral methods on the rotated sixes", figX5_6)
}

func figX5_6(p *Progress) (*Figure, error) {
	d, err := ch5Sixes.get(p)
	if err != nil {
		return nil, err
	}
	return ch5QualityFigure("X5.6", d, 100)
}

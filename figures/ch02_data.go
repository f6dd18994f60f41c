package figures

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// Chapter 2 figures on the book's data: Fig 2.4 (oil with missing values)
// and the §2.12 applications the draft leaves as empty headings (X2.1–X2.4).

// ch2Glyphs are the per-class symbols of the scatter plots (the book's
// lvmTwoDPlot uses symbols; we add colour).
// The first is a hollow ring, so that a crowded class does not hide the
// others under filled discs.
var ch2Glyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.CrossGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}}

// labelScatter draws the rows of X (n×2) with one colour and symbol per
// label, adding a legend entry per label name when names is non-nil.
func labelScatter(p *plot.Plot, X mat.Matrix, lab []int, names []string, r float64) {
	n, _ := X.Dims()
	byLab := map[int][2][]float64{}
	maxL := 0
	for i := 0; i < n; i++ {
		l := lab[i]
		maxL = max(maxL, l)
		e := byLab[l]
		e[0], e[1] = append(e[0], X.At(i, 0)), append(e[1], X.At(i, 1))
		byLab[l] = e
	}
	for l := 0; l <= maxL; l++ {
		e, ok := byLab[l]
		if !ok {
			continue
		}
		s := scatter(e[0], e[1], LabelColour(l), r, ch2Glyphs[l%len(ch2Glyphs)])
		p.Add(s)
		if names != nil && l < len(names) {
			p.Legend.Add(names[l], s)
		}
	}
}

// labelScatterMixed draws the rows of X (n×2) like labelScatter but point
// by point in a fixed shuffled order, so that no class is drawn on top of
// the others everywhere (Fig 2.4's review: the last-drawn class hid the
// rest).
func labelScatterMixed(p *plot.Plot, X mat.Matrix, lab []int, r float64) {
	n, _ := X.Dims()
	order := rand.New(rand.NewPCG(1, 2)).Perm(n)
	for _, i := range order {
		l := lab[i]
		p.Add(scatter([]float64{X.At(i, 0)}, []float64{X.At(i, 1)}, LabelColour(l), r, ch2Glyphs[l%len(ch2Glyphs)]))
	}
}

// padAxes sets the axis ranges of p to the bounding box of the rows of X
// (n×2) widened by frac of its size on every side, and by right more on
// the right (room for a legend off the data).
func padAxes(p *plot.Plot, X mat.Matrix, frac, right float64) {
	n, _ := X.Dims()
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := 0; i < n; i++ {
		x0, x1 = math.Min(x0, X.At(i, 0)), math.Max(x1, X.At(i, 0))
		y0, y1 = math.Min(y0, X.At(i, 1)), math.Max(y1, X.At(i, 1))
	}
	dx, dy := x1-x0, y1-y0
	p.X.Min, p.X.Max = x0-frac*dx, x1+(frac+right)*dx
	p.Y.Min, p.Y.Max = y0-frac*dy, y1+frac*dy
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
}

// timeTrajectory draws the rows of X (n×2) in order as a grey line with dots
// coloured by t (jet, first value blue, last red), and a colour bar for t
// (labelled unit) to the right of the data.
func timeTrajectory(p *plot.Plot, X mat.Matrix, t []float64, unit string) {
	n, _ := X.Dims()
	xs, ys := mat.Col(nil, 0, X), mat.Col(nil, 1, X)
	p.Add(line(xs, ys, ch2Light, 0.7))
	t0, t1 := t[0], t[n-1]
	for i := 0; i < n; i++ {
		p.Add(scatter([]float64{xs[i]}, []float64{ys[i]}, jet((t[i]-t0)/(t1-t0)), 2, nil))
	}
	padAxes(p, X, 0.05, 0.25)
	dx := (p.X.Max - p.X.Min) / 1.35
	bx := p.X.Max - 0.17*dx
	p.Add(colourBar{X0: bx, X1: bx + 0.04*dx, Y0: p.Y.Min + 0.1*(p.Y.Max-p.Y.Min), Y1: p.Y.Max - 0.1*(p.Y.Max-p.Y.Min),
		Min: t0, Max: t1, Ticks: niceTicks(t0, t1), Format: "%g"})
	lab := labels([]float64{bx}, []float64{p.Y.Max - 0.05*(p.Y.Max-p.Y.Min)}, []string{unit}, 8)
	lab.TextStyle[0].XAlign = draw.XLeft
	p.Add(lab)
}

// ch2MissingFractions are the panels of Fig 2.4.
var ch2MissingFractions = []float64{0, 0.1, 0.2, 0.3, 0.5}

// OilMissingResult is one panel of Fig 2.4.
type OilMissingResult struct {
	Fraction    float64    // requested fraction of missing entries
	Missing     float64    // realised fraction
	X           *mat.Dense // 1000×2 posterior means
	Sigma2      float64
	NNErrors    int // leave-one-out 1-NN errors in latent space
	Iterations  int
	LogLikObs   float64 // observed-data log-likelihood
	SubspaceDeg float64 // angle between W and the complete-data W (degrees)
	// The same mask fitted by the draft's algorithm (ppcaEmbed's missing-data
	// branch, 100 iterations): 1-NN errors and σ².
	DraftNNErrors int
	DraftSigma2   float64
}

// OilMissing runs the Fig 2.4 experiment: PPCA (q = 2) on the oil training
// data with each entry removed independently with probability frac (the
// mask from rand.NewPCG(2, 4), as the author's Y(rand > 1 − frac) = NaN),
// fitted by the missing-data EM of dimred.PPCA.FitMissing.
func OilMissing(Y *mat.Dense, labels []int, frac float64, wFull *mat.Dense) (*OilMissingResult, error) {
	n, p := Y.Dims()
	rng := rand.New(rand.NewPCG(2, 4))
	Ym := mat.DenseCopyOf(Y)
	cnt := 0
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			if rng.Float64() < frac {
				Ym.Set(i, j, math.NaN())
				cnt++
			}
		}
	}
	m := dimred.PPCA{Q: 2, Tol: 1e-9, MaxIter: 5000}
	if err := m.FitMissing(Ym); err != nil {
		return nil, fmt.Errorf("oil with %.0f%% missing: %w", 100*frac, err)
	}
	var X, W mat.Dense
	m.LatentTo(&X)
	m.LoadingsTo(&W)
	res := &OilMissingResult{
		Fraction: frac, Missing: float64(cnt) / float64(n*p), X: &X, Sigma2: m.NoiseVariance(),
		NNErrors: dimred.NearestNeighbourErrors(&X, labels), Iterations: m.Iterations(),
		LogLikObs: m.LogLikelihood(), SubspaceDeg: linalg.SubspaceAngle(&W, wFull) * 180 / math.Pi,
	}
	if cnt > 0 { // the draft's algorithm only has a missing-data branch
		Xd, s2 := draftMissingEM(Ym, 2, 100, rand.New(rand.NewPCG(2, 5)))
		res.DraftNNErrors, res.DraftSigma2 = dimred.NearestNeighbourErrors(Xd, labels), s2
	} else {
		res.DraftNNErrors, res.DraftSigma2 = res.NNErrors, res.Sigma2
	}
	return res, nil
}

// draftMissingEM is the EM with which the draft's Fig 2.4 was drawn: the
// missing-data branch of the author's ppcaEmbed (GPmat, "hacky
// implementation"), as the reference computation describes it: W starts at 10⁻³·N(0, 1),
// σ² at 1, μ is the mean of each feature's observed values and stays fixed,
// and for iters iterations
//
//	E: M = WᵀW + σ²I (the full W for every point), ⟨x_i⟩ = M⁻¹W_oᵀ(y_o − μ_o),
//	   ⟨XᵀX⟩ = nσ²M⁻¹ + ⟨X⟩ᵀ⟨X⟩
//	M: W = s⟨XᵀX⟩⁻¹ with s = Σᵢ ỹ_i⟨x_i⟩ᵀ (ỹ_i zero where missing),
//	   σ² = N_obs⁻¹(s₂ + tr(⟨XᵀX⟩WᵀW)), s₂ = Σᵢ[‖y_o − μ_o‖² − 2⟨x_i⟩ᵀW_oᵀ(y_o − μ_o)]
//	   (s₂ with the old W).
//
// Using M instead of M_i ignores which features a point observed, so the
// posterior is wrong and σ² absorbs the error. Kept only to compare with
// the proper EM of dimred.PPCA.FitMissing.
func draftMissingEM(Y *mat.Dense, q, iters int, rng *rand.Rand) (*mat.Dense, float64) {
	n, p := Y.Dims()
	W := mat.NewDense(p, q, nil)
	for i := range W.RawMatrix().Data {
		W.RawMatrix().Data[i] = 1e-3 * rng.NormFloat64()
	}
	s2 := 1.0
	mu := make([]float64, p)
	numObs := 0
	for j := 0; j < p; j++ {
		c := 0
		for i := 0; i < n; i++ {
			if v := Y.At(i, j); !math.IsNaN(v) {
				mu[j] += v
				c++
			}
		}
		if c > 0 {
			mu[j] /= float64(c)
		}
		numObs += c
	}
	X := mat.NewDense(n, q, nil)
	for it := 0; it < iters; it++ {
		var M, Minv mat.Dense
		M.Mul(W.T(), W)
		for a := 0; a < q; a++ {
			M.Set(a, a, M.At(a, a)+s2)
		}
		if err := Minv.Inverse(&M); err != nil {
			panic(err)
		}
		wr := make([]float64, q)
		S := mat.NewDense(p, q, nil)
		var ss float64
		for i := 0; i < n; i++ {
			for a := range wr {
				wr[a] = 0
			}
			for j := 0; j < p; j++ {
				v := Y.At(i, j)
				if math.IsNaN(v) {
					continue
				}
				for a := 0; a < q; a++ {
					wr[a] += W.At(j, a) * (v - mu[j])
				}
			}
			for a := 0; a < q; a++ {
				var x float64
				for b := 0; b < q; b++ {
					x += Minv.At(a, b) * wr[b]
				}
				X.Set(i, a, x)
			}
			for j := 0; j < p; j++ {
				v := Y.At(i, j)
				if math.IsNaN(v) {
					continue
				}
				d := v - mu[j]
				ss += d * d
				for a := 0; a < q; a++ {
					S.Set(j, a, S.At(j, a)+d*X.At(i, a))
					ss -= 2 * X.At(i, a) * W.At(j, a) * d
				}
			}
		}
		var xx mat.Dense
		xx.Mul(X.T(), X)
		for a := 0; a < q; a++ {
			for b := 0; b < q; b++ {
				xx.Set(a, b, xx.At(a, b)+float64(n)*s2*Minv.At(a, b))
			}
		}
		var xxi mat.Dense
		if err := xxi.Inverse(&xx); err != nil {
			panic(err)
		}
		W.Mul(S, &xxi)
		var wtw, t mat.Dense
		wtw.Mul(W.T(), W)
		t.Mul(&xx, &wtw)
		s2 = (ss + mat.Trace(&t)) / float64(numObs)
	}
	return X, s2
}

// Fig2_4OilMissing is book Fig 2.4 (§2.12.4): the oil data projected to
// q = 2 by PPCA with 0, 10, 20, 30 and 50 % of the values missing at
// random. The draft's figure came from ppcaEmbed's "hacky" EM (the full M
// for every point, μ fixed), which inflates σ² as data go missing; we use
// the proper missing-data EM, which marginalises the missing entries. The
// masks cannot be the author's (MATLAB rand), so the error counts differ
// from any earlier run; the reference computation's own run of the proper EM gave
// 162/216/271/308/373 (and of the draft's EM 162/266/310/370/475). The
// numbers also report the draft's algorithm (draftMissingEM) on our masks.
func Fig2_4OilMissing() (*Figure, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return nil, err
	}
	full := dimred.PPCA{Q: 2}
	if err := full.Fit(ds.Y); err != nil {
		return nil, err
	}
	var wFull mat.Dense
	full.LoadingsTo(&wFull)
	var panels []*plot.Plot
	var nums []Number
	for _, frac := range ch2MissingFractions {
		r, err := OilMissing(ds.Y, ds.Labels, frac, &wFull)
		if err != nil {
			return nil, err
		}
		p := newPlot(fmt.Sprintf("%.0f%% missing: %d errors", 100*r.Missing, r.NNErrors), "x₁", "x₂")
		labelScatterMixed(p, r.X, ds.Labels, 1.6)
		panels = append(panels, p)
		pc := fmt.Sprintf("%.0f%%", 100*frac)
		nums = append(nums,
			Ours("realised missing fraction, "+pc, r.Missing),
			Ours("1-NN errors, "+pc, float64(r.NNErrors)),
			Ours("σ², "+pc, r.Sigma2),
			Ours("angle to complete-data W (degrees), "+pc, r.SubspaceDeg),
			Ours("1-NN errors, draft's ppcaEmbed EM, "+pc, float64(r.DraftNNErrors)),
			Ours("σ², draft's ppcaEmbed EM, "+pc, r.DraftSigma2))
	}
	// One square range for every panel: equal aspect, comparable panels.
	lim := 0.0
	for _, p := range panels {
		lim = math.Max(lim, math.Max(math.Max(-p.X.Min, p.X.Max), math.Max(-p.Y.Min, p.Y.Max)))
	}
	lim = math.Ceil(lim)
	for _, p := range panels {
		equalAxes(p, -lim, lim)
		p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	}
	legend := newPlot("", "", "")
	legend.HideAxes()
	for l, name := range ds.LabelNames {
		s := scatter(nil, nil, LabelColour(l), 3, ch2Glyphs[l])
		legend.Legend.Add(name, s)
	}
	legend.Legend.Top = true
	legend.Legend.Left = true
	panels = append(panels, legend)
	return &Figure{
		ID:      "2.4",
		Caption: "Projection of the oil data set on to q = 2 latent dimensions using the probabilistic PCA model. Different plots show various proportions of missing values (0, 10, 20, 30, 50 %). All values are missing at random from the design matrix Y. (Fitted by EM with the missing values marginalised; the numbers also give the draft's own, cruder EM on the same masks.)",
		Data:    "oil", Panels: panels, Cols: 3,
		Width: 27 * vg.Centimeter, Height: 18 * vg.Centimeter,
		Numbers: nums,
	}, nil
}

// ch2Application fits PPCA (q = 2) by the eigen solution with the given
// PCA solver and returns the latent means with its numbers.
func ch2Application(Y *mat.Dense, method dimred.PCAMethod) (*mat.Dense, []Number, error) {
	m := dimred.PPCA{Q: 2, Solver: method}
	if err := m.Fit(Y); err != nil {
		return nil, nil, err
	}
	pca := dimred.PCA{Q: 2, Method: method}
	if err := pca.Fit(Y); err != nil {
		return nil, nil, err
	}
	var X mat.Dense
	m.LatentTo(&X)
	n, p := Y.Dims()
	lam := pca.EigenvaluesTo(nil)
	return &X, []Number{
		Ours("n", float64(n)), Ours("p", float64(p)),
		Ours("λ₁", lam[0]), Ours("λ₂", lam[1]),
		Ours("variance explained by q = 2 (%)", 100*pca.VarianceExplained()),
		Ours("σ² (mean discarded eigenvalue)", m.NoiseVariance()),
		Ours("log-likelihood", m.LogLikelihood()),
	}, nil
}

// FigX2_1RobotWireless fills §2.12.1 (an empty heading in the draft):
// PPCA q = 2 of the robot WiFi data (215×30), points joined in time order
// (blue → red). Section placeholder filled in, not a book figure.
func FigX2_1RobotWireless() (*Figure, error) {
	ds, err := datasets.RobotWireless()
	if err != nil {
		return nil, err
	}
	X, nums, err := ch2Application(ds.Y, dimred.PCACovariance)
	if err != nil {
		return nil, err
	}
	p := newPlot("robot WiFi: PPCA latent means", "x₁", "x₂")
	n, _ := X.Dims()
	steps := make([]float64, n)
	for i := range steps {
		steps[i] = float64(i)
	}
	timeTrajectory(p, X, steps, "reading")
	return &Figure{
		ID:      "X2.1",
		Caption: "§2.12.1 (empty in the draft), filled in: the robot wireless data (215 signal-strength vectors over 30 access points) projected to q = 2 by PPCA, in time order, coloured by reading number (colour bar). A linear projection folds the robot's path.",
		Data:    "robot_wireless", Panels: []*plot.Plot{p},
		Width: 14 * vg.Centimeter, Height: 12 * vg.Centimeter, Numbers: nums,
	}, nil
}

// FigX2_2Stick fills §2.12.2: PPCA q = 2 of the stick-man motion capture
// (55×102), frames joined in time order.
func FigX2_2Stick() (*Figure, error) {
	ds, err := datasets.Stick()
	if err != nil {
		return nil, err
	}
	X, nums, err := ch2Application(ds.Y, dimred.PCACovariance)
	if err != nil {
		return nil, err
	}
	p := newPlot("stick man: PPCA latent means", "x₁", "x₂")
	secs := make([]float64, len(ds.Frames))
	for i, f := range ds.Frames {
		secs[i] = float64(f) / 120 // 120 Hz capture
	}
	timeTrajectory(p, X, secs, "time (s)")
	return &Figure{
		ID:      "X2.2",
		Caption: "§2.12.2 (empty in the draft), filled in: the stick-man run (55 frames × 102 marker coordinates) projected to q = 2 by PPCA, frames joined in time order and coloured by time (colour bar). The periodic gait appears as a loop.",
		Data:    "stick", Panels: []*plot.Plot{p},
		Width: 14 * vg.Centimeter, Height: 12 * vg.Centimeter, Numbers: nums,
	}, nil
}

// FigX2_3Spellman fills §2.12.3, which the draft marks "use to describe
// the dual version of the eigenvalue problem": PPCA q = 2 of the 77
// Spellman arrays (p = 6178 genes) through the 77×77 inner-product matrix
// K = ŶŶᵀ, coloured by experiment group.
func FigX2_3Spellman() (*Figure, error) {
	ds, err := datasets.Spellman()
	if err != nil {
		return nil, err
	}
	X, nums, err := ch2Application(ds.Y, dimred.PCAGram)
	if err != nil {
		return nil, err
	}
	nums = append(nums, Ours("1-NN errors by experiment group", float64(dimred.NearestNeighbourErrors(X, ds.Labels))))
	p := newPlot("Spellman arrays: dual PPCA", "x₁", "x₂")
	// Each time-course experiment's arrays are joined in sampling order,
	// so the cell cycle shows as a path; cln3/clb2 is no time course.
	n, _ := X.Dims()
	for i := 1; i < n; i++ {
		if l := ds.Labels[i]; l == ds.Labels[i-1] && ds.LabelNames[l] != "cln3/clb2" {
			r, g, b, _ := LabelColour(l).RGBA()
			faint := color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 90}
			p.Add(line([]float64{X.At(i-1, 0), X.At(i, 0)}, []float64{X.At(i-1, 1), X.At(i, 1)}, faint, 0.6))
		}
	}
	labelScatter(p, X, ds.Labels, ds.LabelNames, 2.5)
	padAxes(p, X, 0.05, 0.3)
	p.Legend.Top = true
	return &Figure{
		ID:      "X2.3",
		Caption: "§2.12.3 (empty in the draft), filled in: the 77 Spellman yeast cell-cycle arrays (6178 genes, missing values set to 0) projected to q = 2 by PPCA through the dual eigenproblem of the 77×77 matrix ŶŶᵀ, coloured by experiment group; the arrays of each time course are joined in sampling order, so each time course can be followed from array to array (the first two components do not separate the cell-cycle phases cleanly: cdc15 jumps across the plot between consecutive arrays).",
		Data:    "spellman", Panels: []*plot.Plot{p},
		Width: 14 * vg.Centimeter, Height: 12 * vg.Centimeter, Numbers: nums,
	}, nil
}

// FigX2_4Oil fills §2.12.4: PPCA q = 2 of the oil training data, by flow
// regime. Its numbers are the reference computation's reference values (σ² = 0.088569,
// log-likelihood −4732.617, 162 1-NN errors), stated by no text of the
// draft, hence Ours.
func FigX2_4Oil() (*Figure, error) {
	ds, err := datasets.Oil("train")
	if err != nil {
		return nil, err
	}
	X, nums, err := ch2Application(ds.Y, dimred.PCACovariance)
	if err != nil {
		return nil, err
	}
	tw, err := dimred.Trustworthiness(ds.Y, X, 10)
	if err != nil {
		return nil, err
	}
	co, err := dimred.Continuity(ds.Y, X, 10)
	if err != nil {
		return nil, err
	}
	nums = append(nums, Ours("1-NN errors by flow regime", float64(dimred.NearestNeighbourErrors(X, ds.Labels))),
		Ours("trustworthiness, k = 10", tw), Ours("continuity, k = 10", co))
	p := newPlot("oil flow: PPCA latent means", "x₁", "x₂")
	labelScatterMixed(p, X, ds.Labels, 1.8)
	for l, name := range ds.LabelNames {
		p.Legend.Add(name, scatter(nil, nil, LabelColour(l), 3, ch2Glyphs[l%len(ch2Glyphs)]))
	}
	padAxes(p, X, 0.05, 0.35)
	p.Legend.Top = true
	return &Figure{
		ID:      "X2.4",
		Caption: "§2.12.4 (empty in the draft), filled in: the oil flow training data (1000×12) projected to q = 2 by PPCA, by flow regime.",
		Data:    "oil", Panels: []*plot.Plot{p},
		Width: 14 * vg.Centimeter, Height: 12 * vg.Centimeter, Numbers: nums,
	}, nil
}

func init() {
	Register("2.4", 2, Fig2_4OilMissing)
	Register("X2.1", 2, FigX2_1RobotWireless)
	Register("X2.2", 2, FigX2_2Stick)
	Register("X2.3", 2, FigX2_3Spellman)
	Register("X2.4", 2, FigX2_4Oil)
}

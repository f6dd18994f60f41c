package figures

import (
	"image/color"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/dimredbook/book/dimred"
)

// Figs 3.5 and 3.6 (book §3.4, after the author's demRotationDist.m):
// feature selection against rotation onto the principal axis for 2-D data.

// rotationData returns the n = 100 draws from N(0, [[4.1, 2], [2, 1.1]])
// of Figs 3.5 and 3.6 (the author used Matlab's randn seed 1e6, whose
// stream cannot be matched; the seed here is fixed).
func rotationData() *mat.Dense {
	rng := rand.New(rand.NewPCG(3, 5))
	l11 := math.Sqrt(4.1)
	l21 := 2 / l11
	l22 := math.Sqrt(1.1 - l21*l21)
	Y := mat.NewDense(100, 2, nil)
	for i := 0; i < 100; i++ {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		Y.Set(i, 0, l11*a)
		Y.Set(i, 1, l21*a+l22*b)
	}
	return Y
}

var projRed = color.RGBA{R: 220, A: 255}

// zeroAxesPanel draws the points with axes through zero on the book's
// window x ∈ [−8, 8], y ∈ [−4, 4]; with drop, red lines from each point to
// the x axis.
func zeroAxesPanel(title string, xs, ys []float64, drop bool) *plot.Plot {
	p := newPlot(title, "", "")
	p.Add(line([]float64{-8, 8}, []float64{0, 0}, color.Black, 0.8))
	p.Add(line([]float64{0, 0}, []float64{-4, 4}, color.Black, 0.8))
	if drop {
		for i := range xs {
			p.Add(line([]float64{xs[i], xs[i]}, []float64{ys[i], 0}, projRed, 0.6))
		}
	}
	p.Add(scatter(xs, ys, color.Black, 1.6, nil))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -8, 8, -4, 4
	p.X.Tick.Marker = constTicks([]float64{-8, -4, 0, 4, 8})
	p.Y.Tick.Marker = constTicks([]float64{-4, 0, 4})
	return p
}

// panelDataArea lays the panels of f out exactly as Figure.Draw does (a
// full grid) and returns the size of the first panel's data area.
func panelDataArea(f *Figure) (w, h vg.Length) {
	rows, cols := f.grid()
	fw, fh := f.Size()
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = f.Panels[r*cols : (r+1)*cols]
	}
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	dc := draw.Canvas{Canvas: &recorder.Canvas{}, Rectangle: vg.Rectangle{Max: vg.Point{X: fw, Y: fh}}}
	da := f.Panels[0].DataCanvas(plot.Align(grid, tiles, dc)[0][0])
	return da.Max.X - da.Min.X, da.Max.Y - da.Min.Y
}

// dataAspect returns the screen length of one y unit over that of one x
// unit in the first panel of f: 1 for equal axes.
func dataAspect(f *Figure) float64 {
	p := f.Panels[0]
	w, h := panelDataArea(f)
	return float64(h) / (p.Y.Max - p.Y.Min) / (float64(w) / (p.X.Max - p.X.Min))
}

// equalAspect sets f.Height so that the panels show x and y units at the
// same length (Matlab's "axis equal", as in the author's script), keeping
// f.Width and the panels' axis limits. Titles, tick labels and padding
// take the same space whatever the height, so the correction is exact; a
// second pass absorbs rounding.
func equalAspect(f *Figure) *Figure {
	rows, _ := f.grid()
	p := f.Panels[0]
	want := (p.Y.Max - p.Y.Min) / (p.X.Max - p.X.Min)
	for range 2 {
		w, h := panelDataArea(f)
		f.Height += vg.Length(rows) * (vg.Length(want)*w - h)
	}
	return f
}

// Fig3_5FeatureSelection2D is book Fig 3.5 (§3.4; sub-captions
// from the LaTeX source): (a) data with two features, (b) selecting the
// feature with the largest variance projects onto the x axis, (c) the new
// one-feature representation.
func Fig3_5FeatureSelection2D() (*Figure, error) {
	Y := rotationData()
	xs, ys := mat.Col(nil, 0, Y), mat.Col(nil, 1, Y)
	fs := &dimred.FeatureSelection{Q: 1}
	if err := fs.Fit(Y); err != nil {
		return nil, err
	}
	v := fs.VariancesTo(nil)
	return equalAspect(&Figure{
		ID:      "3.5",
		Caption: "Feature selection via distance preservation: (a) data with two features; (b) selecting the feature with the largest variance projects the data onto the x axis; (c) the new representation has one feature.",
		Data:    "synthetic",
		Panels: []*plot.Plot{
			zeroAxesPanel("(a)", xs, ys, false),
			zeroAxesPanel("(b)", xs, ys, true),
			zeroAxesPanel("(c)", xs, make([]float64, len(xs)), false),
		},
		Cols: 3, Width: 24 * vg.Centimeter, Height: 7 * vg.Centimeter,
		Numbers: []Number{
			Ours("variance of feature 1 (population 4.1)", v[0]),
			Ours("variance of feature 2 (population 1.1)", v[1]),
			Ours("selected feature (0-based)", float64(fs.Selected()[0])),
			Ours("E, feature selection (2/p)ς²₂ (population 1.1)", fs.Error()),
		},
	}), nil
}

// Fig3_6RotationThenSelection is book Fig 3.6: (a) the data,
// (b) rotated so that the direction of maximum variance is the x axis,
// (c) projections onto that principal axis, (d) the one-dimensional result.
// The rotation is through θ = acos(r₁₁), r the top eigenvector of the
// covariance, as in the author's script.
func Fig3_6RotationThenSelection() (*Figure, error) {
	Y := rotationData()
	fe := &dimred.FeatureExtraction{Q: 1}
	if err := fe.Fit(Y); err != nil {
		return nil, err
	}
	var R mat.Dense
	fe.RotationTo(&R)
	r0, r1 := R.At(0, 0), R.At(1, 0)
	if r0 < 0 {
		r0, r1 = -r0, -r1
	}
	theta := math.Acos(r0)
	if r1 < 0 {
		theta = -theta
	}
	c, s := math.Cos(theta), math.Sin(theta)
	n, _ := Y.Dims()
	xs, ys := mat.Col(nil, 0, Y), mat.Col(nil, 1, Y)
	rx, ry := make([]float64, n), make([]float64, n)
	for i := range xs {
		rx[i] = xs[i]*c + ys[i]*s
		ry[i] = -xs[i]*s + ys[i]*c
	}
	fs := &dimred.FeatureSelection{Q: 1}
	fs.Fit(Y)
	lam := fe.EigenvaluesTo(nil)
	return equalAspect(&Figure{
		ID:      "3.6",
		Caption: "Rotating the data features better preserves the interpoint squared distances: the data are rotated onto their direction of maximum variation and then reduced to one dimension.",
		Data:    "synthetic",
		Panels: []*plot.Plot{
			zeroAxesPanel("(a) original data", xs, ys, false),
			zeroAxesPanel("(b) rotated", rx, ry, false),
			zeroAxesPanel("(c) projections", rx, ry, true),
			zeroAxesPanel("(d) one dimension", rx, make([]float64, n), false),
		},
		Cols: 2, Width: 18 * vg.Centimeter, Height: 11 * vg.Centimeter,
		Numbers: []Number{
			Ours("principal angle (degrees; population atan ½ = 26.57)", theta*180/math.Pi),
			Ours("largest ML covariance eigenvalue (population 5.1)", lam[0]),
			Ours("E, rotation then selection (population ≈ 0.1)", fe.Error()),
			Ours("E, feature selection alone (population 1.1)", fs.Error()),
		},
	}), nil
}

func init() {
	Register("3.5", 3, Fig3_5FeatureSelection2D)
	Register("3.6", 3, Fig3_6RotationThenSelection)
}

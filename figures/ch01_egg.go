package figures

import (
	"fmt"
	"image/color"
	"math"

	"github.com/dimredbook/book/dimred/highdim"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The "Gaussian egg" (book §1.1.1–1.1.2): the mass of a spherical Gaussian
// inside 0.95σ (yolk), between 0.95σ and 1.05σ (green) and beyond (white),
// with the radius measured on the dimension-normalised squared distance
// (see highdim.EggMasses for why this is the convention the captions use).

const eggLo, eggHi = 0.95, 1.05

// eggNumbers states the three masses in percent beside the caption's.
func eggNumbers(p int, yolk, green, white float64) []Number {
	y, g, w := highdim.EggMasses(p, eggLo, eggHi)
	where := fmt.Sprintf("Fig 1.%d caption", p)
	return []Number{
		Book("yolk mass (%)", yolk, 100*y, 0.05, where),
		Book("green mass (%)", green, 100*g, 0.05, where),
		Book("white mass (%)", white, 100*w, 0.05, where),
	}
}

// Fig1_1EggMass1D is book Fig 1.1 (§1.1.2): the standard normal density on
// [−3, 3] cut at ±0.95 and ±1.05 into yolk, green and white.
func Fig1_1EggMass1D() (*Figure, error) {
	p := hideAll(newPlot("", "", ""))
	pdf := func(y float64) float64 { return math.Exp(-y*y/2) / math.Sqrt(2*math.Pi) }
	piece := func(a, b float64, fill color.Color) {
		xs := linspace(a, b, 60)
		ys := make([]float64, len(xs))
		for i, x := range xs {
			ys[i] = pdf(x)
		}
		px := append([]float64{a}, xs...)
		py := append([]float64{0}, ys...)
		px = append(px, b)
		py = append(py, 0)
		p.Add(polygon(px, py, fill, color.Black))
	}
	piece(-3, -eggHi, whiteColour)
	piece(-eggHi, -eggLo, greenColour)
	piece(-eggLo, eggLo, yolkColour)
	piece(eggLo, eggHi, greenColour)
	piece(eggHi, 3, whiteColour)
	y, g, w := highdim.EggMasses(1, eggLo, eggHi)
	p.Add(labels([]float64{0, -2.1, 2.1}, []float64{0.17, 0.08, 0.08}, []string{pct(y), pct(w / 2), pct(w / 2)}, 11))
	leader(p, 1.0, 0.2, 1.7, 0.33, pct(g))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -3, 3, 0, 0.42
	return &Figure{
		ID: "1.1", Caption: "The 1-D Gaussian egg: mass within 0.95σ (yolk) 65.8 %, between 0.95σ and 1.05σ (green) 4.8 %, beyond 1.05σ (white) 29.4 %.",
		Data: "synthetic", Panels: []*plot.Plot{p}, Width: 14 * vg.Centimeter, Height: 8 * vg.Centimeter,
		Numbers: eggNumbers(1, 65.8, 4.8, 29.4),
	}, nil
}

// leader labels the point (x, y) with text at (tx, ty), joined by a thin
// line: the green shell is too thin to hold its own label.
func leader(p *plot.Plot, x, y, tx, ty float64, text string) {
	p.Add(line([]float64{x, tx}, []float64{y, ty}, color.Black, 0.6))
	l := labels([]float64{tx}, []float64{ty}, []string{text}, 11)
	l.TextStyle[0].XAlign = draw.XLeft
	l.TextStyle[0].YAlign = draw.YBottom
	p.Add(l)
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// Fig1_2EggMass2D is book Fig 1.2 (§1.1.2): the 2-D egg as three concentric
// ellipses of radii 0.95, 1.05 and 3, drawn as (sin t, 0.6 cos t) for a
// perspective look (the author's bookFigures.m).
func Fig1_2EggMass2D() (*Figure, error) {
	p := hideAll(newPlot("", "", ""))
	disc := func(r float64, fill color.Color) {
		xs, ys := ellipse(0, 0, r, 0.6*r, 0, 200)
		p.Add(polygon(xs, ys, fill, color.Black))
	}
	disc(3, whiteColour)
	disc(eggHi, greenColour)
	disc(eggLo, yolkColour)
	y, g, w := highdim.EggMasses(2, eggLo, eggHi)
	p.Add(labels([]float64{0, 0}, []float64{0, -1.3}, []string{pct(y), pct(w)}, 11))
	leader(p, 0.707, 0.424, 2.2, 1.45, pct(g))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -3.1, 3.1, -1.9, 1.9
	return &Figure{
		ID: "1.2", Caption: "The 2-D Gaussian egg: yolk 59.4 %, green 7.4 %, white 33.2 %.",
		Data: "synthetic", Panels: []*plot.Plot{p}, Width: 14 * vg.Centimeter, Height: 9 * vg.Centimeter,
		Numbers: eggNumbers(2, 59.4, 7.4, 33.2),
	}, nil
}

// Fig1_3EggMass3D is book Fig 1.3 (§1.1.2): the 3-D egg, drawn as nested
// spheres of radii 0.95, 1.05 and 3 with a cut-away quarter that shows the
// yolk and the green shell (no code survives for the original).
func Fig1_3EggMass3D() (*Figure, error) {
	p := hideAll(newPlot("", "", ""))
	shade := func(c color.RGBA, k float64) color.RGBA {
		return color.RGBA{R: uint8(float64(c.R) * k), G: uint8(float64(c.G) * k), B: uint8(float64(c.B) * k), A: 255}
	}
	// outer sphere with a quarter cut away: a pie from angle π/2 round to 2π
	xs, ys := []float64{0}, []float64{0}
	for _, t := range linspace(math.Pi/2, 2*math.Pi, 150) {
		xs = append(xs, 3*math.Cos(t))
		ys = append(ys, 3*math.Sin(t))
	}
	p.Add(polygon(xs, ys, whiteColour, color.Black))
	// the cut faces of the white, green and yolk layers in the removed quarter
	for _, layer := range []struct {
		r    float64
		fill color.RGBA
	}{{3, shade(whiteColour, 0.88)}, {eggHi, shade(greenColour, 0.85)}, {eggLo, shade(yolkColour, 0.9)}} {
		qx, qy := []float64{0}, []float64{0}
		for _, t := range linspace(0, math.Pi/2, 60) {
			qx = append(qx, layer.r*math.Cos(t))
			qy = append(qy, layer.r*math.Sin(t))
		}
		p.Add(polygon(qx, qy, layer.fill, color.Black))
	}
	// meridian and equator ellipses give the sphere its depth
	ex, ey := ellipse(0, 0, 3, 0.9, 0, 200)
	var bx, by []float64
	for i := range ex {
		if !(ex[i] > 0 && ey[i] > 0) {
			bx, by = append(bx, ex[i]), append(by, ey[i])
		}
	}
	eq := line(bx, by, color.Gray{Y: 120}, 0.7)
	eq.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
	p.Add(eq)
	y, g, w := highdim.EggMasses(3, eggLo, eggHi)
	p.Add(labels([]float64{0.45, -1.5}, []float64{0.35, -1.5}, []string{pct(y), pct(w)}, 11))
	leader(p, 0.78, 0.62, 2.2, 2.25, pct(g))
	equalAxes(p, -3.3, 3.3)
	return &Figure{
		ID: "1.3", Caption: "The 3-D Gaussian egg (cut away): yolk 56.1 %, green 9.2 %, white 34.7 %.",
		Data: "synthetic", Panels: []*plot.Plot{p}, Width: 10 * vg.Centimeter, Height: 10 * vg.Centimeter,
		Numbers: eggNumbers(3, 56.1, 9.2, 34.7),
	}, nil
}

// Fig1_4DistanceSchematic is book Fig 1.4 (§1.1.2): the distance from the
// mean of the density (circle) to a data point (square).
func Fig1_4DistanceSchematic() (*Figure, error) {
	p := hideAll(newPlot("", "", ""))
	for _, r := range []float64{0.6, 1.2, 1.8} {
		xs, ys := ellipse(0, 0, r, r, 0, 120)
		l := line(xs, ys, color.Gray{Y: 170}, 0.8)
		p.Add(l)
	}
	p.Add(line([]float64{0, 1.3}, []float64{0, 0.9}, color.Black, 1.5))
	p.Add(scatter([]float64{0}, []float64{0}, color.RGBA{B: 220, A: 255}, 6, draw.CircleGlyph{}))
	p.Add(scatter([]float64{1.3}, []float64{0.9}, color.RGBA{R: 220, A: 255}, 6, draw.BoxGlyph{}))
	p.Add(labels([]float64{0.45}, []float64{0.6}, []string{"‖y − μ‖"}, 11))
	equalAxes(p, -2, 2)
	return &Figure{
		ID: "1.4", Caption: "Distance from the mean of the density (circle) to a given data point (square).",
		Data: "schematic", Panels: []*plot.Plot{p}, Width: 9 * vg.Centimeter, Height: 9 * vg.Centimeter,
	}, nil
}

// Fig1_5MassAgainstDimension is book Fig 1.5 (§1.1.2): the yolk, green and
// white masses for D = 1, 2, 4, …, 1024 as a stacked area over log₂ D.
// The white band is 1 − GAMMACDF(1.05²) (dimredDimensionMass.m); the
// reference computation's table gives the acceptance values. The caption states no
// number: we report the white band's peak and the crossing points.
func Fig1_5MassAgainstDimension() (*Figure, error) {
	var xs, yolk, inner []float64
	for x := 0; x <= 10; x++ {
		y, g, _ := highdim.EggMasses(1<<x, eggLo, eggHi)
		xs = append(xs, float64(x))
		yolk = append(yolk, y)
		inner = append(inner, y+g)
	}
	p := newPlot("", "dimension", "probability mass")
	band := func(lo, hi []float64, fill color.Color) {
		px := append([]float64{}, xs...)
		py := append([]float64{}, hi...)
		for i := len(xs) - 1; i >= 0; i-- {
			px = append(px, xs[i])
			py = append(py, lo[i])
		}
		p.Add(polygon(px, py, fill, color.Black))
	}
	zeros := make([]float64, len(xs))
	ones := make([]float64, len(xs))
	for i := range ones {
		ones[i] = 1
	}
	band(inner, ones, whiteColour)
	band(yolk, inner, greenColour)
	band(zeros, yolk, yolkColour)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 10, 0, 1
	var ticks []plot.Tick
	for x := 0; x <= 10; x++ {
		ticks = append(ticks, plot.Tick{Value: float64(x), Label: fmt.Sprint(1 << x)})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"},
		{Value: 0.5, Label: "0.5"}, {Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}})
	// numbers: the white band's peak over D = 1…1024 and the masses at the ends
	peak, peakD := 0.0, 0
	for x := 0; x <= 10; x++ {
		if w := 1 - inner[x]; w > peak {
			peak, peakD = w, 1<<x
		}
	}
	_, g1024, _ := highdim.EggMasses(1024, eggLo, eggHi)
	return &Figure{
		ID: "1.5", Caption: "Probability mass against dimension: within 0.95σ (yellow), between 0.95σ and 1.05σ (green) and beyond 1.05σ (white), for D = 1, 2, 4, …, 1024.",
		Data: "synthetic", Panels: []*plot.Plot{p}, Width: 14 * vg.Centimeter, Height: 9 * vg.Centimeter,
		Numbers: []Number{
			Ours("white mass peak (%)", 100*peak),
			Ours("dimension of white peak", float64(peakD)),
			Ours("yolk mass at D = 1024 (%)", 100*yolk[10]),
			Ours("green mass at D = 1024 (%)", 100*g1024),
		},
	}, nil
}

func init() {
	Register("1.1", 1, Fig1_1EggMass1D)
	Register("1.2", 1, Fig1_2EggMass2D)
	Register("1.3", 1, Fig1_3EggMass3D)
	Register("1.4", 1, Fig1_4DistanceSchematic)
	Register("1.5", 1, Fig1_5MassAgainstDimension)
}

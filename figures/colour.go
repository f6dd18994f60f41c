package figures

// Colour maps, the colour bar and colour-mapped matrix panels shared by
// every chapter's figures.

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// jet is MATLAB's default "jet" colour map of the time (blue → cyan →
// yellow → red), t ∈ [0, 1]; t outside is clamped and NaN is t = 0.
func jet(t float64) color.RGBA {
	if math.IsNaN(t) {
		t = 0
	}
	t = math.Max(0, math.Min(1, t))
	c := func(x float64) uint8 { return uint8(255*math.Max(0, math.Min(1, x)) + 0.5) }
	return color.RGBA{R: c(1.5 - math.Abs(4*t-3)), G: c(1.5 - math.Abs(4*t-2)), B: c(1.5 - math.Abs(4*t-1)), A: 255}
}

// colourBar draws a vertical colour bar (jet unless Map is set) in data coordinates
// [X0, X1]×[Y0, Y1] with tick labels to its right.
type colourBar struct {
	X0, X1, Y0, Y1 float64
	Min, Max       float64
	Ticks          []float64
	Format         string
	// Map colours t ∈ [0, 1] (bottom to top); nil means jet.
	Map func(t float64) color.Color
	// Label, if set, writes the label of tick v instead of Format (e.g.
	// 10^v for a bar on a log scale).
	Label func(v float64) string
}

func (b colourBar) Plot(c draw.Canvas, plt *plot.Plot) {
	tx, ty := plt.Transforms(&c)
	const steps = 64
	for s := 0; s < steps; s++ {
		y0 := b.Y0 + (b.Y1-b.Y0)*float64(s)/steps
		y1 := b.Y0 + (b.Y1-b.Y0)*math.Min(float64(s)+1.5, steps)/steps // overlap: no anti-aliasing seams
		var col color.Color = jet((float64(s) + 0.5) / steps)
		if b.Map != nil {
			col = b.Map((float64(s) + 0.5) / steps)
		}
		c.FillPolygon(col, []vg.Point{{X: tx(b.X0), Y: ty(y0)}, {X: tx(b.X1), Y: ty(y0)}, {X: tx(b.X1), Y: ty(y1)}, {X: tx(b.X0), Y: ty(y1)}})
	}
	sty := draw.TextStyle{Color: color.Black, Font: font.Font{Typeface: plot.DefaultFont.Typeface, Variant: plot.DefaultFont.Variant, Size: vg.Points(9)},
		Handler: plot.DefaultTextHandler, XAlign: draw.XLeft, YAlign: draw.YCenter}
	for _, t := range b.Ticks {
		y := b.Y0 + (b.Y1-b.Y0)*(t-b.Min)/(b.Max-b.Min)
		c.StrokeLine2(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, tx(b.X1), ty(y), tx(b.X1)+vg.Points(3), ty(y))
		lab := fmt.Sprintf(b.Format, t)
		if b.Label != nil {
			lab = b.Label(t)
		}
		c.FillText(sty, vg.Point{X: tx(b.X1) + vg.Points(4), Y: ty(y)}, lab)
	}
}

// hueCycle maps t ∈ [0, 1) around a hue circle (red → yellow → green →
// cyan → blue → magenta → red, at 82 % brightness), so that a cyclic
// quantity such as an angle gets neighbouring colours for neighbouring
// values and the ends meet.
func hueCycle(t float64) color.Color {
	h := t * 6
	x := 1 - math.Abs(math.Mod(h, 2)-1)
	var r, g, b float64
	switch int(h) % 6 {
	case 0:
		r, g = 1, x
	case 1:
		r, g = x, 1
	case 2:
		g, b = 1, x
	case 3:
		g, b = x, 1
	case 4:
		r, b = x, 1
	default:
		r, b = 1, x
	}
	return color.RGBA{R: uint8(210 * r), G: uint8(210 * g), B: uint8(210 * b), A: 255}
}

// matrixPanel draws an r×c matrix as an image (row 0 at the top, as
// MATLAB's imagesc) coloured with jet between vmin and vmax, with a colour
// bar to its right ticked at cbTicks (labels formatted by cbFormat). The
// data coordinates are matrix units: x ∈ [0, c] left to right, y ∈ [0, r]
// bottom to top, so row i spans y ∈ [r−i−1, r−i].
func matrixPanel(m mat.Matrix, vmin, vmax float64, title string, cbTicks []float64, cbFormat string) *plot.Plot {
	r, c := m.Dims()
	img := image.NewRGBA(image.Rect(0, 0, c, r))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			img.SetRGBA(j, i, jet((m.At(i, j)-vmin)/(vmax-vmin)))
		}
	}
	p := plot.New()
	p.Title.Text = title
	fr, fc := float64(r), float64(c)
	p.Add(plotter.NewImage(img, 0, 0, fc, fr))
	p.Add(colourBar{X0: 1.06 * fc, X1: 1.12 * fc, Y0: 0, Y1: fr, Min: vmin, Max: vmax, Ticks: cbTicks, Format: cbFormat})
	p.X.Min, p.X.Max = 0, 1.32*fc
	p.Y.Min, p.Y.Max = 0, fr
	p.X.LineStyle.Width = 0
	return p
}

// greyMap is Matlab's colormap gray: t = 0 black, t = 1 white.
func greyMap(t float64) color.Color {
	t = math.Max(0, math.Min(1, t))
	return color.Gray{Y: uint8(math.Round(255 * t))}
}

// niceTicks returns round values on [lo, hi] spaced 1, 2 or 5 × 10ᵏ,
// four to eight of them, for colour bars.
func niceTicks(lo, hi float64) []float64 {
	if !(hi > lo) {
		return []float64{lo}
	}
	raw := (hi - lo) / 5
	e := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * e
	for _, m := range []float64{1, 2, 5} {
		if m*e >= raw {
			step = m * e
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step-1e-9) * step; v <= hi+1e-9*step; v += step {
		if math.Abs(v) < 1e-12*step {
			v = 0
		}
		out = append(out, v)
	}
	return out
}

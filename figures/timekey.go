package figures

// The one colour map of time (or frame number) and its key, shared by every
// figure that colours points by their order in a sequence: the paper's
// Figs 3–6 (stick man and robot WiFi frames), Fig X5.7 (the robot's path)
// and any chapter figure of a time series.

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg/draw"
)

// timeColour is the colour of time t ∈ [0, 1] (first frame 0, last 1):
// MATLAB's jet, blue → cyan → yellow → red, the map of the spectral paper's
// figures. Every figure that colours by time uses it, so one key reads
// them all.
func timeColour(t float64) color.Color { return jet(t) }

// frameColour is timeColour of frame i of n (0-based): frame 0 blue, frame
// n−1 red.
func frameColour(i, n int) color.Color {
	return timeColour(float64(i) / float64(max(n-1, 1)))
}

// addTimeKey draws a key for timeColour on panel p: a vertical colour bar
// from t0 (bottom) to t1 (top), ticked at round values, headed by unit
// ("frame", "time (s)"), in a strip added to the right of the data. Call
// it after the panel's data and any explicit axis limits are set: it widens
// p.X by about a third and keeps the x ticks to the data's range.
func addTimeKey(p *plot.Plot, t0, t1 float64, unit string) {
	x0, x1, y0, y1 := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	if !(x1 > x0) || !(y1 > y0) || math.IsInf(x0, 0) || math.IsInf(y0, 0) {
		panic("figures: addTimeKey on a panel without data")
	}
	dx, dy := x1-x0, y1-y0
	// Data, then a gap, the bar and its tick labels.
	bx0 := x1 + 0.08*dx
	bx1 := bx0 + 0.05*dx
	p.X.Max = x1 + 0.34*dx
	marker := p.X.Tick.Marker
	if _, isDefault := marker.(plot.DefaultTicks); isDefault {
		marker = plainTicks{}
	}
	p.X.Tick.Marker = clipTicks{Marker: marker, Max: x1}
	p.Add(colourBar{X0: bx0, X1: bx1, Y0: y0 + 0.05*dy, Y1: y1 - 0.12*dy,
		Min: t0, Max: t1, Ticks: niceTicks(t0, t1), Format: "%g",
		Map: func(t float64) color.Color { return timeColour(t) }})
	lab := labels([]float64{bx0}, []float64{y1 - 0.03*dy}, []string{unit}, 9)
	lab.TextStyle[0].XAlign = draw.XLeft
	p.Add(lab)
}

// clipTicks drops the ticks of Marker above Max, so that an axis widened to
// make room for a key is labelled only where there are data.
type clipTicks struct {
	Marker plot.Ticker
	Max    float64
}

func (c clipTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range c.Marker.Ticks(min, max) {
		if t.Value <= c.Max {
			out = append(out, t)
		}
	}
	return out
}

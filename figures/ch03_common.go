package figures

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/dimredbook/book/datasets"
)

// Shared helpers of the Chapter 3 figures: the rotated-six data (generated
// once per process) and greyscale image panels in the style of Matlab's
// imagesc with colormap gray and "axis ij" (row 0 at the top).

var (
	sixesOnce sync.Once
	sixesY    *mat.Dense // 360×4096, Y/255
	sixesErr  error
)

// rotatedSixesUnit returns the 360×4096 rotated sixes scaled to [0, 1]
// (Chapter 3 uses Y/255). The matrix is shared: callers must not modify it.
func rotatedSixesUnit() (*mat.Dense, error) {
	sixesOnce.Do(func() {
		d, err := datasets.RotatedSixes()
		if err != nil {
			sixesErr = err
			return
		}
		y := mat.DenseCopyOf(d.Y)
		y.Scale(1.0/255, y)
		sixesY = y
	})
	return sixesY, sixesErr
}

// greyImage maps the r×c matrix m linearly onto grey levels, min → black
// and max → white (imagesc with colormap gray); invert swaps them.
func greyImage(m mat.Matrix, invert bool) *image.Gray {
	lo, hi := matrixRange(m)
	return greyImageRange(m, lo, hi, invert)
}

// greyImageRange is greyImage with a fixed range: lo → black, hi → white,
// values outside clamped.
func greyImageRange(m mat.Matrix, lo, hi float64, invert bool) *image.Gray {
	r, c := m.Dims()
	img := image.NewGray(image.Rect(0, 0, c, r))
	span := hi - lo
	if span == 0 {
		span = 1
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			g := math.Max(0, math.Min(1, (m.At(i, j)-lo)/span))
			if invert {
				g = 1 - g
			}
			img.SetGray(j, i, color.Gray{Y: uint8(math.Round(255 * g))})
		}
	}
	return img
}

// blockUp enlarges a small image by pixel replication so that the
// renderer's smoothing does not blur its pixels (Matlab's imagesc draws
// crisp blocks).
func blockUp(img *image.Gray) *image.Gray {
	b := img.Bounds()
	k := 1
	if m := max(b.Dx(), b.Dy()); m < 200 {
		k = (200 + m - 1) / m
	}
	if k == 1 {
		return img
	}
	out := image.NewGray(image.Rect(0, 0, k*b.Dx(), k*b.Dy()))
	for y := 0; y < out.Bounds().Dy(); y++ {
		for x := 0; x < out.Bounds().Dx(); x++ {
			out.SetGray(x, y, img.GrayAt(b.Min.X+x/k, b.Min.Y+y/k))
		}
	}
	return out
}

// rowTicks labels the y axis of an image panel in row numbers counted from
// the top: data y = rows − row.
func rowTicks(rows int, at []float64) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var t []plot.Tick
		for _, v := range at {
			t = append(t, plot.Tick{Value: float64(rows) - v, Label: fmt.Sprintf("%g", v)})
		}
		return t
	})
}

func constTicks(at []float64) plot.Ticker {
	var t []plot.Tick
	for _, v := range at {
		t = append(t, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
	}
	return plot.ConstantTicks(t)
}

// imagePanel draws m (r×c) as a greyscale image with row 0 at the top,
// ticks at the given row/column numbers (nil: none).
func imagePanel(title string, m mat.Matrix, invert bool, ticks []float64) *plot.Plot {
	r, c := m.Dims()
	p := newPlot(title, "", "")
	p.Add(plotter.NewImage(blockUp(greyImage(m, invert)), 0, 0, float64(c), float64(r)))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(c), 0, float64(r)
	if ticks == nil {
		p.X.Tick.Marker = plot.ConstantTicks(nil)
		p.Y.Tick.Marker = plot.ConstantTicks(nil)
	} else {
		p.X.Tick.Marker = constTicks(ticks)
		p.Y.Tick.Marker = rowTicks(r, ticks)
	}
	return p
}

// sixImage returns row i of the rotated sixes (values in [0, 1]) as a 64×64
// image matrix.
func sixImage(Y *mat.Dense, i int) *mat.Dense {
	return mat.NewDense(datasets.SixSize, datasets.SixSize, append([]float64(nil), Y.RawRowView(i)...))
}

// scaledDistances returns D/s for the squared distances D of the rows of X.
func scaledDistances(X mat.Matrix, s float64) *mat.SymDense {
	n, _ := X.Dims()
	D := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(D, X)
	D.ScaleSym(1/s, D)
	return D
}

var angleTicks = []float64{0, 90, 180, 270, 360}

// matrixRange returns the smallest and largest entries of m.
func matrixRange(m mat.Matrix) (lo, hi float64) {
	r, c := m.Dims()
	lo, hi = math.Inf(1), math.Inf(-1)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v := m.At(i, j)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return lo, hi
}

// imagePanelBar is imagePanel with a grey colour bar to the right of the
// image, ticked at round values, so that the grey levels of panels scaled
// independently (imagesc) can be read off and compared.
func imagePanelBar(title string, m mat.Matrix, invert bool, ticks []float64) *plot.Plot {
	lo, hi := matrixRange(m)
	return imagePanelRange(title, m, lo, hi, invert, ticks)
}

// imagePanelRange is imagePanelBar on a fixed grey range [lo, hi] (lo
// black, hi white unless invert), so several panels can share one scale.
func imagePanelRange(title string, m mat.Matrix, lo, hi float64, invert bool, ticks []float64) *plot.Plot {
	if hi == lo {
		hi = lo + 1
	}
	r, c := m.Dims()
	p := newPlot(title, "", "")
	p.Add(plotter.NewImage(blockUp(greyImageRange(m, lo, hi, invert)), 0, 0, float64(c), float64(r)))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, float64(c), 0, float64(r)
	if ticks == nil {
		p.X.Tick.Marker = plot.ConstantTicks(nil)
		p.Y.Tick.Marker = plot.ConstantTicks(nil)
	} else {
		p.X.Tick.Marker = constTicks(ticks)
		p.Y.Tick.Marker = rowTicks(r, ticks)
	}
	fr, fc := float64(r), float64(c)
	bar := colourBar{X0: 1.05 * fc, X1: 1.11 * fc, Y0: 0, Y1: fr, Min: lo, Max: hi,
		Ticks: niceTicks(lo, hi), Format: "%.4g", Map: greyMap}
	if invert {
		bar.Map = func(t float64) color.Color { return greyMap(1 - t) }
	}
	p.Add(bar)
	p.X.Max = 1.34 * fc
	p.X.LineStyle.Width = 0
	return p
}

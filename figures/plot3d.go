package figures

// Three-dimensional scatter plots by orthographic projection, shared by
// every chapter's figures (gonum/plot draws in two dimensions only).

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// view3D projects 3-D points orthographically for a camera at azimuth
// az and elevation el (degrees), as MATLAB's view(az, el); it returns the
// screen coordinates and the depth (larger is nearer the viewer).
func view3D(x, y, z, az, el float64) (sx, sy, depth float64) {
	a, e := az*math.Pi/180, el*math.Pi/180
	sx = math.Cos(a)*x + math.Sin(a)*y
	sy = -math.Sin(e)*math.Sin(a)*x + math.Sin(e)*math.Cos(a)*y + math.Cos(e)*z
	depth = -math.Cos(e)*math.Sin(a)*x + math.Cos(e)*math.Cos(a)*y - math.Sin(e)*z
	return sx, sy, -depth
}

// scatter3D draws columns cols[0], cols[1], cols[2] of X as a 3-D scatter
// inside a cube of half-width lim seen from (az, el) (see view3D), MATLAB
// plot3 style: the cube's edges and the axis names x<col+1>, points as dots
// coloured by colourOf(i), drawn far to near.
func scatter3D(X *mat.Dense, cols [3]int, lim, az, el float64, title string, colourOf func(i int) color.Color) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.HideAxes()
	proj := func(v [3]float64) plotter.XY {
		x, y, _ := view3D(v[0], v[1], v[2], az, el)
		return plotter.XY{X: x, Y: y}
	}
	// Cube edges in grey; the axis names beside the midpoints of the three
	// edges through the bottom corner nearest the viewer, pushed outwards.
	grey := color.Gray{Y: 170}
	corners := func(i int) [3]float64 {
		return [3]float64{lim * float64(2*(i&1)-1), lim * float64(2*(i>>1&1)-1), lim * float64(2*(i>>2&1)-1)}
	}
	near, best := 0, math.Inf(-1)
	for i := 0; i < 4; i++ { // bottom corners: z = −lim
		c := corners(i)
		if _, _, dep := view3D(c[0], c[1], c[2], az, el); dep > best {
			near, best = i, dep
		}
	}
	for i := 0; i < 8; i++ {
		for b := 0; b < 3; b++ {
			j := i | 1<<b
			if j == i {
				continue
			}
			l, _ := plotter.NewLine(plotter.XYs{proj(corners(i)), proj(corners(j))})
			l.Color = grey
			l.Width = vg.Points(0.6)
			p.Add(l)
		}
	}
	var lx, ly []float64
	var lt []string
	left, lmin := 0, math.Inf(1)
	for i := 0; i < 4; i++ { // the vertical edge furthest left on screen
		c := corners(i)
		if sx, _, _ := view3D(c[0], c[1], c[2], az, el); sx < lmin {
			left, lmin = i, sx
		}
	}
	for b := 0; b < 3; b++ {
		v := corners(near)
		if b == 2 {
			v = corners(left)
		}
		v[b] = 0
		for a := 0; a < 3; a++ {
			if a != b {
				v[a] *= 1.25
			}
		}
		pt := proj(v)
		lx, ly = append(lx, pt.X), append(ly, pt.Y)
		lt = append(lt, fmt.Sprintf("x%d", cols[b]+1))
	}
	p.Add(labels(lx, ly, lt, 10))
	// Points, far to near.
	n, _ := X.Dims()
	type pt struct {
		xy    plotter.XY
		depth float64
		i     int
	}
	pts := make([]pt, n)
	for i := 0; i < n; i++ {
		x, y, dep := view3D(X.At(i, cols[0]), X.At(i, cols[1]), X.At(i, cols[2]), az, el)
		pts[i] = pt{plotter.XY{X: x, Y: y}, dep, i}
	}
	sort.SliceStable(pts, func(a, b int) bool { return pts[a].depth < pts[b].depth })
	for _, q := range pts {
		s, _ := plotter.NewScatter(plotter.XYs{q.xy})
		s.GlyphStyle = draw.GlyphStyle{Color: colourOf(q.i), Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	r := lim * 1.9
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -r, r, -r, r
	return p
}

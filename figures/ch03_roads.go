package figures

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"sync"

	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"
)

// Chapter 3 figures of classical MDS on European road distances (book
// §3.5.1, Figs 3.8–3.11). The cities are the book's 53 (datasets.Cities53:
// Hammerfest outside the map window, the four ferry-only pairs imputed by
// the shortest road path through the table).

// roadsFit is the classical-MDS fit shared by Figs 3.8–3.11.
type roadsFit struct {
	d    *datasets.Dataset
	mds  *dimred.ClassicalMDS
	X    *mat.Dense    // 2-D configuration
	B    *mat.SymDense // −½HDH, D squared km
	vals []float64     // all eigenvalues of B, descending
	pro  *dimred.ProcrustesResult
	merc *mat.Dense // Mercator positions (degree units)
}

var (
	roadsOnce sync.Once
	roadsRes  *roadsFit
	roadsErr  error
)

// mercator returns the Mercator projection of (lat, lon) in degrees, in
// "degree" units: x = lon, y = (180/π) ln tan(π/4 + φ/2) (m_map's mercator).
func mercator(lat, lon float64) (x, y float64) {
	phi := lat * math.Pi / 180
	return lon, 180 / math.Pi * math.Log(math.Tan(math.Pi/4+phi/2))
}

func fitRoads() (*roadsFit, error) {
	roadsOnce.Do(func() {
		d, err := datasets.EuropeRoads(datasets.Cities53)
		if err != nil {
			roadsErr = err
			return
		}
		m := &dimred.ClassicalMDS{Q: 2, Plain: true, FullSpectrum: true} // NegativeMass, FitRatios
		if err := m.FitDistances(d.D); err != nil {
			roadsErr = err
			return
		}
		n := d.D.SymmetricDim()
		D2 := mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := d.D.At(i, j)
				D2.SetSym(i, j, v*v)
			}
		}
		var X mat.Dense
		m.LatentTo(&X)
		P := mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			x, y := mercator(d.T.At(i, 0), d.T.At(i, 1))
			P.Set(i, 0, x)
			P.Set(i, 1, y)
		}
		pro, err := dimred.Procrustes(&X, P, &dimred.ProcrustesOptions{Scale: true})
		if err != nil {
			roadsErr = err
			return
		}
		roadsRes = &roadsFit{d: d, mds: m, X: &X, B: linalg.DoubleCentre(nil, D2),
			vals: m.EigenvaluesTo(nil), pro: pro, merc: P}
	})
	return roadsRes, roadsErr
}

func cityTicks(n int) []float64 {
	var t []float64
	for v := 0; v <= n; v += 12 {
		t = append(t, float64(v))
	}
	return t
}

// Fig3_8RoadDistances is book Fig 3.8 (§3.5.1): (a) the road
// distances in km, (b) the centred similarity B = −½HDH (D squared km).
func Fig3_8RoadDistances() (*Figure, error) {
	r, err := fitRoads()
	if err != nil {
		return nil, err
	}
	n := r.d.D.SymmetricDim()
	maxKm, bi, bj := 0.0, 0, 0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if v := r.d.D.At(i, j); v > maxKm {
				maxKm, bi, bj = v, i, j
			}
		}
	}
	blo, bhi := math.Inf(1), math.Inf(-1)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			blo, bhi = math.Min(blo, r.B.At(i, j)), math.Max(bhi, r.B.At(i, j))
		}
	}
	return &Figure{
		ID: "3.8",
		Caption: "Road distances converted to a similarity matrix by the standard transformation: (a) road distances between European cities (km), " +
			"(b) the centred similarity matrix B = −½HDH derived from them.",
		Data: "europe_roads",
		Panels: []*plot.Plot{
			imagePanelBar("(a) road distances (km)", r.d.D, false, cityTicks(n)),
			imagePanelBar("(b) centred similarity B (km²)", r.B, false, cityTicks(n)),
		},
		Width: 18 * vg.Centimeter, Height: 9.5 * vg.Centimeter,
		Numbers: []Number{
			Book("cities", 53, float64(n), 0, "§3.5.1"),
			Ours(fmt.Sprintf("largest distance, km (%s–%s)", r.d.RowNames[bi], r.d.RowNames[bj]), maxKm),
			Ours("smallest entry of B (km²)", blo),
			Ours("largest entry of B (km²)", bhi),
		},
	}, nil
}

// Fig3_9EuropeMap is book Fig 3.9 (§3.5.1): the 2-D classical-MDS
// configuration, aligned by Procrustes (rotation, reflection, least-squares
// scale, translation) onto the Mercator-projected true positions (red
// circles), drawn as red crosses joined to their cities, over Natural
// Earth's 1:50m coastline (datasets.Coastlines; public domain, fetched
// into the cache on first use). Without it — offline with no cached copy —
// a 10° graticule stands in and the figure says so.
func Fig3_9EuropeMap() (*Figure, error) {
	r, err := fitRoads()
	if err != nil {
		return nil, fmt.Errorf("figure %s: %w", "3.9", err)
	}
	coast, cerr := datasets.Coastlines("50m")
	if cerr != nil {
		coast = nil
	}
	return fig3_9(r, coast), nil
}

// fig3_9 draws Fig 3.9 over the given coastline (nil: graticule only).
func fig3_9(r *roadsFit, coast [][][2]float64) *Figure {
	n := r.d.D.SymmetricDim()
	p := newPlot("", "longitude (°)", "latitude (°, Mercator)")
	grey := color.RGBA{R: 200, G: 200, B: 200, A: 255}
	_, y30 := mercator(30, 0)
	_, y65 := mercator(65, 0)
	for lon := -10.0; lon <= 50; lon += 10 {
		p.Add(line([]float64{lon, lon}, []float64{y30, y65}, grey, 0.5))
	}
	var latTicks []plot.Tick
	for lat := 30.0; lat <= 65; lat += 5 {
		_, y := mercator(lat, 0)
		if math.Mod(lat, 10) == 0 {
			p.Add(line([]float64{-15, 50}, []float64{y, y}, grey, 0.5))
		}
		latTicks = append(latTicks, plot.Tick{Value: y, Label: fmt.Sprintf("%g", lat)})
	}
	coastPts := 0
	for _, arc := range coast {
		var xs, ys []float64
		flush := func() {
			if len(xs) > 1 {
				p.Add(line(xs, ys, color.RGBA{R: 90, G: 110, B: 140, A: 255}, 0.6))
			}
			xs, ys = nil, nil
		}
		for _, q := range arc {
			// Keep a margin around the window so lines leave it cleanly.
			if q[0] < -25 || q[0] > 60 || q[1] < 25 || q[1] > 72 {
				flush()
				continue
			}
			x, y := mercator(q[1], q[0])
			xs, ys = append(xs, x), append(ys, y)
			coastPts++
		}
		flush()
	}
	red := color.RGBA{R: 220, A: 255}
	res := make([]struct {
		name string
		d    float64
	}, n)
	for i := 0; i < n; i++ {
		tx, ty := r.merc.At(i, 0), r.merc.At(i, 1)
		ax, ay := r.pro.Aligned.At(i, 0), r.pro.Aligned.At(i, 1)
		p.Add(line([]float64{tx, ax}, []float64{ty, ay}, red, 0.8))
		res[i].name, res[i].d = r.d.RowNames[i], math.Hypot(tx-ax, ty-ay)
	}
	p.Add(scatter(mat.Col(nil, 0, r.merc), mat.Col(nil, 1, r.merc), red, 2.5, draw.RingGlyph{}))
	p.Add(scatter(mat.Col(nil, 0, r.pro.Aligned), mat.Col(nil, 1, r.pro.Aligned), red, 2.5, draw.CrossGlyph{}))
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -15, 50, y30, y65
	// Labels avoid the crosses and the residual lines (sampled).
	var marks [][2]float64
	for i := 0; i < n; i++ {
		tx, ty := r.merc.At(i, 0), r.merc.At(i, 1)
		ax, ay := r.pro.Aligned.At(i, 0), r.pro.Aligned.At(i, 1)
		steps := int(math.Hypot(tx-ax, ty-ay)/0.4) + 1
		for k := 1; k <= steps; k++ {
			u := float64(k) / float64(steps)
			marks = append(marks, [2]float64{tx + u*(ax-tx), ty + u*(ay-ty)})
		}
	}
	placeLabels(p, mat.Col(nil, 0, r.merc), mat.Col(nil, 1, r.merc), r.d.RowNames, 6, marks...)
	p.Y.Tick.Marker = plot.ConstantTicks(latTicks)
	sort.Slice(res, func(a, b int) bool { return res[a].d > res[b].d })
	f := &Figure{
		ID:      "3.9",
		Caption: "Reconstructed locations (crosses) projected onto the true map (circles, Mercator, Natural Earth 1:50m coastline) using a Procrustes rotation.",
		Data:    "europe_roads",
		Panels:  []*plot.Plot{p}, Width: 18 * vg.Centimeter, Height: 15 * vg.Centimeter,
		Numbers: []Number{
			Ours("RMS residual after Procrustes (degree units)", r.pro.RMS),
			Ours("Procrustes scale (degree units per km)", r.pro.Scale),
			Ours("det R (−1: a reflection was needed)", mat.Det(r.pro.R)),
		},
		Why: "Drawn over Natural Earth's 1:50m coastline (public domain, from the world-atlas package) instead of the book's m_map coastline.",
	}
	if coast == nil {
		f.Caption = "Reconstructed locations (crosses) projected onto the true map (circles, Mercator) using a Procrustes rotation. (No coastline: the Natural Earth outlines could not be fetched; a 10° graticule stands in.)"
		f.Status = Redrawn
		f.Why = "Drawn on a 10° graticule instead of the book's m_map coastline: the Natural Earth outlines (datasets.Coastlines) were not available offline."
	}
	for k := 0; k < 5; k++ {
		f.Numbers = append(f.Numbers, Ours("residual, "+res[k].name, res[k].d))
	}
	return f
}

// Fig3_10RoadEigenvalues is book Fig 3.10 (§3.5.1): all eigenvalues of the
// similarity matrix B, in descending order; many are negative, because road
// distances are far from Euclidean.
func Fig3_10RoadEigenvalues() (*Figure, error) {
	r, err := fitRoads()
	if err != nil {
		return nil, err
	}
	vals := make(plotter.Values, len(r.vals))
	for i, v := range r.vals {
		vals[i] = v / 1e7
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(4))
	if err != nil {
		return nil, err
	}
	bars.Color = color.RGBA{R: 40, G: 60, B: 160, A: 255}
	bars.LineStyle.Width = 0
	p := newPlot("", "index", "eigenvalue (×10⁷)")
	p.Add(bars)
	var xt []float64
	for v := 0; v < len(vals); v += 10 {
		xt = append(xt, float64(v))
	}
	p.X.Tick.Marker = constTicks(xt)
	pos, neg, zero := r.mds.EigenvalueSigns(0)
	a1, a2 := r.mds.FitRatios()
	return &Figure{
		ID:      "3.10",
		Caption: "Eigenvalues of the similarity matrix are negative in this case.",
		Data:    "europe_roads",
		Panels:  []*plot.Plot{p}, Width: 14 * vg.Centimeter, Height: 9 * vg.Centimeter,
		Numbers: []Number{
			Ours("λ₁", r.vals[0]),
			Ours("λ₂", r.vals[1]),
			Ours("smallest eigenvalue", r.vals[len(r.vals)-1]),
			Ours("positive eigenvalues", float64(pos)),
			Ours("negative eigenvalues", float64(neg)),
			Ours("zero eigenvalues", float64(zero)),
			Ours("negative mass Σ|λ⁻|/Σ|λ|", r.mds.NegativeMass()),
			Ours("α₁ = Σ_{k≤2} λ_k / Σ|λ_k|", a1),
			Ours("α₂ = Σ_{k≤2} λ_k² / Σ λ_k²", a2),
		},
	}, nil
}

// Fig3_11RoadReconstruction is book Fig 3.11 (§3.5.1): (a) the road
// distances and (b) the distances between the cities' 2-D classical-MDS
// positions (distances, not squared).
func Fig3_11RoadReconstruction() (*Figure, error) {
	r, err := fitRoads()
	if err != nil {
		return nil, err
	}
	n := r.d.D.SymmetricDim()
	Dx := mat.NewSymDense(n, nil)
	linalg.PairwiseSquaredDistances(Dx, r.X)
	mean, mx := 0.0, 0.0
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := math.Sqrt(Dx.At(i, j))
			Dx.SetSym(i, j, v)
			if j > i {
				e := math.Abs(v - r.d.D.At(i, j))
				mean += e
				mx = math.Max(mx, e)
			}
		}
	}
	mean /= float64(n*(n-1)) / 2
	// One grey scale for (a) and (b), so that the two images can be
	// compared; (c) plots every pair's d̂ against d, which shows what the
	// images cannot: 2-D Euclidean distances fall short of road distances.
	lo, hi := 0.0, math.Max(maxEntry(r.d.D), maxEntry(Dx))
	var ds, dh []float64
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ds = append(ds, r.d.D.At(i, j))
			dh = append(dh, Dx.At(i, j))
		}
	}
	sc := newPlot("(c) every pair", "road distance d (km)", "reconstructed d̂ (km)")
	sc.Add(line([]float64{0, hi}, []float64{0, hi}, color.RGBA{R: 150, G: 150, B: 150, A: 255}, 0.8))
	sc.Add(scatter(ds, dh, color.NRGBA{R: 40, G: 60, B: 160, A: 140}, 1.2, nil))
	equalAxes(sc, 0, hi*1.02)
	return &Figure{
		ID:      "3.11",
		Caption: "The original intercity road distances (a) and the distances reconstructed from the 2-D latent configuration (b), on one grey scale; (c) each pair's reconstructed distance against its road distance (grey: d̂ = d).",
		Data:    "europe_roads",
		Panels: []*plot.Plot{
			imagePanelRange("(a) road distances (km)", r.d.D, lo, hi, false, cityTicks(n)),
			imagePanelRange("(b) reconstructed distances (km)", Dx, lo, hi, false, cityTicks(n)),
			sc,
		},
		Width: 27 * vg.Centimeter, Height: 9.5 * vg.Centimeter,
		Numbers: []Number{
			Ours("mean |d̂ − d| (km)", mean),
			Ours("largest |d̂ − d| (km)", mx),
		},
	}, nil
}

func init() {
	Register("3.8", 3, Fig3_8RoadDistances)
	Register("3.9", 3, Fig3_9EuropeMap)
	Register("3.10", 3, Fig3_10RoadEigenvalues)
	Register("3.11", 3, Fig3_11RoadReconstruction)
}

// maxEntry returns the largest entry of m.
func maxEntry(m mat.Matrix) float64 {
	_, hi := matrixRange(m)
	return hi
}

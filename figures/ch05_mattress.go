package figures

// Book Fig 5.1 (§5.7.1, the mattress model): a finite element model of a
// sheet of paper — a grid of points each tied to its 4 lattice neighbours
// by springs — crumpled in three dimensions.

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/dimredbook/book/dimred"
	"github.com/dimredbook/book/dimred/kernel"
	"github.com/dimredbook/book/dimred/linalg"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	Register("5.1", 5, Fig5_1Mattress)
}

// mattressView projects a 3-D point orthographically for a camera at
// azimuth az and elevation el (degrees, MATLAB's view(az, el)); it returns
// the screen coordinates and the depth (larger is nearer the viewer).
func mattressView(x, y, z, az, el float64) (sx, sy, depth float64) {
	a, e := az*math.Pi/180, el*math.Pi/180
	sx = math.Cos(a)*x + math.Sin(a)*y
	sy = -math.Sin(e)*math.Sin(a)*x + math.Sin(e)*math.Cos(a)*y + math.Cos(e)*z
	depth = math.Cos(e)*math.Sin(a)*x - math.Cos(e)*math.Cos(a)*y + math.Sin(e)*z
	return sx, sy, depth
}

// mattressPanel draws the points Y (n×3) and the springs between them as
// a wireframe seen from (az, el): springs far to near, darker when nearer,
// the grid points as dots on top. The panel's ranges are equal so the
// sheet is not distorted.
func mattressPanel(Y *mat.Dense, springs *linalg.CSR, az, el float64, title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.HideAxes()
	n, _ := Y.Dims()
	sx, sy, dep := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		sx[i], sy[i], dep[i] = mattressView(Y.At(i, 0), Y.At(i, 1), Y.At(i, 2), az, el)
	}
	type edge struct {
		i, j int
		d    float64
	}
	var edges []edge
	for i := 0; i < n; i++ {
		cols, _ := springs.Row(i)
		for _, j := range cols {
			if i < j {
				edges = append(edges, edge{i, j, (dep[i] + dep[j]) / 2})
			}
		}
	}
	sort.Slice(edges, func(a, b int) bool { return edges[a].d < edges[b].d })
	dlo, dhi := math.Inf(1), math.Inf(-1)
	for _, d := range dep {
		dlo, dhi = math.Min(dlo, d), math.Max(dhi, d)
	}
	shade := func(d float64) color.Color {
		t := 0.0
		if dhi > dlo {
			t = (d - dlo) / (dhi - dlo)
		}
		// far: light blue-grey; near: dark blue
		return color.RGBA{R: uint8(170 - 150*t), G: uint8(185 - 135*t), B: uint8(215 - 75*t), A: 255}
	}
	for _, e := range edges {
		p.Add(line([]float64{sx[e.i], sx[e.j]}, []float64{sy[e.i], sy[e.j]}, shade(e.d), 1.2))
	}
	ord := make([]int, n)
	for i := range ord {
		ord[i] = i
	}
	sort.Slice(ord, func(a, b int) bool { return dep[ord[a]] < dep[ord[b]] })
	for _, i := range ord {
		s := scatter([]float64{sx[i]}, []float64{sy[i]}, shade(dep[i]), 1.8, draw.CircleGlyph{})
		p.Add(s)
	}
	xlo, xhi := minMax(sx)
	ylo, yhi := minMax(sy)
	half := 0.55 * math.Max(xhi-xlo, yhi-ylo)
	cx, cy := (xlo+xhi)/2, (ylo+yhi)/2
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = cx-half, cx+half, cy-half, cy+half
	return p
}

func minMax(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}

// mattressCrumple returns the 3-D positions of the book's Fig 5.1 sheet:
// three independent Gaussian-process samples over the grid positions X
// (n×2) with the RBF covariance exp(−½‖x − x'‖²) (variance 1, inverse
// width 1, as the book's figure script), drawn with a 1e-8 jitter.
func mattressCrumple(X *mat.Dense, src rand.Source) (*mat.Dense, error) {
	n, _ := X.Dims()
	K := mat.NewSymDense(n, nil)
	kernel.Gram(K, kernel.RBF{LengthScale: 1}, X)
	for i := 0; i < n; i++ {
		K.SetSym(i, i, K.At(i, i)+1e-8)
	}
	var ch mat.Cholesky
	if !ch.Factorize(K) {
		return nil, fmt.Errorf("figures: Fig 5.1 RBF Gram matrix not positive definite")
	}
	var Lo mat.TriDense
	ch.LTo(&Lo)
	rnd := rand.New(src)
	Z := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		for c := 0; c < 3; c++ {
			Z.Set(i, c, rnd.NormFloat64())
		}
	}
	var Y mat.Dense
	Y.Mul(&Lo, Z)
	return &Y, nil
}

// Fig5_1Mattress is book Fig 5.1: a 10×10 grid on [−½, ½]², each point
// tied to its 4 lattice neighbours by springs, (a) crumpled into three
// dimensions by a smooth random map (three samples of a Gaussian process
// with the RBF covariance, as the book's figure script), and (b) the same
// grid in a heat bath (book §5.7.1). The spring energy separates over
// coordinates, E = Σ_c y_:,cᵀ L y_:,c, so with x and y held on the grid the
// heights follow the Gibbs density p(z) ∝ exp(−½ zᵀ(κL + γI)z), a
// Gaussian random field whose precision is the stiffness matrix (κ = 100,
// γ = 0.01; γ only pins the mean height, which is removed). The numbers
// check the spring count, the identity ½ Σ κ_ij ‖y_i − y_j‖² = tr(L Y Yᵀ)
// on both sheets and L 1 = 0, and compare the membrane's spring energy
// with equipartition: E[zᵀκLz] = tr(κL(κL + γI)⁻¹) = Σ_k κλ_k/(κλ_k + γ),
// about one unit (kT) per non-constant mode, n − 1 in all.
func Fig5_1Mattress() (*Figure, error) {
	const rows, cols, kappa, gamma = 10, 10, 100.0, 0.01
	n := rows * cols
	springs := dimred.LatticeSprings(rows, cols, 1)
	L := dimred.Stiffness(springs)
	X := dimred.LatticePositions(rows, cols)
	crumpled, err := mattressCrumple(X, rand.NewPCG(1e7, 51))
	if err != nil {
		return nil, err
	}
	stiff := dimred.Stiffness(dimred.LatticeSprings(rows, cols, kappa))
	z, err := dimred.SampleGRF(stiff, gamma, 1, rand.NewPCG(1e7, 52))
	if err != nil {
		return nil, err
	}
	// The membrane: flat x, y and the centred heights.
	var zmu float64
	for i := 0; i < n; i++ {
		zmu += z.At(i, 0) / float64(n)
	}
	membrane := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		membrane.Set(i, 0, X.At(i, 0))
		membrane.Set(i, 1, X.At(i, 1))
		membrane.Set(i, 2, z.At(i, 0)-zmu)
	}
	// Springs per interior point (book §5.7.1: "its nearest 4 neighbors").
	inner := 0
	for r := 1; r < rows-1; r++ {
		for c := 1; c < cols-1; c++ {
			cs, _ := springs.Row(r*cols + c)
			inner = max(inner, len(cs))
		}
	}
	// tr(L Y Yᵀ) = Σ_c y_:,cᵀ L y_:,c.
	quad := func(L *linalg.CSR, Y *mat.Dense) float64 {
		_, p := Y.Dims()
		var tr float64
		ly := make([]float64, n)
		for c := 0; c < p; c++ {
			y := mat.Col(nil, c, Y)
			L.MulVecTo(ly, y)
			for i := range y {
				tr += y[i] * ly[i]
			}
		}
		return tr
	}
	idErr := 0.0
	for _, Y := range []*mat.Dense{crumpled, membrane} {
		e := dimred.SpringEnergy(springs, Y)
		idErr = math.Max(idErr, math.Abs(e-quad(L, Y))/e)
	}
	one := make([]float64, n)
	for i := range one {
		one[i] = 1
	}
	l1 := make([]float64, n)
	L.MulVecTo(l1, one)
	maxL1 := 0.0
	for _, v := range l1 {
		maxL1 = math.Max(maxL1, math.Abs(v))
	}
	// Equipartition: Σ_k κλ_k/(κλ_k + γ) over the eigenvalues λ_k of L.
	Ld := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			Ld.SetSym(i, j, L.At(i, j))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(Ld, false) {
		return nil, fmt.Errorf("figures: Fig 5.1 stiffness eigenvalues failed")
	}
	var expect float64
	for _, l := range es.Values(nil) {
		expect += kappa * l / (kappa*l + gamma)
	}
	zc := mat.DenseCopyOf(membrane.Slice(0, n, 2, 3))
	return &Figure{
		ID: "5.1",
		Caption: "Finite element model of a piece of paper. The paper is divided into a grid of points. Each point is connected to its neighbors through springs. " +
			"(a) The 10×10 grid crumpled into three dimensions by a smooth random map (three Gaussian-process samples, RBF covariance, as the book's figure script); " +
			"(b) the grid in a heat bath: heights drawn from the Gibbs density p(z) ∝ exp(−½ zᵀ(κL + γI)z) of the springs (κ = 100, γ = 0.01), whose precision is the stiffness matrix L.",
		Data: "synthetic",
		Panels: []*plot.Plot{
			mattressPanel(crumpled, springs, -37.5, 30, "(a) crumpled sheet"),
			mattressPanel(membrane, springs, -37.5, 30, "(b) heat-bath membrane"),
		},
		Width: 20 * vg.Centimeter, Height: 10 * vg.Centimeter,
		Numbers: []Number{
			Num("springs per interior grid point", 4, float64(inner), 0),
			Ours("grid points", float64(n)),
			Ours("springs", float64(springs.NNZ()/2)),
			Ours("max relative |½Σκ_ij‖y_i−y_j‖² − tr(LYYᵀ)| over both sheets", idErr),
			Ours("max |(L1)_i|", maxL1),
			Ours("membrane spring energy zᵀκLz", quad(stiff, zc)),
			Ours("its expectation Σ_k κλ_k/(κλ_k + γ)", expect),
		},
	}, nil
}

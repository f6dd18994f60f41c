package figures

// Chapter 4, §4.1–4.2: basis functions, random functions drawn from them,
// the distance between two points on such a function, and the infinite
// basis (the EQ kernel). Figures 4.1–4.5; all synthetic. The book's
// generating code for these figures does not survive, so the free choices
// (input range, the two marked inputs) are our own choices.

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/kernel"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	Register("4.1", 4, Fig4_1BasisFunctions)
	Register("4.2", 4, Fig4_2BasisFunctionDistance)
	Register("4.3", 4, Fig4_3BasisFunctionsWide)
	Register("4.4", 4, Fig4_4BasisDistanceFar)
	Register("4.5", 4, Fig4_5InfiniteBasisDistance)
}

// ch4Centres are the basis centres −1, 0, 1 of book Figs 4.1–4.4; ℓ = 1.
var ch4Centres = []float64{-1, 0, 1}

const ch4Ell = 1.0

// ch4Basis is the book's basis φ_k(y) = exp(−(y − μ_k)²/ℓ²).
func ch4Basis() kernel.EQBasis {
	return kernel.EQBasis{Centres: mat.NewDense(3, 1, append([]float64(nil), ch4Centres...)), LengthScale: ch4Ell}
}

// ch4Features returns Φ (len(ys)×3) at the inputs ys.
func ch4Features(ys []float64) *mat.Dense {
	var f mat.Dense
	ch4Basis().FeaturesTo(&f, mat.NewDense(len(ys), 1, append([]float64(nil), ys...)))
	return &f
}

var ch4BasisColours = []color.Color{
	color.RGBA{R: 220, G: 30, B: 30, A: 255},
	color.RGBA{R: 20, G: 150, B: 40, A: 255},
	color.RGBA{R: 30, G: 60, B: 220, A: 255},
}

// ch4BasisPlot draws the three basis functions over [lo, hi].
func ch4BasisPlot(lo, hi float64) (*plot.Plot, *mat.Dense, []float64) {
	ys := linspace(lo, hi, 241)
	f := ch4Features(ys)
	p := plot.New()
	for k := range ch4Centres {
		pts := make(plotter.XYs, len(ys))
		for i, y := range ys {
			pts[i] = plotter.XY{X: y, Y: f.At(i, k)}
		}
		l, _ := plotter.NewLine(pts)
		l.Color = ch4BasisColours[k]
		l.Width = vg.Points(2)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("φ%s(y), μ = %g", string(rune('₁'+k)), ch4Centres[k]), l)
	}
	p.X.Label.Text = "y"
	p.Y.Label.Text = "φ(y)"
	p.X.Min, p.X.Max = lo, hi
	// Headroom above the curves and the 1.2 grid line for the legend.
	p.Y.Min, p.Y.Max = 0, 1.55
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p, f, ys
}

// Fig4_1BasisFunctions draws book Figure 4.1: three exponentiated
// quadratic basis functions φ_k(y) = exp(−(y − μ_k)²/ℓ²) with centres
// −1, 0, 1 and ℓ = 1 (the book's form in the opening of Chapter 4, without a factor 2).
func Fig4_1BasisFunctions() (*Figure, error) {
	p, _, _ := ch4BasisPlot(-3, 3)
	at := ch4Features([]float64{0, 1})
	return &Figure{
		ID:      "4.1",
		Caption: "A small set of exponentiated quadratic basis functions with centers at -1, 0, and 1. The lengthscale of the basis functions is given by ℓ = 1.",
		Data:    "synthetic",
		Panels:  []*plot.Plot{p},
		Width:   14 * vg.Centimeter, Height: 9 * vg.Centimeter,
		Numbers: []Number{
			Ref("φ2(μ2)", 1, at.At(0, 1), 1e-12, "closed form: every basis function is 1 at its centre (Box 4.1)"),
			Ref("φ2(μ2 + ℓ) = e⁻¹", 0.3679, at.At(1, 1), 5e-5, "closed form: the basis of Box 4.1 at one lengthscale from its centre"),
		},
	}, nil
}

// ch4RandomFunctionPanel draws f(y) = Σ w_k φ_k(y) (or the GP sample given as
// f on ys) with the basis faintly behind it, marks f at y_i and y_j and draws
// the gap f_j − f_i as a thick vertical segment.
func ch4RandomFunctionPanel(ys, f []float64, basis *mat.Dense, yi, yj, fi, fj float64, title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	if basis != nil {
		_, m := basis.Dims()
		for k := 0; k < m; k++ {
			pts := make(plotter.XYs, len(ys))
			for i, y := range ys {
				pts[i] = plotter.XY{X: y, Y: basis.At(i, k)}
			}
			l, _ := plotter.NewLine(pts)
			c := ch4BasisColours[k%3].(color.RGBA)
			l.Color = color.NRGBA{R: c.R, G: c.G, B: c.B, A: 110}
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
			p.Add(l)
		}
	}
	pts := make(plotter.XYs, len(ys))
	for i, y := range ys {
		pts[i] = plotter.XY{X: y, Y: f[i]}
	}
	l, _ := plotter.NewLine(pts)
	l.Width = vg.Points(2)
	p.Add(l)
	// The horizontal guide at f_i and the vertical gap at y_j.
	guide, _ := plotter.NewLine(plotter.XYs{{X: yi, Y: fi}, {X: yj, Y: fi}})
	guide.Color = color.Gray{Y: 120}
	guide.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	gap, _ := plotter.NewLine(plotter.XYs{{X: yj, Y: fi}, {X: yj, Y: fj}})
	gap.Color = color.RGBA{R: 200, A: 255}
	gap.Width = vg.Points(3)
	p.Add(guide, gap)
	sc, _ := plotter.NewScatter(plotter.XYs{{X: yi, Y: fi}, {X: yj, Y: fj}})
	sc.GlyphStyle = draw.GlyphStyle{Color: color.RGBA{R: 200, A: 255}, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	p.Add(sc)
	p.X.Label.Text = "y"
	p.Y.Label.Text = "f(y)"
	p.X.Min, p.X.Max = ys[0], ys[len(ys)-1]
	return p
}

// ch4BasisDistanceFigure draws four random functions from the three-function
// basis with w ~ N(0, I₃) and the gap between f(y_i) and f(y_j). It returns
// the panels, the expected squared gap ‖φ_i − φ_j‖² and a Monte Carlo
// estimate of it from draws samples.
func ch4BasisDistanceFigure(lo, hi, yi, yj float64, seed uint64) ([]*plot.Plot, float64, float64) {
	ys := linspace(lo, hi, 241)
	phi := ch4Features(ys)
	pij := ch4Features([]float64{yi, yj})
	expected := 0.0
	for k := 0; k < 3; k++ {
		d := pij.At(0, k) - pij.At(1, k)
		expected += d * d
	}
	rng := rand.New(rand.NewPCG(seed, 4))
	var panels []*plot.Plot
	w := mat.NewVecDense(3, nil)
	var f mat.VecDense
	for s := 0; s < 4; s++ {
		for k := 0; k < 3; k++ {
			w.SetVec(k, rng.NormFloat64())
		}
		f.MulVec(phi, w)
		fi := mat.Dot(pij.RowView(0), w)
		fj := mat.Dot(pij.RowView(1), w)
		title := fmt.Sprintf("(f_i − f_j)² = %.3g", (fi-fj)*(fi-fj))
		panels = append(panels, ch4RandomFunctionPanel(ys, f.RawVector().Data, phi, yi, yj, fi, fj, title))
	}
	// Monte Carlo ⟨(f_i − f_j)²⟩.
	const draws = 100000
	mc := 0.0
	for r := 0; r < draws; r++ {
		d := 0.0
		for k := 0; k < 3; k++ {
			d += rng.NormFloat64() * (pij.At(0, k) - pij.At(1, k))
		}
		mc += d * d
	}
	return panels, expected, mc / draws
}

// Fig4_2BasisFunctionDistance draws book Figure 4.2: four random functions
// f(y) = wᵀφ(y), w ~ N(0, I₃), from the basis of Fig 4.1, and the distance
// between f at y_i = −0.5 and y_j = 0.5 (the inputs are our choice). The
// expected squared distance is the feature-space one, ‖φ_i − φ_j‖² (book §4.1).
func Fig4_2BasisFunctionDistance() (*Figure, error) {
	panels, expected, mc := ch4BasisDistanceFigure(-3, 3, -0.5, 0.5, 42)
	return &Figure{
		ID:      "4.2",
		Caption: "Distance between two points in the function f(y). The mapping function is constructed from three exponentiated quadratic basis functions located at -1, 0, and 1. The width of the basis functions is given by ℓ=1. A 3 dimensional vector, w, is sampled from a Gaussian with zero mean and unit covariance. This vector is used to weight the different basis functions producing the random function shown. Random functions and associated distances are shown for four different samples of w.",
		Data:    "synthetic",
		Panels:  panels, Cols: 2,
		Width: 20 * vg.Centimeter, Height: 15 * vg.Centimeter,
		Numbers: []Number{
			Ref("⟨(f_i − f_j)²⟩ = ‖φ(−0.5) − φ(0.5)‖²", 0.9069, expected, 5e-5, "closed form, evaluated by hand from the three basis functions; the Monte Carlo estimate below checks it too"),
			Ours("Monte Carlo ⟨(f_i − f_j)²⟩, 1e5 draws", mc),
		},
		Why: "The book does not say where y_i and y_j are; we use −0.5 and 0.5 (our choice).",
	}, nil
}

// Fig4_3BasisFunctionsWide draws book Figure 4.3: the basis of Fig 4.1 over
// a wider range, decaying to zero away from the centres.
func Fig4_3BasisFunctionsWide() (*Figure, error) {
	p, f, ys := ch4BasisPlot(-8, 8)
	far := 0.0
	for i, y := range ys {
		if math.Abs(y) >= 4 {
			for k := 0; k < 3; k++ {
				far = math.Max(far, f.At(i, k))
			}
		}
	}
	return &Figure{
		ID:      "4.3",
		Caption: "The exponentiated quadratic basis functions with centers at -1, 0, and 1. As we move away from the centers of the basis functions they decay towards zero.",
		Data:    "synthetic",
		Panels:  []*plot.Plot{p},
		Width:   14 * vg.Centimeter, Height: 9 * vg.Centimeter,
		Numbers: []Number{Ours("max φ_k(y) for |y| ≥ 4", far)},
	}, nil
}

// Fig4_4BasisDistanceFar draws book Figure 4.4: as Fig 4.2 but with the two
// inputs far apart, at y_i = −4 and y_j = 4, where the basis is nearly zero:
// the feature-space distance, and so the gap on every random function, is
// tiny although the inputs are 8 apart (book §4.1.1).
func Fig4_4BasisDistanceFar() (*Figure, error) {
	panels, expected, mc := ch4BasisDistanceFigure(-6, 6, -4, 4, 44)
	return &Figure{
		ID:      "4.4",
		Caption: "Distance between two points in the function f(y). Now the locations are far apart in y. However, since they are both in regions where the response from the basis set is small, the distance between the points after mapping through the function, f(y), is small.",
		Data:    "synthetic",
		Panels:  panels, Cols: 2,
		Width: 20 * vg.Centimeter, Height: 15 * vg.Centimeter,
		Numbers: []Number{
			Ref("⟨(f_i − f_j)²⟩ = ‖φ(−4) − φ(4)‖²", 3.05e-8, expected, 0.005e-8, "closed form, evaluated by hand from the three basis functions"),
			Ours("Monte Carlo ⟨(f_i − f_j)²⟩, 1e5 draws", mc),
		},
		Why: "The book does not say where y_i and y_j are; we use −4 and 4 (our choice).",
	}, nil
}

// Fig4_5InfiniteBasisDistance draws book Figure 4.5: random functions from
// the infinite basis, i.e. samples of a Gaussian process with the EQ
// covariance k(y, y') = exp(−(y − y')²/(2ℓ²)), ℓ = 1 (book §4.2.1), drawn as
// f = L z with L the Cholesky factor of K + 10⁻⁸ I on a grid. With basis
// functions everywhere, far-apart inputs are far apart in feature space:
// ⟨(f_i − f_j)²⟩ = k_ii + k_jj − 2k_ij = 2 − 2k(−4, 4) ≈ 2.
func Fig4_5InfiniteBasisDistance() (*Figure, error) {
	const yi, yj = -4.0, 4.0
	ys := linspace(-6, 6, 241)
	k := kernel.RBF{LengthScale: ch4Ell}
	grid := mat.NewDense(len(ys), 1, append([]float64(nil), ys...))
	K := mat.NewSymDense(len(ys), nil)
	kernel.Gram(K, k, grid)
	for i := range ys {
		K.SetSym(i, i, K.At(i, i)+1e-8)
	}
	var ch mat.Cholesky
	if !ch.Factorize(K) {
		return nil, fmt.Errorf("figures: Fig 4.5: Cholesky of the EQ covariance failed")
	}
	var L mat.TriDense
	ch.LTo(&L)
	ii, jj := 40, 200 // ys[40] = −4, ys[200] = 4
	if ys[ii] != yi || ys[jj] != yj {
		return nil, fmt.Errorf("figures: Fig 4.5: grid does not hit ±4")
	}
	rng := rand.New(rand.NewPCG(45, 4))
	var panels []*plot.Plot
	z := mat.NewVecDense(len(ys), nil)
	var f mat.VecDense
	for s := 0; s < 4; s++ {
		for i := range ys {
			z.SetVec(i, rng.NormFloat64())
		}
		f.MulVec(&L, z)
		fi, fj := f.AtVec(ii), f.AtVec(jj)
		title := fmt.Sprintf("(f_i − f_j)² = %.3g", (fi-fj)*(fi-fj))
		panels = append(panels, ch4RandomFunctionPanel(ys, f.RawVector().Data, nil, yi, yj, fi, fj, title))
	}
	kij := k.Eval([]float64{yi}, []float64{yj})
	expected := 2 - 2*kij
	// Monte Carlo over the bivariate marginal of (f_i, f_j).
	const draws = 100000
	mc := 0.0
	s := math.Sqrt(1 - kij*kij)
	for r := 0; r < draws; r++ {
		a := rng.NormFloat64()
		b := kij*a + s*rng.NormFloat64()
		mc += (a - b) * (a - b)
	}
	mc /= draws
	return &Figure{
		ID:      "4.5",
		Caption: "Distance between two points in the function f(y). The locations are again far apart in y but now we are using an infinite basis set so the distance between the two points in feature space is large.",
		Data:    "synthetic",
		Panels:  panels, Cols: 2,
		Width: 20 * vg.Centimeter, Height: 15 * vg.Centimeter,
		Numbers: []Number{
			Ref("⟨(f_i − f_j)²⟩ = 2 − 2k(−4, 4)", 2.0000, expected, 5e-5, "closed form 2 − 2 exp(−32)"),
			Ours("k(−4, 4) = exp(−32)", kij),
			Ours("Monte Carlo ⟨(f_i − f_j)²⟩, 1e5 draws", mc),
		},
		Why: "Random functions are Gaussian-process samples with the EQ covariance of book §4.2.1 (unit variance, ℓ = 1); inputs ±4 as in Fig 4.4.",
	}, nil
}

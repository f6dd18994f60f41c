package figures

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dimredbook/book/dimred/highdim"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Chapter 1's interpoint squared-distance histograms (Figs 1.8, 1.10, 1.12,
// 1.14–1.16) share one convention, the author's
// dimredPlotSquaredDistances.m (reference computation): standardise
// each column (normaliser n−1), take v_ij = ‖z_i − z_j‖²/p over i < j, plot
// the density histogram on [0, 6] and overlay the gamma density
// G(p/2, p/4) that independent Gaussian features would give. The caption
// compares the sample variance of v_ij with the predicted 8/p.

// histBins is the number of equal-width bins between the smallest and
// largest v_ij (bookFigures.m used 50; the helper 20).
const histBins = 50

// distanceHistogram holds the statistics a histogram figure reports.
type distanceHistogram struct {
	v        []float64 // normalised interpoint squared distances
	variance float64   // unbiased sample variance of v
	centres  []float64 // bin centres
	density  []float64 // counts / (total · bin width)
	width    float64   // bin width
}

func newDistanceHistogram(Y mat.Matrix) (*distanceHistogram, error) {
	v, err := highdim.NormalisedInterpointDistances(Y)
	if err != nil {
		return nil, err
	}
	h := &distanceHistogram{v: v, variance: stat.Variance(v, nil)}
	lo, hi := floats.Min(v), floats.Max(v)
	if hi == lo {
		hi = lo + 1
	}
	h.width = (hi - lo) / histBins
	counts := make([]float64, histBins)
	for _, x := range v {
		k := int((x - lo) / h.width)
		if k >= histBins {
			k = histBins - 1
		}
		counts[k]++
	}
	for k := range counts {
		h.centres = append(h.centres, lo+(float64(k)+0.5)*h.width)
		h.density = append(h.density, counts[k]/(float64(len(v))*h.width))
	}
	return h, nil
}

// misfit returns ∫|ĥ(x) − G(x | a, b)| dx over the histogram's support, the
// L1 distance between the histogram density ĥ and a theory curve: 0 for a
// perfect fit, at most 2. Each bin's theory mass is the exact gamma mass.
func (h *distanceHistogram) misfit(a, b float64) float64 {
	total := 0.0
	for k, c := range h.centres {
		lo, hi := c-h.width/2, c+h.width/2
		theory := highdim.GammaCDF(hi, a, b) - highdim.GammaCDF(lo, a, b)
		total += math.Abs(h.density[k]*h.width - theory)
	}
	// theory mass outside the histogram's range counts as misfit too
	lo := h.centres[0] - h.width/2
	hi := h.centres[len(h.centres)-1] + h.width/2
	a0, b0 := a, b
	total += highdim.GammaCDF(lo, a0, b0) + 1 - highdim.GammaCDF(hi, a0, b0)
	return total
}

// panel draws the histogram bars on [0, 6] with the gamma curves G(aₖ, bₖ).
func (h *distanceHistogram) panel(title string, curves ...[2]float64) *plot.Plot {
	p := newPlot(title, "squared distance", "density")
	bins := make([]plotter.HistogramBin, len(h.centres))
	for k, c := range h.centres {
		bins[k] = plotter.HistogramBin{Min: c - h.width/2, Max: c + h.width/2, Weight: h.density[k]}
	}
	hist := &plotter.Histogram{Bins: bins, Width: h.width, FillColor: histColour}
	hist.LineStyle.Width = 0
	p.Add(hist)
	ymax := floats.Max(h.density)
	for _, ab := range curves {
		xs := linspace(0, 6, 1201)
		ys := make([]float64, len(xs))
		for i, x := range xs {
			ys[i] = highdim.GammaPDF(x, ab[0], ab[1])
		}
		ymax = math.Max(ymax, floats.Max(ys))
		p.Add(line(xs, ys, theoryRed, 2))
	}
	p.X.Min, p.X.Max = 0, 6
	p.Y.Min, p.Y.Max = 0, 1.05*ymax
	return p
}

// printedTol returns half a unit in the third significant digit of v, the
// tolerance implied by a number printed to three significant figures.
func printedTol(v float64) float64 {
	if v == 0 || math.IsNaN(v) {
		return math.NaN()
	}
	return 0.5 * math.Pow(10, math.Floor(math.Log10(math.Abs(v)))-2)
}

// interpointNumber is a number the caption of book Fig id prints (book
// NaN: none), to three significant figures.
func interpointNumber(name string, book, ours float64, id string) Number {
	if math.IsNaN(book) {
		return Ours(name, ours)
	}
	return Book(name, book, ours, printedTol(book), "Fig "+id+" caption")
}

// interpointFigure draws the standard interpoint squared-distance histogram
// of Y with the independent-features theory curve G(p/2, p/4), and states
// the sample variance of the normalised squared distances and the
// predicted 8/p beside the book's values (NaN where the book prints none),
// each to the book's three significant figures.
func interpointFigure(id, caption, data string, Y mat.Matrix, bookVariance, bookPredicted float64) (*Figure, error) {
	h, err := newDistanceHistogram(Y)
	if err != nil {
		return nil, fmt.Errorf("figure %s: %w", id, err)
	}
	_, p := Y.Dims()
	a, b := highdim.InterpointSquaredDistance(p, 1)
	pred := highdim.InterpointVariance(p, 1)
	return &Figure{
		ID: id, Caption: caption, Data: data,
		Panels: []*plot.Plot{h.panel(fmt.Sprintf("p = %d", p), [2]float64{a, b})},
		Numbers: []Number{
			interpointNumber("variance of squared distances", bookVariance, h.variance, id),
			interpointNumber("predicted variance 8/p", bookPredicted, pred, id),
		},
	}, nil
}

// Fig1_8GaussianDistances is book Fig 1.8 (§1.4): the interpoint squared
// distances of n = 1000 points from a p = 1000 dimensional standard
// Gaussian, with G(500, 250). The book gives no number ("a good match");
// the sample variance is close to the predicted 8/p = 0.008.
func Fig1_8GaussianDistances() (*Figure, error) {
	var Y mat.Dense
	highdim.SampleIsotropic(&Y, 1000, 1000, 1, rand.NewPCG(1, 8))
	f, err := interpointFigure("1.8",
		"Interpoint squared distances for 1000 points sampled from a 1000-dimensional Gaussian, with the gamma density G(500, 250) predicted for independent features.",
		"synthetic", &Y, math.NaN(), math.NaN())
	if err != nil {
		return nil, err
	}
	return f, nil
}

// Fig1_16StructuredGaussian is book Fig 1.16 (§1.11): n = 1000 samples from
// N(0, W Wᵀ + 10⁻² I) with W 1000×2 standard normal. (a) overlays the
// curve for 1000 independent features, G(500, 250); (b) the curve for two,
// G(1, 0.5), which fits "much better". The figure states the L1 distance
// between the histogram and each curve; the reference computation reports a sample
// variance of about 3.8 (three seeds) against 0.008 predicted.
func Fig1_16StructuredGaussian() (*Figure, error) {
	const n, p, q = 1000, 1000, 2
	rng := rand.New(rand.NewPCG(1, 16))
	W := mat.NewDense(p, q, nil)
	for i := 0; i < p; i++ {
		for j := 0; j < q; j++ {
			W.Set(i, j, rng.NormFloat64())
		}
	}
	var Y mat.Dense
	highdim.SampleLinearGaussian(&Y, n, W, 1e-2, rand.NewPCG(2, 16))
	h, err := newDistanceHistogram(&Y)
	if err != nil {
		return nil, err
	}
	a1, b1 := highdim.InterpointSquaredDistance(p, 1)
	a2, b2 := highdim.InterpointSquaredDistance(q, 1)
	return &Figure{
		ID:      "1.16",
		Caption: "Interpoint squared distances for 1000 points from a 1000-dimensional Gaussian with covariance W Wᵀ + 0.01 I, W 1000×2: (a) with the theory curve for 1000 independent dimensions, G(500, 250); (b) with the curve for 2 dimensions, G(1, 0.5).",
		Data:    "synthetic",
		Panels: []*plot.Plot{
			h.panel("(a) p = 1000 theory", [2]float64{a1, b1}),
			h.panel("(b) q = 2 theory", [2]float64{a2, b2}),
		},
		Numbers: []Number{
			Ours("variance of squared distances", h.variance),
			Ours("predicted variance, p = 1000 independent", highdim.InterpointVariance(p, 1)),
			Ours("predicted variance, q = 2 independent", highdim.InterpointVariance(q, 1)),
			Ours("L1 misfit to G(500, 250)", h.misfit(a1, b1)),
			Ours("L1 misfit to G(1, 0.5)", h.misfit(a2, b2)),
		},
	}, nil
}

func init() {
	Register("1.8", 1, Fig1_8GaussianDistances)
	Register("1.16", 1, Fig1_16StructuredGaussian)
}

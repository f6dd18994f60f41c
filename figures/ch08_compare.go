package figures

// Beyond the book: every method of the book and t-SNE and UMAP on the
// book's data sets and a swiss roll, scored by the shared neighbourhood
// metrics (figure X8.3, notebook 08). The methods are X7.1's table
// (CompareMethods) plus two rows; the data are X7.1's, subsampled so that
// the whole comparison fits a notebook's time budget, plus a swiss roll.

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dimredbook/book/datasets"
	"github.com/dimredbook/book/dimred"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

func init() {
	Register("X8.3", 8, FigX8_3NeighbourComparison)
}

// NeighbourCompareN is the largest number of points of a data set in the
// X8.3 comparison: oil (1000 points) and the rotated sixes (360) are
// robot WiFi (215) are thinned to every ⌈n/NeighbourCompareN⌉-th point
// and the swiss roll is drawn at this size, so that the exact GP-LVM
// (O(n³) per iteration), MVU's semidefinite programme and the density
// network run on every data set within the notebook's budget (at about 220
// points the whole comparison took 57 s of CPU). The stick man (55) is
// used whole.
const NeighbourCompareN = 120

// NeighbourCompareMethods are the methods of X8.3: X7.1's table
// (CompareMethods) followed by t-SNE and UMAP with their defaults
// (perplexity 30, at most (n − 1)/3 on small sets; 15 neighbours).
var NeighbourCompareMethods = append(append([]CompareMethod(nil), CompareMethods...),
	CompareMethod{"t-SNE", func(d *CompareData) dimred.Embedder {
		n, _ := d.Y.Dims()
		return &dimred.TSNE{Perplexity: math.Min(30, float64(n-1)/3)}
	}},
	CompareMethod{"UMAP", func(d *CompareData) dimred.Embedder { return &dimred.UMAP{} }},
)

// NeighbourCompareDatasets returns the data of X8.3: X7.1's data sets
// (CompareDatasets) thinned to at most about NeighbourCompareN points, and
// a swiss roll of NeighbourCompareN points (fixed seed; K = 10).
func NeighbourCompareDatasets() ([]*CompareData, error) {
	data, err := CompareDatasets()
	if err != nil {
		return nil, err
	}
	for _, d := range data {
		n, _ := d.Y.Dims()
		step := (n + NeighbourCompareN - 1) / NeighbourCompareN
		if step <= 1 {
			continue
		}
		rows := make([]int, 0, n/step+1)
		for i := 0; i < n; i += step {
			rows = append(rows, i)
		}
		d.Y = selectRows(d.Y, rows)
		if d.Labels != nil {
			l := make([]int, len(rows))
			for t, i := range rows {
				l[t] = d.Labels[i]
			}
			d.Labels = l
		}
		if d.Truth != nil {
			d.Truth = selectRows(d.Truth, rows)
		}
		d.Name = fmt.Sprintf("%s (every %s point)", d.Name, ordinal(step))
		d.Scale = neighbourScale(d.Y, 5)
	}
	sr := datasets.SwissRoll(NeighbourCompareN, rand.NewPCG(8, 3))
	roll := &CompareData{Name: "swiss roll", Y: sr.Y, Truth: sr.T, K: 10}
	roll.Scale = neighbourScale(roll.Y, 5)
	return append(data, roll), nil
}

func ordinal(k int) string {
	switch k {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", k)
}

func selectRows(Y *mat.Dense, rows []int) *mat.Dense {
	_, p := Y.Dims()
	out := mat.NewDense(len(rows), p, nil)
	for t, i := range rows {
		out.SetRow(t, Y.RawRowView(i))
	}
	return out
}

// NeighbourScore is one method on one data set of X8.3: trustworthiness
// and continuity T(10), C(10), the mean relative rank errors (MRRE, Lee &
// Verleysen 2009) of intrusions and extrusions at k = 10, leave-one-out
// 1-NN errors (oil; −1 elsewhere) and the fit time. Scores are NaN and Err
// set when the method was not run or failed.
type NeighbourScore struct {
	Data, Method           string
	T, C                   float64
	Intrusions, Extrusions float64
	NNErrors               int
	Err                    string
	Time                   time.Duration
}

func neighbourScoreOne(me CompareMethod, d *CompareData) NeighbourScore {
	s := NeighbourScore{Data: d.Name, Method: me.Name, NNErrors: -1,
		T: math.NaN(), C: math.NaN(), Intrusions: math.NaN(), Extrusions: math.NaN()}
	m := me.New(d)
	if m == nil {
		s.Err = errNotRun.Error()
		return s
	}
	start := time.Now()
	err := m.Fit(d.Y)
	s.Time = time.Since(start)
	if err != nil && !isNotConverged(err) {
		s.Err = err.Error()
		return s
	}
	var X mat.Dense
	m.LatentTo(&X)
	if d.Labels != nil {
		s.NNErrors = dimred.NearestNeighbourErrors(&X, d.Labels)
	}
	if s.T, err = dimred.Trustworthiness(d.Y, &X, 10); err != nil {
		s.Err = err.Error()
		return s
	}
	if s.C, err = dimred.Continuity(d.Y, &X, 10); err != nil {
		s.Err = err.Error()
		return s
	}
	if s.Intrusions, s.Extrusions, err = dimred.MRRE(d.Y, &X, 10); err != nil {
		s.Err = err.Error()
	}
	return s
}

// NeighbourComparison fits every method of NeighbourCompareMethods to every
// data set of NeighbourCompareDatasets and scores it, once per process and
// once across processes through the on-disk cache (Cached), with a
// progress line counting the fits while they run.
var NeighbourComparison = sync.OnceValues(func() ([]NeighbourScore, error) {
	data, err := NeighbourCompareDatasets()
	if err != nil {
		return nil, err
	}
	key := NewCacheKey("compare8")
	for _, m := range NeighbourCompareMethods {
		key.String(m.Name)
	}
	for _, d := range data {
		key.String(d.Name).Matrix(d.Y).Ints(d.Labels).Ints([]int{d.K})
	}
	pr := NewProgress("X8.3 comparison (computed once, then cached)")
	scores, _, err := Cached(key, func() ([]NeighbourScore, error) {
		var out []NeighbourScore
		total := len(data) * len(NeighbourCompareMethods)
		for _, d := range data {
			for _, me := range NeighbourCompareMethods {
				pr.Step(me.Name+" on "+d.Name, len(out), total)
				out = append(out, neighbourScoreOne(me, d))
			}
		}
		return out, nil
	})
	names := make([]string, len(data))
	for i, d := range data {
		names[i] = d.Name
	}
	endCachedLine(pr, err, len(NeighbourCompareMethods), names)
	return scores, err
})

// FigX8_3NeighbourComparison is figure X8.3: per data set, every method's
// trustworthiness T(10) (filled) and continuity C(10) (open), methods down
// the side, t-SNE and UMAP last.
func FigX8_3NeighbourComparison() (*Figure, error) {
	scores, err := NeighbourComparison()
	if err != nil {
		return nil, err
	}
	fig := &Figure{
		ID: "X8.3",
		Caption: "Every method of the book, t-SNE and UMAP on the book's data and a swiss roll (beyond the book): trustworthiness T(10) " +
			"(filled) and continuity C(10) (open) per method. " +
			fmt.Sprintf("To fit the notebook's time budget the data are thinned to at most %d points: oil's 1000 training points to every 9th (112), ", NeighbourCompareN) +
			"the 360 rotated sixes to every 3rd (120), robot WiFi's 215 to every 2nd (108); the stick man (55) is whole; the swiss roll has " +
			fmt.Sprintf("%d points (t ~ U(1.5π, 4.5π), h ~ U(0, 21), fixed seed). ", NeighbourCompareN) +
			"Methods and settings are X7.1's (graph methods k = 10 oil and swiss roll, 6 stick man and sixes, 7 robot WiFi; " +
			"GP-LVM exact, 300 iterations; GTM and the density network not run on the 4096-pixel sixes); " +
			"DRILL fails on oil and the swiss roll (k = 10 with 12 and 3 features: its graphical lasso finds no positive definite solution; the table prints the error). " +
			"t-SNE with perplexity 30 (18 on the stick man), UMAP with 15 neighbours. The table in notebook 08 adds MRRE and oil's 1-NN errors.",
		Data: "oil, stick, robot_wireless, sixes, swiss roll (generated)",
		Cols: 5,
	}
	var order []string
	seen := map[string]bool{}
	for _, s := range scores {
		if !seen[s.Data] {
			seen[s.Data] = true
			order = append(order, s.Data)
		}
	}
	names := make([]string, len(NeighbourCompareMethods))
	for i, m := range NeighbourCompareMethods {
		names[len(names)-1-i] = m.Name
	}
	for _, data := range order {
		p := newPlot(data, "T(10), C(10)", "")
		var tp, cp plotter.XYs
		row := 0
		for _, s := range scores {
			if s.Data != data {
				continue
			}
			y := float64(len(NeighbourCompareMethods) - 1 - row)
			row++
			if !math.IsNaN(s.T) {
				tp = append(tp, plotter.XY{X: s.T, Y: y})
				cp = append(cp, plotter.XY{X: s.C, Y: y})
			}
			fig.Numbers = append(fig.Numbers, neighbourNumbers(s)...)
		}
		ts, err := plotter.NewScatter(tp)
		if err != nil {
			return nil, err
		}
		ts.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(3), Color: color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 255}}
		cs, err := plotter.NewScatter(cp)
		if err != nil {
			return nil, err
		}
		cs.GlyphStyle = draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(3.5), Color: color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 255}}
		p.Add(plotter.NewGrid(), ts, cs)
		p.NominalY(names...)
		p.Y.Label.Text = ""
		fig.Panels = append(fig.Panels, p)
	}
	fig.Width = vg.Length(fig.Cols) * 7 * vg.Centimeter
	fig.Height = 11 * vg.Centimeter
	return fig, nil
}

func neighbourNumbers(s NeighbourScore) []Number {
	if math.IsNaN(s.T) {
		return nil
	}
	key := s.Data + "/" + s.Method + "/"
	out := []Number{Ours(key+"T(10)", s.T), Ours(key+"C(10)", s.C),
		Ours(key+"MRRE intrusions(10)", s.Intrusions), Ours(key+"MRRE extrusions(10)", s.Extrusions)}
	if s.NNErrors >= 0 {
		out = append(out, Ours(key+"1-NN errors", float64(s.NNErrors)))
	}
	return out
}

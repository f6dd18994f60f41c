package figures

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"html"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/gonum/mat"
)

// InteractiveScatter returns a self-contained HTML page with a zoomable
// go-echarts scatter plot of the first two columns of X (an n×q latent
// space), one series per class label (labels may be nil) and a tooltip
// naming each point (names may be nil). It is an optional extra for
// notebooks: the static figures remain the reference. The page loads the
// ECharts script from go-echarts' asset host, so it needs a network
// connection when viewed.
func InteractiveScatter(title string, X mat.Matrix, labels []int, labelNames, names []string) ([]byte, error) {
	n, q := X.Dims()
	if q < 2 {
		return nil, fmt.Errorf("figures: InteractiveScatter needs 2 columns, got %d", q)
	}
	if labels != nil && len(labels) != n || names != nil && len(names) != n {
		return nil, fmt.Errorf("figures: InteractiveScatter: %d points but %d labels, %d names", n, len(labels), len(names))
	}
	sc := charts.NewScatter()
	sc.SetGlobalOptions(
		// A fixed element id (go-echarts draws a random one) keeps the page,
		// and so the committed notebook, identical run to run.
		charts.WithInitializationOpts(opts.Initialization{ChartID: chartID(title), PageTitle: title}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		// Below the plot: at the top, go-echarts' default, the legend overlaps the title.
		charts.WithLegendOpts(opts.Legend{Top: "bottom"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true)}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside", XAxisIndex: []int{0}, YAxisIndex: []int{0}}),
		charts.WithXAxisOpts(opts.XAxis{Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Scale: opts.Bool(true)}),
	)
	series := map[int][]opts.ScatterData{}
	var order []int
	for i := 0; i < n; i++ {
		l := 0
		if labels != nil {
			l = labels[i]
		}
		if _, ok := series[l]; !ok {
			order = append(order, l)
		}
		d := opts.ScatterData{Value: []float64{X.At(i, 0), X.At(i, 1)}, SymbolSize: 6}
		if names != nil {
			d.Name = names[i]
		}
		series[l] = append(series[l], d)
	}
	for _, l := range order {
		name := fmt.Sprintf("class %d", l)
		if l >= 0 && l < len(labelNames) {
			name = labelNames[l]
		}
		sc.AddSeries(name, series[l])
	}
	var buf bytes.Buffer
	if err := sc.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ShowInteractive displays an InteractiveScatter page in a GoNB notebook,
// inside an iframe so its script runs in isolation.
func ShowInteractive(page []byte, err error) error {
	if err != nil {
		return err
	}
	if gonbui.IsNotebook {
		gonbui.DisplayHtml(fmt.Sprintf(`<iframe srcdoc="%s" width="920" height="520" style="border:none"></iframe>`,
			html.EscapeString(string(page))))
		gonbui.Sync() // GoNB drops display data still pending when the cell's program exits
	}
	return nil
}

// chartID derives a stable HTML element id from the chart's title; go-echarts
// also uses it in JavaScript variable names, so it has no hyphens.
func chartID(title string) string {
	h := fnv.New32a()
	h.Write([]byte(title))
	return fmt.Sprintf("dimred_chart_%08x", h.Sum32())
}

package figures

import (
	"bytes"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestInteractiveScatter(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	page, err := InteractiveScatter("t", X, []int{0, 1, 0}, []string{"alpha", "beta"}, []string{"a", "b", "c"})
	if err != nil {
		t.Fatal(err)
	}
	// The page's title is the chart's (not go-echarts' "Awesome go-echarts"),
	// and the legend sits below the plot, clear of the chart's title.
	for _, want := range []string{"alpha", "beta", "echarts", "<title>t</title>", `"legend":{"top":"bottom"}`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	if _, err := InteractiveScatter("t", mat.NewDense(3, 1, nil), nil, nil, nil); err == nil {
		t.Error("one column: no error")
	}
	if _, err := InteractiveScatter("t", X, []int{0}, nil, nil); err == nil {
		t.Error("label count mismatch: no error")
	}
}

// The page must be byte-identical run to run, or every reproduce run
// changes the committed notebook (go-echarts draws random element ids).
func TestInteractiveScatterDeterministic(t *testing.T) {
	X := mat.NewDense(3, 2, []float64{0, 1, 2, 3, 4, 5})
	a, err := InteractiveScatter("t", X, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := InteractiveScatter("t", X, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two renderings of the same chart differ")
	}
}

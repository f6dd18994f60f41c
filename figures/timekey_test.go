package figures

import (
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// checkTimeKey fails unless one of the figure's panels carries the time
// colour key of addTimeKey (its x axis is clipped to the data, the mark the
// key leaves).
func checkTimeKey(t *testing.T, f *Figure) {
	t.Helper()
	for _, p := range f.Panels {
		if _, ok := p.X.Tick.Marker.(clipTicks); ok {
			return
		}
	}
	t.Errorf("figure %s colours points by frame but has no colour key", f.ID)
}

// checkTitleNumbers fails unless each panel titled after one of names shows
// that method's number, formatted by format, from the figure's numbers.
func checkTitleNumbers(t *testing.T, f *Figure, prefix, format string, names []string) {
	t.Helper()
	for _, name := range names {
		var v float64
		found := false
		for _, n := range f.Numbers {
			if strings.HasPrefix(n.Name, prefix) && strings.HasSuffix(n.Name, "("+name+")") {
				v, found = n.Ours, true
			}
		}
		if !found {
			t.Errorf("%s: no number %q for %s", f.ID, prefix, name)
			continue
		}
		want := fmt.Sprintf(format, v)
		ok := false
		for _, p := range f.Panels {
			if strings.Contains(p.Title.Text, " "+name+" ") && strings.Contains(p.Title.Text, want) {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: the %s panel's title does not show %q", f.ID, name, want)
		}
	}
}

func TestAddTimeKey(t *testing.T) {
	p := newPlot("", "", "")
	p.Add(line([]float64{0, 10}, []float64{0, 5}, timeColour(0), 1))
	addTimeKey(p, 1, 55, "frame")
	if p.X.Max <= 10 {
		t.Errorf("x range not widened for the key: max %v", p.X.Max)
	}
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Value > 10 {
			t.Errorf("tick %v beyond the data under the key", tk.Value)
		}
	}
	if _, ok := p.X.Tick.Marker.(clipTicks); !ok {
		t.Errorf("marker %T, want clipTicks", p.X.Tick.Marker)
	}
	var _ plot.Ticker = clipTicks{}
}

func TestSubSegments(t *testing.T) {
	got := subSegments("Q_{NX}(K) and R_{NX}")
	want := []textSeg{{s: "Q"}, {s: "NX", sub: true}, {s: "(K) and R"}, {s: "NX", sub: true}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("segments %v, want %v", got, want)
	}
	// Plain text is measured exactly as plot's plain handler measures it.
	f := plot.DefaultFont
	f.Size = 12
	w1, h1, d1 := subTextHandler.Box("Q(K)", f)
	w2, h2, d2 := subTextHandler.Plain.Box("Q(K)", f)
	if w1 != w2 || h1 != h2 || d1 != d2 {
		t.Errorf("plain text box changed")
	}
	// A subscript is narrower than the same letters at full size.
	ws, _, _ := subTextHandler.Box("Q_{NX}", f)
	wf, _, _ := subTextHandler.Plain.Box("QNX", f)
	if !(ws < wf) {
		t.Errorf("subscript width %v not below full-size %v", ws, wf)
	}
}
